// One rule for what may be fetched: an import's bookmarks and feeds, a saved link and a workflow's
// http_request step follow the same ALLOW_PRIVATE_NETWORK / ALLOWED_HOSTS, end to end against a
// local site on 127.0.0.1.
import { afterAll, describe, expect, test } from "bun:test";
import { rss } from "../src/features/feeds/testing.ts";
import { upload } from "../src/features/imports/test-support.ts";
import { fire, runToEnd, webhookWorkflow } from "../src/features/workflows/testing.ts";
import { call, createTestContext, userWithKey } from "./helpers.ts";

const seen: string[] = [];
const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    seen.push(path);
    if (path === "/feed.xml")
      return new Response(rss([{ id: "1", title: "First post" }]), {
        headers: { "content-type": "application/rss+xml" },
      });
    const title = path.slice(1);
    return new Response(
      `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
        `<p>${"A local page that only a trusted host can serve. ".repeat(20)}</p></article></body></html>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  },
});
afterAll(() => site.stop(true));

const local = (path: string) => `http://127.0.0.1:${site.port}${path}`;
const bookmarks = (path: string) =>
  `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE><H1>Bookmarks</H1>\n<DL><p>\n` +
  `<DT><A HREF="${local(path)}" ADD_DATE="1600000000">A local page</A>\n</DL><p>\n`;
const opml = (path: string) =>
  `<?xml version="1.0"?><opml version="2.0"><body><outline text="Local" xmlUrl="${local(path)}"/></body></opml>`;

async function library(env: Record<string, string>) {
  const ctx = createTestContext({
    ALLOW_PRIVATE_NETWORK: "false",
    IMPORT_HOST_SPACING_MS: "0",
    FEED_HOST_SPACING_MS: "0",
    ...env,
  });
  const a = await userWithKey(ctx);
  const get = async (path: string) => (await call(ctx, "GET", path, { key: a.key })).body;
  const importFile = async (file: string, filename: string) => {
    const r = await upload(ctx, a.key, file, { filename });
    expect(r.status).toBe(202);
    await ctx.runner.drain({ timeoutMs: 20_000 });
    return get(`/api/v1/imports/${r.body.id}`);
  };
  const save = async (url: string) => {
    const r = await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url } });
    expect(r.status).toBe(201);
    await ctx.runner.drain({ timeoutMs: 20_000 });
    return get(`/api/v1/sources/${r.body.id}`);
  };
  const pollFeeds = async () => {
    const feeds = (await get("/api/v1/feeds")).data as { id: string }[];
    return Promise.all(
      feeds.map(async (f) => (await call(ctx, "POST", `/api/v1/feeds/${f.id}/poll`, { key: a.key })).body),
    );
  };
  const request = async (url: string) => {
    const wf = await webhookWorkflow(ctx, a.key, [{ id: "send", type: "http_request", url, retries: 0 }]);
    return runToEnd(ctx, a.key, (await fire(ctx, wf.path)).runs[0]!);
  };
  return { ctx, get, importFile, save, pollFeeds, request };
}

describe("ALLOWED_HOSTS naming 127.0.0.1", () => {
  test("an imported bookmark is created and fetched, a feed watched and polled; a save and a request go through", async () => {
    const lib = await library({ ALLOWED_HOSTS: "127.0.0.1" });
    const imp = await lib.importFile(bookmarks("/imported"), "bookmarks.html");
    expect(imp.counts).toMatchObject({ total: 1, created: 1, invalid: 0 });
    expect(imp.problems).toEqual([]);
    const [source] = (await lib.get("/api/v1/sources")).data;
    expect(source).toMatchObject({ url: local("/imported"), status: "ready", title: "imported" });
    expect(seen).toContain("/imported");

    const feeds = await lib.importFile(opml("/feed.xml"), "feeds.opml");
    expect(feeds.counts).toMatchObject({ total: 1, feeds_watched: 1, invalid: 0 });
    const [poll] = await lib.pollFeeds();
    expect(poll.poll).toMatchObject({ status: "updated", http_status: 200, error: null });
    expect(seen).toContain("/feed.xml");

    expect(await lib.save(local("/saved"))).toMatchObject({ status: "ready", title: "saved", error: null });

    const run = await lib.request(local("/hook"));
    expect(run.status).toBe("succeeded");
    expect(run.steps[0]).toMatchObject({ status: "succeeded", output: { status: 200 } });
    expect(seen).toContain("/hook");
  }, 60_000);
});

describe("without ALLOWED_HOSTS (private network closed)", () => {
  test("the bookmark and the feed are refused at import; a save and a request fail as blocked_address", async () => {
    const lib = await library({});
    const before = seen.length;
    const imp = await lib.importFile(bookmarks("/refused-import"), "bookmarks.html");
    expect(imp.counts).toMatchObject({ total: 1, created: 0, invalid: 1 });
    expect(imp.problems[0].reason).toBe("refused: 127.0.0.1 is a loopback address (127.0.0.0/8), not in ALLOWED_HOSTS");
    expect((await lib.get("/api/v1/sources")).data).toEqual([]);

    const feeds = await lib.importFile(opml("/feed.xml"), "feeds.opml");
    expect(feeds.counts).toMatchObject({ total: 1, feeds_watched: 0, invalid: 1 });
    expect(await lib.pollFeeds()).toEqual([]);

    expect(await lib.save(local("/refused-save"))).toMatchObject({ status: "failed", error: "blocked_address" });

    const run = await lib.request(local("/refused-hook"));
    expect(run.status).toBe("failed");
    expect(run.steps[0]).toMatchObject({ error: { code: "blocked_address" } });
    expect(seen.slice(before)).toEqual([]);
  }, 60_000);
});
