// Reading state over the API: favorite, read, progress and the triage views, and which changes are events.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";
import { readingMinutes } from "./public.ts";

async function setup() {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const ids: string[] = [];
  for (const n of [1, 2, 3, 4]) {
    const r = await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: `https://example.com/${n}` } });
    ids.push(r.body.id);
  }
  return { ctx, a, ids };
}

const listIds = async (ctx: ReturnType<typeof createTestContext>, key: string, q: string) =>
  ((await call(ctx, "GET", `/api/v1/sources?${q}`, { key })).body.data as { id: string }[]).map((s) => s.id);

const updatedEvents = async (ctx: ReturnType<typeof createTestContext>, userId: string) =>
  (await ctx.services.events.forUser(userId, { limit: 100 })).filter((e) => e.type === "source.updated").length;

describe("reading state", () => {
  test("a new source is unread, not a favourite, at the start, with no image or link verdict", async () => {
    const { ctx, a, ids } = await setup();
    const r = await call(ctx, "GET", `/api/v1/sources/${ids[0]}`, { key: a.key });
    expect(r.body).toMatchObject({
      archived: false,
      favorite: false,
      read_at: null,
      progress: 0,
      image_url: null,
      original_status: null,
      original_checked_at: null,
    });
  });

  test("favorite, archive and read are set and cleared, each recorded as source.updated", async () => {
    const { ctx, a, ids } = await setup();
    const id = ids[0]!;
    const before = await updatedEvents(ctx, a.userId);
    const fav = await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: a.key, body: { favorite: true } });
    expect(fav.body.favorite).toBe(true);
    const read = await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: a.key, body: { read: true } });
    expect(read.body.read_at).toEqual(expect.any(String));
    expect(read.body.progress).toBe(1);
    const unread = await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: a.key, body: { read: false } });
    expect(unread.body).toMatchObject({ read_at: null, progress: 0, favorite: true });
    expect(await updatedEvents(ctx, a.userId)).toBe(before + 3);
  });

  test("progress alone is saved quietly; reaching the end marks the source read, as an event", async () => {
    const { ctx, a, ids } = await setup();
    const id = ids[1]!;
    const before = await updatedEvents(ctx, a.userId);
    const mid = await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: a.key, body: { progress: 0.42 } });
    expect(mid.status).toBe(200);
    expect(mid.body.progress).toBe(0.42);
    expect((await call(ctx, "GET", `/api/v1/sources/${id}`, { key: a.key })).body.progress).toBe(0.42);
    expect(await updatedEvents(ctx, a.userId)).toBe(before);
    const end = await call(ctx, "PATCH", `/api/v1/sources/${id}`, { key: a.key, body: { progress: 1 } });
    expect(end.body.read_at).toEqual(expect.any(String));
    expect(await updatedEvents(ctx, a.userId)).toBe(before + 1);
  });

  test("progress outside 0..1 is 422 naming the field", async () => {
    const { ctx, a, ids } = await setup();
    const r = await call(ctx, "PATCH", `/api/v1/sources/${ids[0]}`, { key: a.key, body: { progress: 1.5 } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe("progress");
  });

  test("the triage views and state filters combine with paging", async () => {
    const { ctx, a, ids } = await setup();
    const [s1, s2, s3, s4] = ids as [string, string, string, string];
    await call(ctx, "PATCH", `/api/v1/sources/${s1}`, { key: a.key, body: { archived: true } });
    await call(ctx, "PATCH", `/api/v1/sources/${s2}`, { key: a.key, body: { read: true, favorite: true } });
    await call(ctx, "PATCH", `/api/v1/sources/${s3}`, { key: a.key, body: { favorite: true } });
    expect(await listIds(ctx, a.key, "view=inbox")).toEqual([s4, s3]);
    expect(await listIds(ctx, a.key, "view=archive")).toEqual([s1]);
    expect(await listIds(ctx, a.key, "view=favorites")).toEqual([s3, s2]);
    expect(await listIds(ctx, a.key, "view=all")).toEqual([s4, s3, s2, s1]);
    expect(await listIds(ctx, a.key, "read=true")).toEqual([s2]);
    expect(await listIds(ctx, a.key, "favorite=true&read=false")).toEqual([s3]);
    expect(await listIds(ctx, a.key, "archived=false&sort=saved_at")).toEqual([s4, s3, s2]);
    const page1 = await call(ctx, "GET", "/api/v1/sources?view=inbox&limit=1", { key: a.key });
    expect(page1.body.data.map((s: { id: string }) => s.id)).toEqual([s4]);
    const next = await call(ctx, "GET", `/api/v1/sources?view=inbox&limit=1&cursor=${page1.body.next_cursor}`, {
      key: a.key,
    });
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual([s3]);
    const bad = await call(ctx, "GET", "/api/v1/sources?view=later", { key: a.key });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("query.view");
  });

  test("reading time follows the word count", async () => {
    const { ctx, a, ids } = await setup();
    expect(readingMinutes(null)).toBeNull();
    expect(readingMinutes(50)).toBe(1);
    expect(readingMinutes(2380)).toBe(10);
    expect((await call(ctx, "GET", `/api/v1/sources/${ids[0]}`, { key: a.key })).body.reading_minutes).toBeNull();
  });
});
