// /api/v1/tags: counts, rename, merge and delete across the library, per owner, as source events.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";

async function setup() {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  const tagged = async (key: string, n: number, tags: string[]) => {
    const s = await call(ctx, "POST", "/api/v1/sources", { key, body: { url: `https://example.com/${n}` } });
    await call(ctx, "PATCH", `/api/v1/sources/${s.body.id}`, { key, body: { tags } });
    return s.body.id as string;
  };
  const s1 = await tagged(a.key, 1, ["rust", "Systems"]);
  const s2 = await tagged(a.key, 2, ["rust", "systems"]);
  const s3 = await tagged(a.key, 3, ["cooking"]);
  await tagged(b.key, 4, ["rust"]);
  return { ctx, a, b, s1, s2, s3 };
}

const tagsOf = async (ctx: ReturnType<typeof createTestContext>, key: string, id: string) =>
  (await call(ctx, "GET", `/api/v1/sources/${id}`, { key })).body.tags;

describe("/api/v1/tags", () => {
  test("lists the owner's tags with counts, most used first, and filters by contained text", async () => {
    const { ctx, a } = await setup();
    const all = await call(ctx, "GET", "/api/v1/tags", { key: a.key });
    expect(all.body).toEqual({
      data: [
        { name: "rust", count: 2 },
        { name: "cooking", count: 1 },
        { name: "systems", count: 1 },
        { name: "Systems", count: 1 },
      ],
      next_cursor: null,
    });
    const sys = await call(ctx, "GET", "/api/v1/tags?q=SYS", { key: a.key });
    expect(sys.body.data.map((t: { name: string }) => t.name)).toEqual(["systems", "Systems"]);
  });

  test("renaming onto an existing tag merges them: each source carries it once; others' tags are untouched", async () => {
    const { ctx, a, b, s1, s2 } = await setup();
    const r = await call(ctx, "PATCH", "/api/v1/tags/Systems", { key: a.key, body: { name: "systems" } });
    expect(r.body).toEqual({ name: "systems", count: 1 });
    expect(await tagsOf(ctx, a.key, s1)).toEqual(["rust", "systems"]);
    expect(await tagsOf(ctx, a.key, s2)).toEqual(["rust", "systems"]);
    const renamed = await call(ctx, "PATCH", "/api/v1/tags/rust", { key: a.key, body: { name: "rust-lang" } });
    expect(renamed.body.count).toBe(2);
    expect((await call(ctx, "GET", "/api/v1/tags", { key: b.key })).body.data).toEqual([{ name: "rust", count: 1 }]);
    const events = await ctx.services.events.forUser(a.userId, { limit: 100 });
    expect(events.filter((e) => e.type === "source.updated").length).toBeGreaterThanOrEqual(3 + 3);
  });

  test("delete takes the tag off every source and keeps the sources; an unknown tag is 404", async () => {
    const { ctx, a, s1, s3 } = await setup();
    const d = await call(ctx, "DELETE", "/api/v1/tags/rust", { key: a.key });
    expect(d.body).toEqual({ name: "rust", count: 2 });
    expect(await tagsOf(ctx, a.key, s1)).toEqual(["Systems"]);
    expect(await tagsOf(ctx, a.key, s3)).toEqual(["cooking"]);
    expect((await call(ctx, "DELETE", "/api/v1/tags/rust", { key: a.key })).status).toBe(404);
    const other = await call(ctx, "PATCH", "/api/v1/tags/nothing", { key: a.key, body: { name: "x" } });
    expect(other.status).toBe(404);
    const blank = await call(ctx, "PATCH", "/api/v1/tags/cooking", { key: a.key, body: { name: "   " } });
    expect(blank.status).toBe(422);
    expect(blank.body.errors[0].path).toBe("name");
  });

  test("the tag filter finds a renamed tag under its new name only", async () => {
    const { ctx, a } = await setup();
    await call(ctx, "PATCH", "/api/v1/tags/cooking", { key: a.key, body: { name: "gastronomy" } });
    const list = await call(ctx, "GET", "/api/v1/sources?tag=gastronomy", { key: a.key });
    expect(list.body.data).toHaveLength(1);
    expect((await call(ctx, "GET", "/api/v1/sources?tag=cooking", { key: a.key })).body.data).toEqual([]);
  });
});

describe("tags when saving a link", () => {
  test("a new source takes the tags given; saving it again adds new ones to its own, recorded as a change", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const first = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/tagged", tags: ["rust", " wasm "] },
    });
    expect(first.status).toBe(201);
    expect(first.body.tags).toEqual(["rust", "wasm"]);
    const again = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/tagged", tags: ["wasm", "web"] },
    });
    expect(again.status).toBe(200);
    expect(again.body.tags).toEqual(["rust", "wasm", "web"]);
    const same = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/tagged", tags: ["rust"] },
    });
    expect(same.body.updated_at).toBe(again.body.updated_at);
    const bad = await call(ctx, "POST", "/api/v1/sources", {
      key: a.key,
      body: { url: "https://example.com/x", tags: [""] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("tags[0]");
  });
});
