// Sources over HTTP: validation, normalisation and de-duplication, lists, updates, isolation, events.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { sqlRows } from "../../../db/inspect.ts";

async function setup() {
  const ctx = createTestContext();
  return { ctx, a: await userWithKey(ctx), b: await userWithKey(ctx) };
}

describe("POST /api/v1/sources", () => {
  test("a new URL is 201 pending with Location; the same page again is 200 with notebooks added", async () => {
    const { ctx, a } = await setup();
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "NB" } })).body;
    const c = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "HTTPS://Example.com:443/post?b=2&utm_source=x&a=1#top", title: "Mine" },
    });
    expect(c.status).toBe(201);
    expect(c.headers.get("location")).toBe(`/api/v1/sources/${c.body.id}`);
    expect(c.body).toMatchObject({
      status: "pending",
      title: "Mine",
      normalized_url: "https://example.com/post?a=1&b=2",
      notebook_ids: [],
    });
    expect(c.body.id).toMatch(/^src_[0-9A-Z]{26}$/);
    const again = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/post?a=1&b=2&fbclid=zz", notebook_ids: [nb.id] },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(c.body.id);
    expect(again.body.notebook_ids).toEqual([nb.id]);
    expect((await ctx.queue.counts()).queued).toBe(1);
  });

  test("quick podcast settings are validated and recorded", async () => {
    const { ctx, a } = await setup();
    const r = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/q", generate_quick_podcast: true },
    });
    expect(r.body).toMatchObject({ generate_quick_podcast: true, podcast_format: "deep_dive" });
    const r2 = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/q2", generate_quick_podcast: true, podcast_format: "brief" },
    });
    expect(r2.body.podcast_format).toBe("brief");
    const bad = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/q3", podcast_format: "rap_battle" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("podcast_format");
  });

  test.each([
    [{}, "url"],
    [{ url: "" }, "url"],
    [{ url: "ftp://example.com/x" }, "url"],
    [{ url: "not a url" }, "url"],
    [{ url: `https://example.com/${"a".repeat(2100)}` }, "url"],
    [{ url: "https://example.com/", notebook_ids: ["nb_01J0000000000000000000000A"] }, "notebook_ids[0]"],
    [{ url: "https://example.com/", notebook_ids: ["bogus"] }, "notebook_ids[0]"],
    [{ url: "https://example.com/", title: "" }, "title"],
    [{ url: "https://example.com/", generate_quick_podcast: "yes" }, "generate_quick_podcast"],
  ])("invalid %j → 422 at %s", async (body, path) => {
    const { ctx, a } = await setup();
    const r = await call(ctx, "POST", "/api/v1/sources", { key: a.key, body });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("validation_failed");
    expect(r.body.errors[0].path).toBe(path);
    expect((await ctx.queue.counts()).queued).toBe(0);
  });

  test("another user's notebook cannot be named", async () => {
    const { ctx, a, b } = await setup();
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: b.key, body: { name: "B" } })).body;
    const r = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/", notebook_ids: [nb.id] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe("notebook_ids[0]");
  });
});

describe("reading and changing sources", () => {
  test("check tells whether a URL is saved", async () => {
    const { ctx, a, b } = await setup();
    const s = (
      await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/p?utm_medium=x" } })
    ).body;
    const r = await call(ctx, "GET", `/api/v1/sources/check?url=${encodeURIComponent("https://EXAMPLE.com/p#frag")}`, {
      key: a.key,
    });
    expect(r.body).toEqual({
      url: "https://example.com/p#frag",
      normalized_url: "https://example.com/p",
      saved: true,
      source_id: s.id,
    });
    const other = await call(ctx, "GET", `/api/v1/sources/check?url=${encodeURIComponent("https://example.com/p")}`, {
      key: b.key,
    });
    expect(other.body).toMatchObject({ saved: false, source_id: null });
    expect((await call(ctx, "GET", "/api/v1/sources/check?url=nope", { key: a.key })).status).toBe(422);
  });

  test("list: newest first, cursor pagination, filters", async () => {
    const { ctx, a } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: `https://example.com/${i}` } })).body.id,
      );
    const p1 = await call(ctx, "GET", "/api/v1/sources?limit=2", { key: a.key });
    expect(p1.body.data.map((s: any) => s.id)).toEqual([ids[4], ids[3]]);
    expect(p1.headers.get("link")).toMatch(/^<\/api\/v1\/sources\?limit=2&cursor=[^>]+>; rel="next"$/);
    const p2 = await call(ctx, "GET", `/api/v1/sources?limit=2&cursor=${p1.body.next_cursor}`, { key: a.key });
    expect(p2.body.data.map((s: any) => s.id)).toEqual([ids[2], ids[1]]);
    expect((await call(ctx, "GET", "/api/v1/sources?status=ready", { key: a.key })).body.data).toEqual([]);
    expect((await call(ctx, "GET", "/api/v1/sources?status=pending", { key: a.key })).body.data).toHaveLength(5);
    expect((await call(ctx, "GET", "/api/v1/sources?status=weird", { key: a.key })).status).toBe(422);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await call(ctx, "GET", `/api/v1/sources?created_after=${future}`, { key: a.key })).body.data).toEqual([]);
    expect((await call(ctx, "GET", "/api/v1/sources?created_after=yesterday", { key: a.key })).status).toBe(422);
  });

  test("patch title (null returns to the extracted one), delete, refetch conflicts while pending", async () => {
    const { ctx, a } = await setup();
    const s = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/t" } })).body;
    const p = await call(ctx, "PATCH", `/api/v1/sources/${s.id}`, { key: a.key, body: { title: "Better" } });
    expect(p.body.title).toBe("Better");
    const bad = await call(ctx, "PATCH", `/api/v1/sources/${s.id}`, { key: a.key, body: { podcast_format: "nope" } });
    expect(bad.status).toBe(422);
    // null is not one of the formats either (the document never listed it): 422, not a cleared format.
    const none = await call(ctx, "PATCH", `/api/v1/sources/${s.id}`, { key: a.key, body: { podcast_format: null } });
    expect(none.status).toBe(422);
    expect(none.headers.get("content-type")).toStartWith("application/problem+json");
    expect(none.body.errors).toEqual([
      {
        path: "podcast_format",
        message: "must be one of: solo_expert, deep_dive, brief, critique, debate, unabridged",
      },
    ]);
    expect((await call(ctx, "POST", `/api/v1/sources/${s.id}/refetch`, { key: a.key })).status).toBe(409);
    expect((await call(ctx, "DELETE", `/api/v1/sources/${s.id}`, { key: a.key })).status).toBe(200);
    expect((await call(ctx, "GET", `/api/v1/sources/${s.id}`, { key: a.key })).status).toBe(404);
    const types = (await ctx.services.events.forUser(a.userId, { limit: 10 })).map((e) => e.type).reverse();
    expect(types).toEqual(["source.created", "source.updated", "source.deleted"]);
  });

  test("another user's source is 404 on every verb", async () => {
    const { ctx, a, b } = await setup();
    const s = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/secret" } }))
      .body;
    for (const [method, path, body] of [
      ["GET", `/api/v1/sources/${s.id}`],
      ["GET", `/api/v1/sources/${s.id}?include=content`],
      ["PATCH", `/api/v1/sources/${s.id}`, { title: "x" }],
      ["DELETE", `/api/v1/sources/${s.id}`],
      ["POST", `/api/v1/sources/${s.id}/refetch`],
    ] as const) {
      const r = await call(ctx, method, path, { key: b.key, body });
      expect(r.status).toBe(404);
    }
    expect((await call(ctx, "GET", "/api/v1/sources", { key: b.key })).body.data).toEqual([]);
  });

  test("a failed write leaves no event and no job", async () => {
    const { ctx, a } = await setup();
    if (ctx.db.engine === "postgres") {
      await sqlRows(ctx.db, "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE 'boom'; END $$");
      await sqlRows(
        ctx.db,
        "CREATE TRIGGER boom BEFORE INSERT ON notebook_sources FOR EACH ROW EXECUTE FUNCTION boom()",
      );
    } else
      await sqlRows(
        ctx.db,
        "CREATE TRIGGER boom BEFORE INSERT ON notebook_sources BEGIN SELECT RAISE(ABORT, 'boom'); END",
      );
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "NB" } })).body;
    const before = (await ctx.services.events.forUser(a.userId, { limit: 100 })).length;
    const r = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/z", notebook_ids: [nb.id] },
    });
    expect(r.status).toBe(500);
    expect(r.body.detail).not.toContain("boom");
    expect((await ctx.services.events.forUser(a.userId, { limit: 100 })).length).toBe(before);
    expect((await ctx.queue.counts()).queued).toBe(0);
    expect(await sqlRows(ctx.db, "SELECT count(*) AS n FROM sources")).toEqual([{ n: 0 }]);
  });
});
