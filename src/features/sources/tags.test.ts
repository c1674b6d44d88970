// Tags, archived state and saved_at on sources: the ?tag= filter and sort=saved_at paging.
import { expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";

test("tags and archived are set by PATCH, filtered with ?tag=, and kept per owner", async () => {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  const s1 = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/one" } })).body;
  const s2 = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/two" } })).body;
  expect(s1).toMatchObject({ tags: [], archived: false, saved_at: s1.created_at });
  const p = await call(ctx, "PATCH", `/api/v1/sources/${s1.id}`, { key: a.key, body: { tags: ["café", "rust"], archived: true } });
  expect(p.body).toMatchObject({ tags: ["café", "rust"], archived: true });
  await call(ctx, "PATCH", `/api/v1/sources/${s2.id}`, { key: a.key, body: { tags: ["rust"] } });
  const caf = await call(ctx, "GET", `/api/v1/sources?tag=${encodeURIComponent("café")}`, { key: a.key });
  expect(caf.body.data.map((s: any) => s.id)).toEqual([s1.id]);
  const rust = await call(ctx, "GET", "/api/v1/sources?tag=rust", { key: a.key });
  expect(rust.body.data.map((s: any) => s.id)).toEqual([s2.id, s1.id]);
  expect((await call(ctx, "GET", "/api/v1/sources?tag=rust", { key: b.key })).body.data).toEqual([]);
  expect((await call(ctx, "GET", "/api/v1/sources?tag=ru", { key: a.key })).body.data).toEqual([]);
});

test("sort=saved_at orders by the original saved time and pages through ties", async () => {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const ids: string[] = [];
  const at = (i: number) => ids[i]!;
  for (let i = 0; i < 5; i++) ids.push((await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: `https://example.com/p${i}` } })).body.id);
  // Saved long ago in reverse order of creation; two share a time.
  const times = ["2019-01-05T00:00:00.000Z", "2019-01-04T00:00:00.000Z", "2019-01-03T00:00:00.000Z", "2019-01-03T00:00:00.000Z", "2019-01-01T00:00:00.000Z"];
  times.forEach((t, i) => ctx.db.sqlite.query("UPDATE sources SET saved_at = ? WHERE id = ?").run(t, ids[i]!));
  const seen: string[] = [];
  let path = "/api/v1/sources?sort=saved_at&limit=2";
  for (;;) {
    const r = await call(ctx, "GET", path, { key: a.key });
    seen.push(...r.body.data.map((s: any) => s.id));
    if (!r.body.next_cursor) break;
    path = `/api/v1/sources?sort=saved_at&limit=2&cursor=${r.body.next_cursor}`;
  }
  expect(seen).toEqual([at(0), at(1), at(3), at(2), at(4)]);
  const byCreated = await call(ctx, "GET", "/api/v1/sources?limit=5", { key: a.key });
  expect(byCreated.body.data.map((s: any) => s.id)).toEqual([...ids].reverse());
  expect((await call(ctx, "GET", "/api/v1/sources?sort=title", { key: a.key })).status).toBe(422);
});
