// Tags, archived state and saved_at on sources: the ?tag= filter and sort=saved_at paging.
import { expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { queryPlan, sqlRows } from "../../../db/inspect.ts";
import { taggedQuery } from "./repo.ts";

test("tags and archived are set by PATCH, filtered with ?tag=, and kept per owner", async () => {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  const s1 = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/one" } }))
    .body;
  const s2 = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/two" } }))
    .body;
  expect(s1).toMatchObject({ tags: [], archived: false, saved_at: s1.created_at });
  const p = await call(ctx, "PATCH", `/api/v1/sources/${s1.id}`, {
    key: a.key,
    body: { tags: ["café", "rust"], archived: true },
  });
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
  for (let i = 0; i < 5; i++)
    ids.push(
      (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: `https://example.com/p${i}` } })).body.id,
    );
  // Saved long ago in reverse order of creation; two share a time.
  const times = [
    "2019-01-05T00:00:00.000Z",
    "2019-01-04T00:00:00.000Z",
    "2019-01-03T00:00:00.000Z",
    "2019-01-03T00:00:00.000Z",
    "2019-01-01T00:00:00.000Z",
  ];
  for (const [i, t] of times.entries())
    await sqlRows(ctx.db, "UPDATE sources SET saved_at = ? WHERE id = ?", t, ids[i]!);
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

/** Five sources saved long ago in reverse order of creation, two sharing a saved time, all in one notebook. */
async function savedAtLibrary() {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Reading" } })).body
    .id as string;
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(
      (
        await call(ctx, "POST", "/api/v1/sources", {
          key: a.key,
          body: { url: `https://example.com/n${i}`, notebook_ids: [nb] },
        })
      ).body.id,
    );
  }
  const times = [
    "2019-01-05T00:00:00.000Z",
    "2019-01-04T00:00:00.000Z",
    "2019-01-03T00:00:00.000Z",
    "2019-01-03T00:00:00.000Z",
    "2019-01-01T00:00:00.000Z",
  ];
  for (const [i, t] of times.entries())
    await sqlRows(ctx.db, "UPDATE sources SET saved_at = ? WHERE id = ?", t, ids[i]!);
  // One more, outside the notebook, saved in between: it must not leak into the notebook's list.
  const outside = (
    await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/outside" } })
  ).body.id as string;
  await sqlRows(
    ctx.db,
    "UPDATE sources SET saved_at = ?, status = 'ready' WHERE id = ?",
    "2019-01-02T00:00:00.000Z",
    outside,
  );
  return { ctx, a, nb, ids, outside, expected: [ids[0]!, ids[1]!, ids[3]!, ids[2]!, ids[4]!] };
}

async function pageAll(ctx: ReturnType<typeof createTestContext>, key: string, query: string): Promise<string[]> {
  const seen: string[] = [];
  let path = `/api/v1/sources?${query}&limit=2`;
  for (;;) {
    const r = await call(ctx, "GET", path, { key });
    expect(r.status).toBe(200);
    seen.push(...r.body.data.map((s: any) => s.id));
    if (!r.body.next_cursor) return seen;
    path = `/api/v1/sources?${query}&limit=2&cursor=${r.body.next_cursor}`;
  }
}

test("sort=saved_at with notebook_id orders the notebook by saved time and pages through ties", async () => {
  const { ctx, a, nb, expected } = await savedAtLibrary();
  expect(await pageAll(ctx, a.key, `notebook_id=${nb}&sort=saved_at`)).toEqual(expected);
  // By creation (the default) the notebook still lists newest created first.
  expect(await pageAll(ctx, a.key, `notebook_id=${nb}`)).toEqual([...expected].sort().reverse());
});

test("sort=saved_at keeps the status and created_after filters, and refuses a cursor of the other order", async () => {
  const { ctx, a, ids, outside } = await savedAtLibrary();
  await sqlRows(ctx.db, "UPDATE sources SET status = 'ready' WHERE id IN (?, ?)", ids[1]!, ids[4]!);
  expect(await pageAll(ctx, a.key, "sort=saved_at&status=ready")).toEqual([ids[1]!, outside, ids[4]!]);
  await sqlRows(
    ctx.db,
    "UPDATE sources SET created_at = '2030-01-01T00:00:00.000Z' WHERE id IN (?, ?, ?)",
    ids[0]!,
    ids[4]!,
    outside,
  );
  expect(await pageAll(ctx, a.key, "sort=saved_at&created_after=2029-12-31T00:00:00Z")).toEqual([
    ids[0]!,
    outside,
    ids[4]!,
  ]);
  const byCreated = await call(ctx, "GET", "/api/v1/sources?limit=1", { key: a.key });
  const mixed = await call(ctx, "GET", `/api/v1/sources?sort=saved_at&cursor=${byCreated.body.next_cursor}`, {
    key: a.key,
  });
  expect(mixed.status).toBe(422);
  expect(mixed.body.errors[0].path).toBe("query.cursor");
});

test("the owner's tag list is read from the index sources_user_tags alone, never through the rows' text", async () => {
  const ctx = createTestContext();
  for (const tag of [undefined, "rust"]) {
    const plan = await queryPlan(ctx.db, taggedQuery(ctx.db.shared, ctx.db.dialect, "usr_x", tag).toSQL());
    if (ctx.db.engine === "sqlite") expect(plan).toContain("USING COVERING INDEX sources_user_tags");
    else expect(plan).toContain("sources_user_tags");
  }
});
