// Live updates in the web app: the script as a cached asset admitted by the CSP, the event stream
// opened with the session cookie, and the library's live rows with their fragment endpoint.
import { afterAll, describe, expect, test } from "bun:test";
import { startOutsideWeb } from "../../test/outside-web.ts";
import { dataOf, sseReader } from "../features/events/sse-client.ts";
import { idIn, post, setup, signedInPerson } from "./library/test-helpers.ts";
import { LIVE_SCRIPT, LIVE_SCRIPT_PATH } from "../http/html/live-script.ts";
import type { TestBrowser } from "../../test/browser-client.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

const cookieOf = (b: TestBrowser) => [...b.jar].map(([k, v]) => `${k}=${v}`).join("; ");

describe("live-updates script", () => {
  test("served as a long-cached script; only signed-in pages load it; the CSP admits it and its stream", async () => {
    const { ctx, b } = await setup();
    const res = await ctx.app.handle(new Request(`http://localhost${LIVE_SCRIPT_PATH}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe(LIVE_SCRIPT);

    const page = await b.get("/library");
    expect(page.text).toContain(`<script src="${LIVE_SCRIPT_PATH.replace(/&/g, "&amp;")}" defer></script>`);
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'sha256-[^']+' 'self'/);
    expect(csp).toContain("connect-src 'self'");
    const signin = await (await import("../../test/browser-client.ts")).testBrowser(ctx).get("/signin");
    expect(signin.text).not.toContain("/assets/live.js");
  });
});

describe("the browser's event stream", () => {
  test("opens with the session cookie and carries only this person's events", async () => {
    const { ctx, b, me } = await setup();
    const other = await signedInPerson(ctx);
    const res = await ctx.app.handle(
      new Request("http://localhost/events/stream", { headers: { cookie: cookieOf(b) } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const sse = sseReader(res);
    await post(ctx, other.b, "/notebooks", { name: "Theirs" });
    await post(ctx, b, "/notebooks", { name: "Mine" });
    const e = dataOf(await sse.event());
    expect(e).toMatchObject({ type: "notebook.created", data: { name: "Mine" } });
    await sse.cancel();
    expect(ctx.services.live.hub.connections(me.userId)).toBe(0);
  });

  test("without a session it is a 401 page, not a stream", async () => {
    const { ctx } = await setup();
    const res = await ctx.app.handle(new Request("http://localhost/events/stream"));
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});

describe("live library rows", () => {
  test("rows are marked live with a fragment that re-renders them; the list carries the cursor it was read at", async () => {
    const { ctx, b } = await setup();
    await post(ctx, b, "/library/sources", { url: web.url("/article") });
    const cursor = await ctx.services.events.latestSeq();
    const list = await b.get("/library");
    const id = idIn(list.text, "src");
    expect(list.text).toContain(`<ul class="cards" aria-labelledby="list-h" data-live-since="${cursor}" data-list>`);
    expect(list.text).toContain(
      `<li data-live="source" data-live-id="${id}" data-live-fragment="/library/sources/${id}/card" class="item"`,
    );
    expect(list.text).toContain('<span class="status pending">Pending</span>');

    for (const kind of ["card", "row"]) {
      const pending = await b.get(`/library/sources/${id}/${kind}`);
      expect(pending.status).toBe(200);
      expect(pending.text).toStartWith(
        `<li data-live="source" data-live-id="${id}" data-live-fragment="/library/sources/${id}/${kind}"`,
      );
      expect(pending.text).not.toContain("<html");
      expect(pending.headers.get("content-security-policy")).toContain("default-src 'none'");
    }

    await ctx.runner.drain();
    const ready = await b.get(`/library/sources/${id}/card`);
    // Ready needs no status word on the card; its title and site arrive.
    expect(ready.text).not.toContain('class="status');
    expect(ready.text).toContain("Life in the tide pools");
    expect(ready.text).toContain("Coast Weekly");
  });

  test("another person's row is not found, and a deleted one is gone (404)", async () => {
    const { ctx, b } = await setup();
    await post(ctx, b, "/library/sources", { url: web.url("/article") });
    const id = idIn((await b.get("/library")).text, "src");
    const other = await signedInPerson(ctx);
    expect((await other.b.get(`/library/sources/${id}/row`)).status).toBe(404);
    await post(ctx, b, `/library/sources/${id}/delete`);
    expect((await b.get(`/library/sources/${id}/row`)).status).toBe(404);
  });

  test("the reader of a pending source reloads itself when it changes; a ready one is not live", async () => {
    const { ctx, b } = await setup();
    await post(ctx, b, "/library/sources", { url: web.url("/article") });
    const id = idIn((await b.get("/library")).text, "src");
    const pending = await b.get(`/library/sources/${id}`);
    expect(pending.text).toMatch(
      new RegExp(`<p class="card" data-live="source" data-live-id="${id}" data-live-reload data-live-since="\\d+">`),
    );
    await ctx.runner.drain();
    const ready = await b.get(`/library/sources/${id}`);
    expect(ready.text).not.toContain("data-live-reload");
  });
});
