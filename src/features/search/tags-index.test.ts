// Tags are indexed with a source's text: every way they change (PATCH, an import merging tags into an
// already saved source) indexes the source again, so search finds the new tag and not the old one.
import { sqlRows } from "../../db/inspect.ts";
import { expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { systemActor } from "../../actor.ts";
import { runImports, upload } from "../imports/test-support.ts";

/** A source made ready the way ingestion leaves it: content stored, then the ready hooks (which index it). */
async function readySource(ctx: TestContext, userId: string, url: string): Promise<string> {
  const actor = systemActor(userId, "test");
  const { source } = await ctx.services.sources.create(actor, { url, title: "Bread notes" });
  await sqlRows(
    ctx.db,
    "UPDATE sources SET status = 'ready', content = ? WHERE id = ?",
    "A loaf wants a long, cool proof.",
    source.id,
  );
  const row = await ctx.services.sources.get(actor, source.id);
  for (const h of ctx.services.hooks.onSourceReady) await h(actor, row);
  return source.id;
}

const found = async (ctx: TestContext, key: string, query: string) =>
  (
    (await call(ctx, "POST", "/api/v1/search", { key, body: { query, mode: "text" } })).body.data as { id: string }[]
  ).map((h) => h.id);

test("PATCH tags: the new tag is found by search and the old one no longer", async () => {
  const ctx = createTestContext();
  const u = await userWithKey(ctx);
  const id = await readySource(ctx, u.userId, "https://bread.example/loaf");
  expect(await found(ctx, u.key, "proof")).toEqual([id]);
  expect(await found(ctx, u.key, "sourdough")).toEqual([]);
  await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: u.key, body: { tags: ["sourdough"] } });
  expect(await found(ctx, u.key, "sourdough")).toEqual([id]);
  await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: u.key, body: { tags: ["wholemeal"] } });
  expect(await found(ctx, u.key, "wholemeal")).toEqual([id]);
  expect(await found(ctx, u.key, "sourdough")).toEqual([]);
  // The text itself is still indexed once.
  expect(await found(ctx, u.key, "proof")).toEqual([id]);
});

test("an import merging tags into an already saved source makes them searchable", async () => {
  const ctx = createTestContext();
  const u = await userWithKey(ctx);
  const id = await readySource(ctx, u.userId, "https://bread.example/loaf");
  const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://bread.example/loaf?utm_source=x" ADD_DATE="1500000000" TAGS="levain,baking">Loaf</A>\n</DL><p>\n`;
  expect((await upload(ctx, u.key, file, { format: "netscape" })).status).toBe(202);
  await runImports(ctx);
  expect((await call(ctx, "GET", `/api/v1/sources/${id}`, { key: u.key })).body.tags).toEqual(["levain", "baking"]);
  expect(await found(ctx, u.key, "levain")).toEqual([id]);
});
