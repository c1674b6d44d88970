// Podcast pages through the real app: the form with costs, creating from sources or a notebook,
// validation beside the fields, 402 beside the form, the episode page (live markers, player,
// transcript), the audio route with Range on the session cookie, deletion, isolation and escaping.
import { afterAll, describe, expect, test } from "bun:test";
import { call, type TestContext } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { episodeFile, insertReadySource } from "../../features/podcasts/testing.ts";
import { csrfOf, idIn, post, send, setup as librarySetup } from "../library/test-helpers.ts";
import { signedInPerson } from "../library/test-helpers.ts";

const TINY =
  "# Tide pools\n\nTide pools hold small animals when the sea goes out. Sea stars grip the rock with tube feet.\n";
const contexts: TestContext[] = [];
afterAll(async () => {
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

async function setup(env: Record<string, string> = {}) {
  const s = await librarySetup(env);
  contexts.push(s.ctx);
  const src = await insertReadySource(s.ctx.services, s.me.userId, { title: "Tide pools", markdown: TINY });
  return { ...s, src };
}

const queued = async (ctx: TestContext) => (await ctx.queue.counts("podcast.generate")).queued;

describe("make a podcast", () => {
  test("the form prefilled from a source shows each format's cost and the credits free, then creates the episode", async () => {
    const { ctx, b, src, me } = await setup();
    const form = await b.get(`/podcasts/new?source=${src}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`<input type="checkbox" name="source_ids" value="${src}" checked>`);
    expect(form.text).toContain("You have <strong>500</strong> AI credits free");
    expect(form.text).toMatch(
      /<span class="name">Deep dive<\/span> <span class="muted cost">about 1 min · 2 credits<\/span>/,
    );
    expect(form.text).toMatch(
      /<span class="name">Brief<\/span> <span class="muted cost">about 1 min · 2 credits<\/span>/,
    );
    expect(form.text).toContain("One speaker gives the key takeaways in under two minutes.");
    expect(form.text).toContain('<input type="radio" name="format" value="deep_dive" checked>');
    expect(form.text.match(/type="radio" name="format"/g)).toHaveLength(6);

    const made = await post(ctx, b, "/podcasts", {
      source_ids: src,
      format: "brief",
      title: "",
      language: "",
      intent: "create",
    });
    expect(made.status).toBe(303);
    const id = idIn(made.location!, "pod");
    expect(made.location).toBe(`/podcasts/${id}?notice=created`);
    const api = (await call(ctx, "GET", `/api/v1/podcasts/${id}`, { key: me.key })).body;
    expect(api).toMatchObject({
      status: "queued",
      format: "brief",
      title: "Tide pools",
      source_ids: [src],
      language: "en",
    });

    const page = await b.get(made.location!);
    expect(page.text).toContain("The episode is queued.");
    expect(page.text).toContain(
      `<div class="podcast-live" data-live="podcast" data-live-id="${id}" data-live-fragment="/podcasts/${id}/live" data-live-since=`,
    );
    expect(page.text).toContain('<span class="status queued">Queued</span>');
    expect(page.text).toContain("<progress data-live-progress");
    expect(page.text).toContain('<span data-live-field="detail">Waiting for its turn.</span>');
    // The reload hint is for pages without script only.
    expect(page.text).toContain(`<noscript><a href="/podcasts/${id}">Reload</a> to see where it is.</noscript>`);
    const fragment = await b.get(`/podcasts/${id}/live`);
    expect(fragment.text.startsWith(`<div class="podcast-live" data-live="podcast" data-live-id="${id}"`)).toBe(true);
    expect(fragment.text).toContain('data-live-announce="Status: Queued"');
    expect(fragment.text).not.toContain("<html");
    expect((await b.get(`/podcasts/${id}/live?part=row`)).text).toContain(`<a class="title" href="/podcasts/${id}">`);
    expect(page.text).not.toContain("<audio");
    const list = await b.get("/podcasts");
    expect(list.text).toContain(`<a class="title" href="/podcasts/${id}">Tide pools</a>`);
    expect(list.text).toContain("<span>Brief</span>");
    // The queued episode holds its 2 credits, so the form offers 2 fewer.
    expect((await b.get("/podcasts/new")).text).toContain("You have <strong>498</strong> AI credits free");
  });

  test("from a notebook or from several sources, with title and language", async () => {
    const { ctx, b, src, me } = await setup();
    const other = await insertReadySource(ctx.services, me.userId, { title: "Rock pools", markdown: TINY });
    const nb = idIn((await post(ctx, b, "/notebooks", { name: "Coast" })).location!, "nb");
    await post(ctx, b, `/library/sources/${src}/notebooks`, { notebook_id: nb });
    expect((await b.get(`/podcasts/new?notebook=${nb}`)).text).toContain(
      `<option value="${nb}" selected>Coast</option>`,
    );
    const fromNb = await post(ctx, b, "/podcasts", {
      notebook_id: nb,
      format: "unabridged",
      language: "fr",
      intent: "create",
    });
    const fromMany = await post(ctx, b, "/podcasts", {
      source_ids: [src, other],
      format: "debate",
      title: "Pools",
      intent: "create",
    });
    const a = (await call(ctx, "GET", `/api/v1/podcasts/${idIn(fromNb.location!, "pod")}`, { key: me.key })).body;
    const m = (await call(ctx, "GET", `/api/v1/podcasts/${idIn(fromMany.location!, "pod")}`, { key: me.key })).body;
    expect(a).toMatchObject({
      notebook_id: nb,
      source_ids: [src],
      format: "unabridged",
      language: "fr",
      title: "Coast",
    });
    expect(m).toMatchObject({ source_ids: [src, other], format: "debate", title: "Pools" });
  });

  test("“Update costs” prices the chosen sources (unabridged by their length) and creates nothing", async () => {
    const { ctx, b, src } = await setup();
    const before = await b.get("/podcasts/new");
    expect(before.text).toMatch(/Unabridged<\/span> <span class="muted cost">as long as the text · 2 credits a minute/);
    const est = await post(ctx, b, "/podcasts", { source_ids: src, format: "unabridged", intent: "estimate" });
    expect(est.status).toBe(200);
    expect(est.text).toMatch(/Unabridged<\/span> <span class="muted cost">about 1 min · 2 credits/);
    expect(est.text).toContain("The chosen sources have 21 words.");
    expect(est.text).toContain('<input type="radio" name="format" value="unabridged" checked>');
    expect(await queued(ctx)).toBe(0);
  });

  test("bad input re-renders the form with the input kept and each error beside its field; nothing is queued", async () => {
    const { ctx, b, src, me } = await setup();
    const none = await post(ctx, b, "/podcasts", { format: "brief", title: "Keep <me>", intent: "create" });
    expect(none.status).toBe(422);
    expect(none.text).toContain(
      '<p class="field-error" id="f-sources-error">Choose at least one source, or a notebook.</p>',
    );
    expect(none.text).toContain('value="Keep &lt;me&gt;"');
    expect(none.text).toContain('<input type="radio" name="format" value="brief" checked>');

    const nb = idIn((await post(ctx, b, "/notebooks", { name: "N" })).location!, "nb");
    const both = await post(ctx, b, "/podcasts", { source_ids: src, notebook_id: nb, intent: "create" });
    expect(both.text).toContain(
      '<p class="field-error" id="f-notebook-error">Choose sources or a notebook, not both.</p>',
    );
    const empty = await post(ctx, b, "/podcasts", { notebook_id: nb, intent: "create" });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('<p class="field-error" id="f-notebook-error">The notebook has no ready sources.</p>');

    const fields = await post(ctx, b, "/podcasts", {
      source_ids: src,
      format: "rap",
      title: "x".repeat(501),
      language: "not a <lang>",
      intent: "create",
    });
    expect(fields.status).toBe(422);
    expect(fields.text).toContain('id="f-format-error">Choose one of the six formats.');
    expect(fields.text).toContain('id="f-title-error">The title is longer than 500 characters.');
    expect(fields.text).toContain('id="f-language-error">Use a language code such as en, fr or pt-BR.');
    expect(fields.text).toContain('value="not a &lt;lang&gt;" maxlength="35"');
    expect(fields.text).toContain('aria-invalid="true" aria-describedby="f-language-error"');

    const pending = (
      await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: "https://example.com/later" } })
    ).body.id;
    const notReady = await post(ctx, b, "/podcasts", { source_ids: pending, intent: "create" });
    expect(notReady.status).toBe(422);
    expect(notReady.text).toContain(`id="f-sources-error">Source ${pending} is not ready yet (status pending).`);
    expect(notReady.text).toContain(`value="${pending}" checked>`);
    expect(await queued(ctx)).toBe(0);
  });

  test("out of credit: a 402 with a clear message beside the form, the choices kept, nothing made", async () => {
    const { ctx, b, src, me } = await setup({ DEFAULT_MONTHLY_CREDITS: "1" });
    const res = await post(ctx, b, "/podcasts", { source_ids: src, format: "deep_dive", intent: "create" });
    expect(res.status).toBe(402);
    expect(res.text).toMatch(
      /<div class="flash error" role="alert" id="f-problem">Not enough AI credits: This episode needs 2 credits and 1 are free until [^<]+\. Choose a shorter format/,
    );
    expect(res.text).toContain('<input type="radio" name="format" value="deep_dive" checked>');
    expect(res.text).toContain("<!doctype html>");
    expect((await call(ctx, "GET", "/api/v1/podcasts", { key: me.key })).body.data).toEqual([]);
  });

  test("signed out, the form sends you to sign in and back; a POST without the session's token is refused", async () => {
    const { ctx, b, src } = await setup();
    const anon = await ctx.app.handle(new Request(`http://localhost/podcasts/new?source=${src}`));
    expect(anon.status).toBe(303);
    expect(anon.headers.get("location")).toBe(`/signin?next=${encodeURIComponent(`/podcasts/new?source=${src}`)}`);
    const forged = await send(ctx, b, "/podcasts", new URLSearchParams({ source_ids: src, intent: "create" }));
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("<!doctype html>");
    const foreign = await send(ctx, b, "/podcasts", new URLSearchParams({ csrf: await csrfOf(b), source_ids: src }), {
      origin: "https://evil.example",
    });
    expect(foreign.status).toBe(403);
    expect(await queued(ctx)).toBe(0);
  });
});

describe("an episode", () => {
  test("ready: a player that can seek (Range on the session), the transcript with speaker names, download, delete with confirmation", async () => {
    const { ctx, b, src } = await setup();
    const id = idIn(
      (await post(ctx, b, "/podcasts", { source_ids: src, format: "deep_dive", intent: "create" })).location!,
      "pod",
    );
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const page = await b.get(`/podcasts/${id}`);
    expect(page.text).toContain('<span class="status ready">Ready</span>');
    expect(page.text).not.toContain("<progress");
    expect(page.text).not.toContain("Reload</a> to see where it is");
    // What the live script swaps in when the episode turns ready: the player and the transcript.
    const live = (await b.get(`/podcasts/${id}/live`)).text;
    expect(live).toContain(`<audio controls preload="metadata" src="/podcasts/${id}/audio">`);
    expect(live).toContain('<ol class="transcript">');
    expect(live).toContain('data-live-announce="Status: Ready. The player and transcript are shown."');
    expect(page.text).toContain(`<audio controls preload="metadata" src="/podcasts/${id}/audio">`);
    expect(page.text).toContain(`<a href="/podcasts/${id}/audio?download=1" download>Download MP3`);
    expect(page.text).toContain("Speakers: Maya (host), Theo (co-host)");
    expect(page.text).toMatch(
      /<li><span class="speaker">Maya <span class="muted">· host<\/span><\/span><p>[^<]+<\/p><\/li>/,
    );
    expect(page.text).toMatch(/<span class="speaker">Theo <span class="muted">· co-host<\/span><\/span>/);
    expect(page.text).toContain(`From <a href="/library/sources/${src}">Tide pools</a>`);
    expect(page.headers.get("content-security-policy")).toContain("media-src 'self'");

    const bytes = episodeFile(ctx.services, id);
    const cookie = `cp_session=${b.jar.get("cp_session")}`;
    const audio = (headers: Record<string, string> = {}, q = "") =>
      ctx.app.handle(new Request(`http://localhost/podcasts/${id}/audio${q}`, { headers: { cookie, ...headers } }));
    const whole = await audio();
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/mpeg");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);
    const part = await audio({ range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(100, 200));
    expect((await audio({}, "?download=1")).headers.get("content-disposition")).toStartWith(
      'attachment; filename="Tide pools.mp3"',
    );
    expect((await ctx.app.handle(new Request(`http://localhost/podcasts/${id}/audio`))).status).toBe(303);

    const confirm = await b.get(`/podcasts/${id}/delete`);
    expect(confirm.text).toContain("Delete this episode?");
    expect(confirm.text).toContain(`<form method="post" action="/podcasts/${id}/delete">`);
    const gone = await post(ctx, b, `/podcasts/${id}/delete`);
    expect(gone.location).toBe("/podcasts?notice=deleted");
    expect((await b.get(gone.location!)).text).toContain("The episode was deleted.");
    expect((await b.get(`/podcasts/${id}`)).status).toBe(404);
    expect((await audio()).status).toBe(404);
  }, 180_000);

  test("another user's episode is a 404 page (HTML, never JSON) for the page, audio, download and delete", async () => {
    const { ctx, b, src } = await setup();
    const id = idIn(
      (await post(ctx, b, "/podcasts", { source_ids: src, format: "brief", intent: "create" })).location!,
      "pod",
    );
    const other = await signedInPerson(ctx);
    for (const path of [
      `/podcasts/${id}`,
      `/podcasts/${id}/audio`,
      `/podcasts/${id}/audio?download=1`,
      `/podcasts/${id}/delete`,
      "/podcasts/pod_nope",
    ]) {
      const res = await other.b.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.text).toContain("<!doctype html>");
      expect(res.text).toMatch(/<a href="\/podcasts"( aria-current="page")?>Podcasts<\/a>/);
    }
    const del = await post(ctx, other.b, `/podcasts/${id}/delete`);
    expect(del.status).toBe(404);
    expect(del.text).toContain("<!doctype html>");
    expect((await other.b.get("/podcasts")).text).toContain("No episodes yet.");
    expect((await b.get(`/podcasts/${id}`)).status).toBe(200);
  });

  test("a title, transcript and failure detail with <script> render as text", async () => {
    const { ctx, b, me } = await setup();
    const evil = "<script>alert(1)</script>";
    const src = await insertReadySource(ctx.services, me.userId, {
      title: `Pools ${evil}`,
      markdown: `# Pools ${evil}\n\nSea stars ${evil} grip the rock with tube feet.\n`,
    });
    const id = idIn(
      (await post(ctx, b, "/podcasts", { source_ids: src, format: "unabridged", intent: "create" })).location!,
      "pod",
    );
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const page = await b.get(`/podcasts/${id}`);
    expect(page.text).toContain("<h1>Pools &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect(page.text).toMatch(/<p>[^<]*&lt;script&gt;alert\(1\)&lt;\/script&gt;[^<]*<\/p><\/li>/);
    expect(page.text).not.toContain(evil);
    expect(page.text.match(/<script>/g)).toHaveLength(1);
    expect((await b.get("/podcasts")).text).not.toContain(evil);

    await sqlRows(
      ctx.db,
      "UPDATE podcasts SET status = 'failed', error = 'speech_failed', error_detail = ? WHERE id = ?",
      `Speech synthesis failed: ${evil}`,
      id,
    );
    const failed = await b.get(`/podcasts/${id}`);
    expect(failed.text).toContain("<strong>This episode could not be made:</strong> the speech could not be made.");
    expect(failed.text).toContain("Speech synthesis failed: &lt;script&gt;");
    expect(failed.text).toContain(`<a href="/podcasts/new?source=${src}&amp;format=unabridged">Try again</a>`);
    expect(failed.text).not.toContain(evil);
  }, 180_000);

  test("the list pages with a More link that keeps the status filter", async () => {
    const { ctx, b, src, me } = await setup();
    for (let i = 0; i < 22; i++)
      await call(ctx, "POST", "/api/v1/podcasts", {
        key: me.key,
        body: { source_ids: [src], format: "brief", title: `Episode ${i}` },
      });
    const first = await b.get("/podcasts?status=queued");
    expect(first.text.match(/<li data-live="podcast"/g)).toHaveLength(20);
    const more = /href="(\/podcasts\?status=queued&amp;before=pod_[0-9A-Z]{26})" rel="next"/.exec(first.text);
    expect(more).not.toBeNull();
    const second = await b.get(more![1]!.replace(/&amp;/g, "&"));
    expect(second.text.match(/<li data-live="podcast"/g)).toHaveLength(2);
    expect(second.text).toContain(">Episode 0<");
    expect((await b.get("/podcasts?status=ready")).text).toContain("No episodes with this status.");
  });
});
