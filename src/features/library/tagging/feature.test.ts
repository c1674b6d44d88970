// Tag suggestions through the real pipeline: a saved page becomes ready, a background job suggests
// tags (quietly, as advice) or applies them when the owner turned auto-tagging on; imports get none.
import { afterAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { startOutsideWeb } from "../../../../test/outside-web.ts";
import { systemActor } from "../../../actor.ts";
import { insertReadySource } from "../../podcasts/testing.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

async function withTaggedLibrary() {
  const ctx = createTestContext();
  const u = await userWithKey(ctx);
  const older = await insertReadySource(ctx.services, u.userId, {
    title: "Rock pools",
    markdown: "Anemones at low tide.",
  });
  await call(ctx, "PATCH", `/api/v1/sources/${older}`, { key: u.key, body: { tags: ["Tide-Pools", "oceans"] } });
  return { ctx, u };
}

async function saveArticle(ctx: ReturnType<typeof createTestContext>, key: string) {
  const saved = await call(ctx, "POST", "/api/v1/sources", { key, body: { url: web.url("/article") } });
  await ctx.runner.drain({ timeoutMs: 30_000 });
  return (await call(ctx, "GET", `/api/v1/sources/${saved.body.id}`, { key })).body;
}

describe("tag suggestions at ingestion", () => {
  test("a saved page is offered the library's own tag it names, quietly; taking one makes it a tag", async () => {
    const { ctx, u } = await withTaggedLibrary();
    const source = await saveArticle(ctx, u.key);
    expect(source.status).toBe("ready");
    expect(source.tags).toEqual([]);
    expect(source.suggested_tags[0]).toBe("Tide-Pools");
    expect(source.suggested_tags.length).toBeLessThanOrEqual(5);
    // Suggesting recorded no event: created, then ready.
    const types = (await ctx.services.events.forUser(u.userId, { limit: 20 }))
      .filter((e) => (e.data as { id?: string }).id === source.id)
      .map((e) => e.type);
    expect(types).toEqual(["source.updated", "source.created"]);
    const taken = await call(ctx, "PATCH", `/api/v1/sources/${source.id}`, {
      key: u.key,
      body: { tags: ["Tide-Pools"] },
    });
    expect(taken.body.tags).toEqual(["Tide-Pools"]);
    expect(taken.body.suggested_tags).not.toContain("Tide-Pools");
    const dismissed = await call(ctx, "PATCH", `/api/v1/sources/${source.id}`, {
      key: u.key,
      body: { suggested_tags: [] },
    });
    expect(dismissed.body.suggested_tags).toEqual([]);
  });

  test("with auto-tagging on, the suggestions are applied as tags, recorded as a change", async () => {
    const { ctx, u } = await withTaggedLibrary();
    await call(ctx, "PATCH", "/api/v1/me/preferences", { key: u.key, body: { auto_tag: true } });
    const source = await saveArticle(ctx, u.key);
    expect(source.tags).toContain("Tide-Pools");
    expect(source.suggested_tags).toEqual([]);
    const types = (await ctx.services.events.forUser(u.userId, { limit: 20 }))
      .filter((e) => (e.data as { id?: string }).id === source.id)
      .map((e) => e.type);
    expect(types).toEqual(["source.updated", "source.updated", "source.created"]);
  });

  test("imported links are not tagged: their files carry their own labels", async () => {
    const { ctx, u } = await withTaggedLibrary();
    await ctx.services.imports.create(systemActor(u.userId, "test"), {
      bytes: new TextEncoder().encode(`${web.url("/article")}\n`),
      filename: "links.txt",
      format: "urls",
    });
    await ctx.runner.drain({ timeoutMs: 30_000 });
    const list = await call(ctx, "GET", "/api/v1/sources?status=ready", { key: u.key });
    const imported = list.body.data.find((s: { url: string }) => s.url === web.url("/article"));
    expect(imported).toBeDefined();
    expect(imported.suggested_tags).toEqual([]);
  });

  test("GET /api/v1/tags/similar proposes merging tags spelled twice", async () => {
    const { ctx, u } = await withTaggedLibrary();
    const other = await insertReadySource(ctx.services, u.userId, { title: "More pools", markdown: "Crabs." });
    await call(ctx, "PATCH", `/api/v1/sources/${other}`, { key: u.key, body: { tags: ["tide pools"] } });
    const r = await call(ctx, "GET", "/api/v1/tags/similar", { key: u.key });
    expect(r.status).toBe(200);
    const pair = r.body.data.find((p: { reason: string }) => p.reason === "spelling");
    expect([pair.keep, pair.merge].sort()).toEqual(["Tide-Pools", "tide pools"].sort());
  });
});
