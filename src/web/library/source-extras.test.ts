// The reader's additions and their neighbours: make a podcast, rename, ask scoped to the source,
// notes about it, the note editor's source links, and the save-link form's quick podcast.
import { afterAll, describe, expect, test } from "bun:test";
import { call, type TestContext } from "../../../test/helpers.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import { idIn, post, setup, signedInPerson } from "./test-helpers.ts";

const web = startOutsideWeb();
const contexts: TestContext[] = [];
afterAll(async () => {
  void web.stop();
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

/** A signed-in person with the tide-pool article and a plain-text page saved and fetched. */
async function library(env: Record<string, string> = {}) {
  const s = await setup(env);
  contexts.push(s.ctx);
  await post(s.ctx, s.b, "/library/sources", { url: web.url("/article") });
  await post(s.ctx, s.b, "/library/sources", { url: web.url("/notes.txt") });
  await s.ctx.runner.drain();
  const rows: { id: string; url: string }[] = (await call(s.ctx, "GET", "/api/v1/sources", { key: s.me.key })).body
    .data;
  const idOf = (path: string) => rows.find((r) => r.url === web.url(path))!.id;
  return { ...s, article: idOf("/article"), plain: idOf("/notes.txt") };
}

describe("the reader", () => {
  test("offers “Make a podcast” for a ready source, prefilling the form with it; a pending one says why not", async () => {
    const { ctx, b, article, me } = await library();
    const reader = await b.get(`/library/sources/${article}`);
    // In the reader's toolbar: an icon named for screen readers (and as a tooltip).
    expect(reader.text).toContain(`<a class="tool" href="/podcasts/new?source=${article}" title="Make a podcast">`);
    expect(reader.text).toContain('<span class="sr-only">Make a podcast</span>');
    expect((await b.get(`/podcasts/new?source=${article}`)).text).toContain(`value="${article}" checked>`);
    const pending = (
      await call(ctx, "POST", "/api/v1/sources", { key: me.key, body: { url: "https://example.com/later" } })
    ).body.id;
    const waiting = await b.get(`/library/sources/${pending}`);
    expect(waiting.text).not.toContain("/podcasts/new?source=");
    expect(waiting.text).toContain("A podcast can be made once it is Ready.");
    expect(waiting.text).not.toContain("Ask about this source");
  });

  test("rename saves the title (text, never markup), too long re-renders beside the field, empty goes back to the page's title", async () => {
    const { ctx, b, article, me } = await library();
    const evil = "Pools <script>alert(1)</script>";
    const saved = await post(ctx, b, `/library/sources/${article}/title`, { title: `  ${evil} ` });
    expect(saved.location).toBe(`/library/sources/${article}?notice=renamed`);
    const reader = await b.get(saved.location!);
    expect(reader.text).toContain("Title saved.");
    expect(reader.text).toContain("<h1>Pools &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect(reader.text).not.toContain(evil);
    expect((await call(ctx, "GET", `/api/v1/sources/${article}`, { key: me.key })).body.title).toBe(evil);

    const long = await post(ctx, b, `/library/sources/${article}/title`, { title: `<b>${"x".repeat(500)}` });
    expect(long.status).toBe(422);
    expect(long.text).toContain('<details class="card" open>\n  <summary>Rename</summary>');
    expect(long.text).toContain(
      '<p class="field-error" id="f-rename-error">The title is longer than 500 characters.</p>',
    );
    expect(long.text).toContain(`value="&lt;b&gt;${"x".repeat(500)}"`);
    expect((await call(ctx, "GET", `/api/v1/sources/${article}`, { key: me.key })).body.title).toBe(evil);

    await post(ctx, b, `/library/sources/${article}/title`, { title: "" });
    await ctx.runner.drain();
    expect((await call(ctx, "GET", `/api/v1/sources/${article}`, { key: me.key })).body.title).toBe(
      "Life in the tide pools",
    );
  });

  test("ask about this source answers from it alone, with citations; an empty question is refused beside the field", async () => {
    const { ctx, b, article, plain } = await library();
    const asked = await post(ctx, b, `/library/sources/${article}/ask`, {
      question: "What do sea stars grip the rock with?",
    });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('<details class="card" open>\n  <summary>Ask about this source</summary>');
    expect(asked.text).toContain('<a href="#cite-1" class="cite">[1]</a>');
    expect(asked.text).toContain(
      `<li id="cite-1" value="1">\n    <a href="/library/sources/${article}">Life in the tide pools</a>`,
    );
    expect(asked.text).toContain("What do sea stars grip the rock with?</textarea>");
    // The same question about the other source finds nothing there: the scope is that one source.
    const elsewhere = await post(ctx, b, `/library/sources/${plain}/ask`, {
      question: "What do sea stars grip the rock with?",
    });
    expect(elsewhere.text).toContain("I could not find anything about this in your library.");
    expect(elsewhere.text).not.toContain(`/library/sources/${article}"`);

    const empty = await post(ctx, b, `/library/sources/${article}/ask`, { question: "   " });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('<p class="field-error" id="f-question-error">Write a question first.</p>');
    expect((await b.get(`/library/sources/${article}/ask`)).location).toBe(`/library/sources/${article}`);
  });

  test("out of credit, asking says so plainly beside the form", async () => {
    const { ctx, b, article } = await library({ DEFAULT_MONTHLY_CREDITS: "0" });
    const res = await post(ctx, b, `/library/sources/${article}/ask`, { question: "What do sea stars grip?" });
    expect(res.status).toBe(402);
    expect(res.text).toContain('<div class="flash error" role="alert">You are out of AI credits for now.');
  });

  test("another user's source: rename and ask are 404 pages and change nothing", async () => {
    const { ctx, article, me } = await library();
    const other = await signedInPerson(ctx);
    for (const [path, fields] of [
      [`/library/sources/${article}/title`, { title: "mine" }],
      [`/library/sources/${article}/ask`, { question: "tides?" }],
    ] as const) {
      const res = await post(ctx, other.b, path, fields);
      expect(res.status).toBe(404);
      expect(res.text).toContain("<!doctype html>");
    }
    expect((await call(ctx, "GET", `/api/v1/sources/${article}`, { key: me.key })).body.title).toBe(
      "Life in the tide pools",
    );
  });
});

describe("notes about a source", () => {
  test("the editor links sources; the reader lists the notes that link it; unlinking removes it", async () => {
    const { ctx, b, article, plain, me } = await library();
    const form = await b.get(`/notes/new?source=${article}`);
    expect(form.text).toContain(`<input type="checkbox" name="source_ids" value="${article}" checked>`);
    expect(form.text).toContain(`<input type="checkbox" name="source_ids" value="${plain}">`);
    const made = await post(ctx, b, "/notes", {
      title: "Pool <notes>",
      content: "Sea stars!",
      source_ids: [article, plain],
    });
    const noteId = idIn(made.location!, "note");
    await post(ctx, b, "/notes", { title: "Unrelated", content: "Nothing to see" });
    expect((await call(ctx, "GET", `/api/v1/notes/${noteId}`, { key: me.key })).body.source_ids.sort()).toEqual(
      [article, plain].sort(),
    );

    const note = await b.get(`/notes/${noteId}`);
    expect(note.text).toContain(`About <a href="/library/sources/${article}">Life in the tide pools</a>`);
    const reader = await b.get(`/library/sources/${article}`);
    const section = reader.text.slice(reader.text.indexOf("<h2>Notes about this source</h2>"));
    expect(section).toContain(`<a class="title" href="/notes/${noteId}">Pool &lt;notes&gt;</a>`);
    expect(section).not.toContain("Unrelated");
    expect(section).toContain(`<a href="/notes/new?source=${article}">Write a note about this source</a>`);

    await post(ctx, b, `/notes/${noteId}`, { title: "Pool <notes>", content: "Sea stars!", source_ids: plain });
    expect((await call(ctx, "GET", `/api/v1/notes/${noteId}`, { key: me.key })).body.source_ids).toEqual([plain]);
    expect((await b.get(`/library/sources/${article}`)).text).toContain("No notes link to this source yet.");
  });

  test("a source that is not yours (or gone) is refused beside the field, with the note kept", async () => {
    const { ctx, b, article } = await library();
    const other = await library();
    const res = await post(ctx, b, "/notes", { content: "Keep <this>", source_ids: [article, other.article] });
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      '<p class="field-error" id="f-sources-error">One of the chosen sources no longer exists.</p>',
    );
    expect(res.text).toContain("Keep &lt;this&gt;</textarea>");
    expect(res.text).toContain(`value="${article}" checked>`);
    expect(res.text).not.toContain(other.article);
    const bad = await post(ctx, b, "/notes", { content: "x", source_ids: "nope" });
    expect(bad.text).toContain('id="f-sources-error">Choose sources from the list.');
  });
});

describe("save a link with a quick podcast", () => {
  test("the option makes an episode in the chosen format once the source is ready", async () => {
    const { ctx, b, me } = await setup();
    contexts.push(ctx);
    const page = await b.get("/library");
    expect(page.text).toContain('<input type="checkbox" name="generate_quick_podcast" value="1">');
    expect(page.text.match(/type="radio" name="podcast_format"/g)).toHaveLength(6);
    expect(page.text).toContain("Two hosts argue opposing positions on the material, then close their cases.");
    const saved = await post(ctx, b, "/library/sources", {
      url: web.url("/article"),
      generate_quick_podcast: "1",
      podcast_format: "brief",
    });
    expect(saved.location).toBe("/library?notice=added_quick");
    const src = (await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data[0];
    expect(src).toMatchObject({ generate_quick_podcast: true, podcast_format: "brief" });
    await ctx.runner.drain({ timeoutMs: 170_000 });
    const pods = (await call(ctx, "GET", "/api/v1/podcasts", { key: me.key })).body.data;
    expect(pods).toHaveLength(1);
    expect(pods[0]).toMatchObject({ format: "brief", source_ids: [src.id], status: "ready" });
  }, 180_000);

  test("without the box no podcast is asked for; a bad format re-renders with the error beside the picker", async () => {
    const { ctx, b, me } = await setup();
    await post(ctx, b, "/library/sources", { url: web.url("/notes.txt"), podcast_format: "brief" });
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data[0]).toMatchObject({
      generate_quick_podcast: false,
      podcast_format: null,
    });
    const bad = await post(ctx, b, "/library/sources", {
      url: web.url("/article"),
      generate_quick_podcast: "1",
      podcast_format: "<rap>",
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('<p class="field-error" id="f-podcast_format-error">Choose one of the six formats.</p>');
    expect(bad.text).toContain("<details open>");
    expect(bad.text).toContain('name="generate_quick_podcast" value="1" checked>');
    expect((await call(ctx, "GET", "/api/v1/sources", { key: me.key })).body.data).toHaveLength(1);
  });
});
