// Podcasts over HTTP: creation and validation, isolation, lists, events, credits, audio with Range, deletion.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { parseMp3Frames } from "./audio/mp3-parse.ts";
import { episodeFile, insertReadySource, readId3v2 } from "./testing.ts";

const TINY =
  "# Tide pools\n\nTide pools hold small animals when the sea goes out. Sea stars grip the rock with tube feet.\n";

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  contexts.push(ctx);
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  const src = await insertReadySource(ctx.services, a.userId, { title: "Tide pools", markdown: TINY });
  return { ctx, a, b, src };
}

const eventTypes = async (ctx: TestContext, userId: string) =>
  (await ctx.services.events.forUser(userId, { limit: 100 }))
    .map((e) => e.type)
    .filter((t) => t.startsWith("podcast."))
    .reverse();

describe("POST /api/v1/podcasts", () => {
  test("202 queued with Location, defaults (deep_dive, source title, source language), one job, one event", async () => {
    const { ctx, a, src } = await setup();
    const r = await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src] } });
    expect(r.status).toBe(202);
    expect(r.headers.get("location")).toBe(`/api/v1/podcasts/${r.body.id}`);
    expect(r.body).toMatchObject({
      format: "deep_dive",
      status: "queued",
      title: "Tide pools",
      language: "en",
      source_ids: [src],
      audio_url: null,
      transcript: null,
      duration_seconds: null,
      error: null,
      credits_used: null,
      speakers: [
        { name: "Maya", role: "host" },
        { name: "Theo", role: "co-host" },
      ],
    });
    expect(r.body.id).toMatch(/^pod_[0-9A-Z]{26}$/);
    // 2 credits a minute × 1 planned minute: the script of a two-sentence source is well under a minute, not deep_dive's 8.
    expect(r.body.credits_quoted).toBe(2);
    expect((await ctx.queue.counts("podcast.generate")).queued).toBe(1);
    expect(await eventTypes(ctx, a.userId)).toEqual(["podcast.created"]);
  });

  test("a notebook's ready sources, with the given title and language", async () => {
    const { ctx, a, src } = await setup();
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Coast" } })).body;
    await call(ctx, "PUT", `/api/v1/notebooks/${nb.id}/sources/${src}`, { key: a.key });
    const r = await call(ctx, "POST", "/api/v1/podcasts", {
      key: a.key,
      body: { notebook_id: nb.id, format: "brief", title: "Coast notes", language: "fr" },
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      notebook_id: nb.id,
      source_ids: [src],
      title: "Coast notes",
      language: "fr",
      format: "brief",
      credits_quoted: 2,
    });
  });

  test.each([
    [{ source_ids: ["SRC"], format: "rap_battle" }, "format"],
    [{}, "source_ids"],
    [{ source_ids: [] }, "source_ids"],
    [{ source_ids: ["bogus"] }, "source_ids[0]"],
    [{ source_ids: ["src_01J0000000000000000000000A"] }, "source_ids[0]"],
    [{ notebook_id: "nb_01J0000000000000000000000A" }, "notebook_id"],
    [{ source_ids: ["SRC"], title: "" }, "title"],
    [{ source_ids: ["SRC"], language: "not a language" }, "language"],
  ])("%j → 422 at %s, nothing queued", async (body, path) => {
    const { ctx, a, src } = await setup();
    const r = await call(ctx, "POST", "/api/v1/podcasts", {
      key: a.key,
      body: JSON.parse(JSON.stringify(body).replace("SRC", src)),
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe(path);
    expect((await ctx.queue.counts("podcast.generate")).queued).toBe(0);
  });

  test("sources and notebooks must be the caller's, ready, and given one way", async () => {
    const { ctx, a, b, src } = await setup();
    const pending = (
      await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/later" } })
    ).body.id;
    const theirs = await insertReadySource(ctx.services, b.userId, { markdown: TINY });
    const nbB = (await call(ctx, "POST", "/api/v1/notebooks", { key: b.key, body: { name: "B" } })).body.id;
    const emptyNb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Empty" } })).body.id;
    const cases: [unknown, string, RegExp][] = [
      [{ source_ids: [src, theirs] }, "source_ids[1]", /does not exist/],
      [{ source_ids: [pending] }, "source_ids[0]", /not ready yet \(status pending\)/],
      [{ notebook_id: nbB }, "notebook_id", /does not exist/],
      [{ notebook_id: emptyNb }, "notebook_id", /no ready sources/],
      [{ source_ids: [src], notebook_id: emptyNb }, "notebook_id", /not both/],
    ];
    for (const [body, path, message] of cases) {
      const r = await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body });
      expect({ status: r.status, path: r.body.errors?.[0]?.path }).toEqual({ status: 422, path });
      expect(r.body.detail).toMatch(message);
    }
    expect((await ctx.queue.counts("podcast.generate")).queued).toBe(0);
  });

  test("no key → 401", async () => {
    const { ctx, src } = await setup();
    expect((await call(ctx, "POST", "/api/v1/podcasts", { body: { source_ids: [src] } })).status).toBe(401);
    expect((await call(ctx, "GET", "/api/v1/podcasts")).status).toBe(401);
  });
});

describe("credits", () => {
  test("402 when the allowance cannot cover the planned minutes: nothing stored, nothing queued", async () => {
    const { ctx, a, src } = await setup({ DEFAULT_MONTHLY_CREDITS: "1" });
    const r = await call(ctx, "POST", "/api/v1/podcasts", {
      key: a.key,
      body: { source_ids: [src], format: "deep_dive" },
    });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe("insufficient_credit");
    expect(r.body.detail).toContain("needs 2 credits");
    expect((await ctx.queue.counts("podcast.generate")).queued).toBe(0);
    expect((await call(ctx, "GET", "/api/v1/podcasts", { key: a.key })).body.data).toEqual([]);
    expect(await eventTypes(ctx, a.userId)).toEqual([]);
  });

  test("episodes still generating hold their credits, so two cannot spend the same allowance", async () => {
    const { ctx, a, src } = await setup({ DEFAULT_MONTHLY_CREDITS: "3" });
    expect(
      (await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src], format: "brief" } }))
        .status,
    ).toBe(202);
    const second = await call(ctx, "POST", "/api/v1/podcasts", {
      key: a.key,
      body: { source_ids: [src], format: "brief" },
    });
    expect(second.status).toBe(402);
    expect(second.body.detail).toContain("2 held for episodes still generating");
  });

  test("charged once, on success, by the minutes actually made (never more than quoted)", async () => {
    const { ctx, a, src } = await setup();
    const id = (
      await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src], format: "deep_dive" } })
    ).body.id;
    expect((await call(ctx, "GET", "/api/v1/account", { key: a.key })).body.credits.used).toBe(0);
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const p = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: a.key })).body;
    expect(p.status).toBe("ready");
    expect(p.credits_used).toBe(2 * Math.ceil(p.duration_seconds / 60));
    const ledger = await sqlRows(ctx.db, "SELECT amount, reason, ref FROM credit_ledger");
    expect(ledger).toEqual([{ amount: p.credits_used, reason: "podcast", ref: id }]);
    await ctx.services.podcasts.generator.generate(id, { attempt: 2 }); // a duplicate delivery of the job
    expect(await sqlRows(ctx.db, "SELECT count(*) AS n FROM credit_ledger")).toEqual([{ n: 1 }]);
  }, 180_000);
});

describe("reading, listing, deleting", () => {
  test("another user's episode is 404 everywhere; lists are per user, newest first, paginated", async () => {
    const { ctx, a, b, src } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await call(ctx, "POST", "/api/v1/podcasts", { key: a.key, body: { source_ids: [src], format: "brief" } })).body
          .id,
      );
    for (const [method, path] of [
      ["GET", ""],
      ["DELETE", ""],
      ["GET", "/audio"],
    ] as const) {
      const r = await call(ctx, method, `/api/v1/podcasts/${ids[0]}${path}`, { key: b.key });
      expect(r.status).toBe(404);
    }
    expect((await call(ctx, "GET", "/api/v1/podcasts", { key: b.key })).body).toEqual({ data: [], next_cursor: null });
    const p1 = await call(ctx, "GET", "/api/v1/podcasts?limit=2", { key: a.key });
    expect(p1.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(p1.headers.get("link")).toContain('rel="next"');
    const p2 = await call(ctx, "GET", `/api/v1/podcasts?limit=2&cursor=${p1.body.next_cursor}`, { key: a.key });
    expect(p2.body).toMatchObject({ data: [{ id: ids[0] }], next_cursor: null });
    expect((await call(ctx, "GET", "/api/v1/podcasts?status=ready", { key: a.key })).body.data).toEqual([]);
    expect((await call(ctx, "GET", `/api/v1/podcasts/${ids[0]}/audio`, { key: a.key })).status).toBe(409);
  });
});

describe("GET /api/v1/podcasts/{id}/audio", () => {
  let ctx: TestContext;
  let key: string;
  let userId: string;
  let id: string;
  let bytes: Uint8Array<ArrayBuffer>;

  beforeAll(async () => {
    const s = await setup();
    ctx = s.ctx;
    key = s.a.key;
    userId = s.a.userId;
    id = (await call(ctx, "POST", "/api/v1/podcasts", { key, body: { source_ids: [s.src], format: "unabridged" } }))
      .body.id;
    await ctx.runner.drain({ timeoutMs: 170_000 });
    bytes = episodeFile(ctx.services, id);
  }, 180_000);

  const get = (headers: Record<string, string> = {}) =>
    ctx.app.handle(
      new Request(`http://localhost/api/v1/podcasts/${id}/audio`, {
        headers: { authorization: `Bearer ${key}`, ...headers },
      }),
    );

  test("the whole file: audio/mpeg, Accept-Ranges, exact Content-Length; the episode points at it", async () => {
    const ep = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key })).body;
    expect(ep.audio_url).toBe(`${ctx.config.baseUrl}/api/v1/podcasts/${id}/audio`);
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  test("the file starts with an ID3v2.3 tag naming the episode; the audio frames follow it", async () => {
    const ep = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key })).body;
    const tag = readId3v2(bytes);
    expect(tag).toMatchObject({
      version: 3,
      frames: { TIT2: ep.title, TPE1: "Commonplace", TALB: "Commonplace podcasts" },
    });
    expect(tag!.frames.TYER).toMatch(/^\d{4}$/);
    expect(bytes[tag!.size]).toBe(0xff); // an MPEG frame sync right after the tag
    expect(Math.abs(parseMp3Frames(bytes).durationSeconds - ep.duration_seconds) / ep.duration_seconds).toBeLessThan(
      0.05,
    );
    const head = await get({ range: "bytes=0-2" });
    expect(head.status).toBe(206);
    expect(await head.text()).toBe("ID3");
  });

  test.each([
    ["bytes=0-99", 0, 99],
    ["bytes=1000-1999", 1000, 1999],
    ["bytes=-100", -100, -1],
  ])("%s → 206 with exactly those bytes", async (range, from, to) => {
    const start = from < 0 ? bytes.length + from : from;
    const end = to < 0 ? bytes.length + to : to;
    const res = await get({ range });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/${bytes.length}`);
    expect(res.headers.get("content-length")).toBe(String(end - start + 1));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(start, end + 1));
  });

  test("a range past the end or malformed → 416 with the size; a stale If-Range gets the whole file", async () => {
    for (const range of [`bytes=${bytes.length}-`, "bytes=9-2"]) {
      const res = await get({ range });
      expect(res.status).toBe(416);
      expect(res.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
    const stale = await get({ range: "bytes=0-9", "if-range": '"something-else"' });
    expect(stale.status).toBe(200);
    const fresh = await get({ range: "bytes=0-9", "if-range": (await get()).headers.get("etag")! });
    expect(fresh.status).toBe(206);
  });

  test("DELETE removes the episode, its file and records the event", async () => {
    const path = join(ctx.config.dataDir, "podcasts", `${id}.mp3`);
    expect(existsSync(path)).toBe(true);
    const r = await call(ctx, "DELETE", `/api/v1/podcasts/${id}`, { key });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(id);
    expect(existsSync(path)).toBe(false);
    expect((await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key })).status).toBe(404);
    expect((await get()).status).toBe(404);
    expect(await eventTypes(ctx, userId)).toEqual([
      "podcast.created",
      "podcast.updated",
      "podcast.updated",
      "podcast.deleted",
    ]);
  });
});
