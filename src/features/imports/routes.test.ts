// Imports over HTTP: each format's fixture, counts and per-item problems, idempotent re-import, bad input.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { rss, startFeedServer } from "../feeds/testing.ts";
import { fixture, runImports, upload } from "./test-support.ts";

async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  return { ctx, a: await userWithKey(ctx), b: await userWithKey(ctx) };
}

const sources = async (ctx: any, key: string) =>
  (await call(ctx, "GET", "/api/v1/sources?limit=100", { key })).body.data as any[];
const byUrl = (list: any[], part: string) => list.find((s) => s.url.includes(part));

describe("Netscape bookmarks", () => {
  test("Chrome's file: nested folders become notebooks, dates and tags kept, bad entries reported", async () => {
    const { ctx, a, b } = await setup({ ALLOW_PRIVATE_NETWORK: "false" });
    const r = await upload(ctx, a.key, await fixture("chrome-bookmarks.html").bytes(), { filename: "bookmarks.html" });
    expect(r.status).toBe(202);
    expect(r.headers.get("location")).toBe(`/api/v1/imports/${r.body.id}`);
    expect(r.body).toMatchObject({ format: "netscape", status: "queued", filename: "bookmarks.html" });
    expect(r.body.counts.total).toBe(8);
    await runImports(ctx);
    const imp = (await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: a.key })).body;
    expect(imp.status).toBe("succeeded");
    // café (1), long read (1; #section-2 is the same page), no-date, bad-date; café again is a duplicate.
    expect(imp.counts).toMatchObject({
      total: 8,
      created: 4,
      already_saved: 2,
      invalid: 2,
      failed: 0,
      notebooks_created: 5,
    });
    expect(imp.fetching).toEqual({ pending: 4, ready: 0, failed: 0 });
    const reasons = imp.problems.map((p: any) => `${p.entry}:${p.reason}`);
    expect(reasons.some((x: string) => x.startsWith("4:javascript:"))).toBe(true);
    expect(reasons.some((x: string) => x.startsWith("5:") && x.includes("private"))).toBe(true);
    expect(reasons.some((x: string) => x.startsWith("7:") && x.includes("yesterday"))).toBe(true);
    expect(imp.problems.find((p: any) => p.entry === 4).line).toBe(26);

    const nbs = (await call(ctx, "GET", "/api/v1/notebooks?limit=100", { key: a.key })).body.data
      .map((n: any) => n.name)
      .sort();
    expect(nbs).toEqual([
      "Bookmarks bar",
      "Bookmarks bar / Work",
      "Bookmarks bar / Work / Empty folder",
      "Bookmarks bar / Work / Reading",
      "Other bookmarks",
    ]);
    const list = await sources(ctx, a.key);
    const cafe = byUrl(list, "caf");
    expect(cafe.title).toBe("Café & crème — «Über» 東京");
    expect(cafe.normalized_url).not.toContain("utm_");
    expect(cafe.saved_at).toBe("2020-09-13T12:26:40.000Z");
    const long = byUrl(list, "long-read");
    expect(long.tags).toEqual(["essays", "longform"]);
    expect(long.saved_at).toBe(new Date(1650000000 * 1000).toISOString());
    expect(byUrl(list, "no-date").saved_at).toBe(byUrl(list, "no-date").created_at);
    // Imported links wait in the background lane.
    expect((await ctx.queue.counts("source.ingest_import")).queued).toBe(4);
    expect((await ctx.queue.counts("source.ingest")).queued).toBe(0);
    // Someone else sees none of it.
    expect((await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: b.key })).status).toBe(404);
    expect(await sources(ctx, b.key)).toEqual([]);
  });

  test("importing the same file twice creates nothing new", async () => {
    const { ctx, a } = await setup();
    const bytes = await fixture("firefox-bookmarks.html").bytes();
    await upload(ctx, a.key, bytes);
    await runImports(ctx);
    const before = await sources(ctx, a.key);
    const nbBefore = (await call(ctx, "GET", "/api/v1/notebooks", { key: a.key })).body.data.length;
    const again = await upload(ctx, a.key, bytes);
    await runImports(ctx);
    const imp = (await call(ctx, "GET", `/api/v1/imports/${again.body.id}`, { key: a.key })).body;
    expect(imp.counts.created).toBe(0);
    expect(imp.counts.already_saved).toBe(2);
    expect(imp.counts.notebooks_created).toBe(0);
    expect((await sources(ctx, a.key)).length).toBe(before.length);
    expect((await call(ctx, "GET", "/api/v1/notebooks", { key: a.key })).body.data.length).toBe(nbBefore);
    const tatin = byUrl(before, "tatin");
    expect(tatin.tags).toEqual(["dessert", "français"]);
    const list = (await call(ctx, "GET", "/api/v1/imports", { key: a.key })).body.data;
    expect(list.map((i: any) => i.id)).toEqual([again.body.id, expect.any(String)]);
  });
});

describe("other formats", () => {
  test("Pocket CSV: quotes and newlines in titles, tags split on |, archive state, bad rows reported", async () => {
    const { ctx, a } = await setup();
    const r = await upload(ctx, a.key, await fixture("pocket.csv").bytes(), { format: "auto" });
    expect(r.body.format).toBe("pocket_csv");
    await runImports(ctx);
    const imp = (await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: a.key })).body;
    expect(imp.counts).toMatchObject({ total: 6, created: 4, already_saved: 1, invalid: 1 });
    expect(imp.problems.find((p: any) => p.reason.includes("no url")).line).toBe(8);
    const list = await sources(ctx, a.key);
    expect(byUrl(list, "quotes")).toMatchObject({
      title: 'Why "quotes", commas, and newlines\nmatter',
      tags: ["reading", "csv", "dup"],
      archived: false,
    });
    expect(byUrl(list, "privet")).toMatchObject({ title: "Привет мир", archived: true, tags: [] });
    expect(byUrl(list, "untitled").title).toBeNull();
    expect(imp.problems.some((p: any) => p.reason.includes("not-a-time"))).toBe(true);
  });

  test("Pocket HTML: sections give the archived state", async () => {
    const { ctx, a } = await setup();
    const r = await upload(ctx, a.key, await fixture("pocket-export.html").bytes());
    expect(r.body.format).toBe("pocket_html");
    await runImports(ctx);
    const list = await sources(ctx, a.key);
    expect(byUrl(list, "pocket-unread")).toMatchObject({
      archived: false,
      tags: ["to-read", "tech"],
      saved_at: new Date(1500000000000).toISOString(),
    });
    expect(byUrl(list, "pocket-archived").archived).toBe(true);
  });

  test("URL list: comments skipped, other schemes and non-URLs reported, OneTab titles kept", async () => {
    const { ctx, a } = await setup();
    const r = await upload(ctx, a.key, await fixture("urls.txt").bytes());
    expect(r.body.format).toBe("urls");
    await runImports(ctx);
    const imp = (await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: a.key })).body;
    expect(imp.counts).toMatchObject({ total: 6, created: 3, already_saved: 1, invalid: 2 });
    expect(imp.problems.map((p: any) => p.line)).toEqual([6, 7]);
    expect(byUrl(await sources(ctx, a.key), "xn--")?.title).toBe("A Japanese page (OneTab style: url | title)");
  });

  test("Karakeep JSON: links with tags and notes, text bookmarks as notes, assets reported", async () => {
    const { ctx, a } = await setup();
    const r = await upload(ctx, a.key, await fixture("karakeep.json").bytes());
    expect(r.body.format).toBe("karakeep");
    await runImports(ctx);
    const imp = (await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: a.key })).body;
    expect(imp.counts).toMatchObject({ created: 4, invalid: 1 });
    const list = await sources(ctx, a.key);
    expect(byUrl(list, "karakeep-link").tags).toEqual(["self-hosting", "bookmarks"]);
    expect(byUrl(list, "karakeep-archived").archived).toBe(true);
    const notes = (await call(ctx, "GET", "/api/v1/notes", { key: a.key })).body.data;
    expect(notes.map((n: any) => n.content).sort()).toEqual([
      "A text bookmark: no link, becomes a note.",
      "Worth a second read — 再読",
    ]);
    expect(notes.find((n: any) => n.content.startsWith("Worth")).source_ids).toEqual([byUrl(list, "karakeep-link").id]);
    // Again: the notes are not copied.
    await upload(ctx, a.key, await fixture("karakeep.json").bytes());
    await runImports(ctx);
    expect((await call(ctx, "GET", "/api/v1/notes", { key: a.key })).body.data.length).toBe(2);
  });
});

describe("bad input", () => {
  test("a file that is not what it claims, an unknown format, no file, an empty file: 422 and nothing queued", async () => {
    const { ctx, a } = await setup();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    for (const [body, format, path] of [
      [png, "netscape", "file"],
      [png, "auto", "format"],
      ['{"not": "karakeep"}', "karakeep", "file"],
      ["plain words, no links", "auto", "format"],
      ["", "auto", "file"],
      ["https://example.com", "xml", "format"],
    ] as const) {
      const r = await upload(ctx, a.key, body, { format });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].path).toBe(path);
    }
    const noFile = await call(ctx, "POST", "/api/v1/imports", {
      key: a.key,
      rawBody: "--x--\r\n",
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    expect([400, 422]).toContain(noFile.status);
    expect((await call(ctx, "POST", "/api/v1/imports", { key: a.key, body: { url: "x" } })).status).toBe(415);
    expect((await ctx.queue.counts("import.run")).queued).toBe(0);
  });

  test("a file over the limit is 413 before it is read", async () => {
    const { ctx, a } = await setup({ IMPORT_MAX_BYTES: "1048576" });
    const big = new Uint8Array(2 * 1024 * 1024).fill(0x61);
    const r = await upload(ctx, a.key, big, { format: "urls" });
    expect(r.status).toBe(413);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
  });
});

describe("OPML", () => {
  test("each feed becomes a subscription (no workflow); its first poll is a baseline; again adds none", async () => {
    const server = startFeedServer();
    try {
      server.set("/a.xml", {
        body: rss([
          { id: "1", title: "Old post" },
          { id: "2", title: "Older post" },
        ]),
      });
      const ctx = createTestContext({ FEED_HOST_SPACING_MS: "0" });
      const a = await userWithKey(ctx);
      const opml = `<?xml version="1.0"?><opml version="2.0"><body><outline text="Folder"><outline text="Ünïcode A" xmlUrl="${server.url("/a.xml")}"/></outline><outline text="Bad" xmlUrl="javascript:alert(1)"/></body></opml>`;
      const r = await upload(ctx, a.key, opml, { filename: "subs.opml" });
      expect(r.body.format).toBe("opml");
      await runImports(ctx);
      const imp = (await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: a.key })).body;
      expect(imp.counts).toMatchObject({ total: 2, created: 1, feeds_watched: 1, invalid: 1 });
      expect((await call(ctx, "GET", "/api/v1/workflows", { key: a.key })).body.data).toEqual([]);
      const feeds = (await call(ctx, "GET", "/api/v1/feeds", { key: a.key })).body.data;
      expect(feeds).toMatchObject([
        { feed_url: server.url("/a.xml"), workflow_id: null, title: "Ünïcode A", active: true, status: "pending" },
      ]);
      await call(ctx, "POST", `/api/v1/feeds/${feeds[0].id}/poll`, { key: a.key });
      // The baseline: the entries already in the feed are not imported.
      expect((await call(ctx, "GET", "/api/v1/sources", { key: a.key })).body.data).toEqual([]);
      const again = await upload(ctx, a.key, opml, { filename: "subs.opml" });
      await runImports(ctx);
      expect((await call(ctx, "GET", `/api/v1/imports/${again.body.id}`, { key: a.key })).body.counts).toMatchObject({
        created: 0,
        already_saved: 1,
      });
      expect((await call(ctx, "GET", "/api/v1/feeds", { key: a.key })).body.data).toHaveLength(1);
    } finally {
      void server.stop();
    }
  }, 30_000);
});
