// Search and ask in the web app: highlighted snippets built from offsets (escaped), filters, cited
// answers with linked markers, and a friendly page when credits run out.
import { afterAll, describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { startOutsideWeb } from "../../../test/outside-web.ts";
import { highlighted } from "./search-pages.ts";
import { idIn, post, setup } from "./test-helpers.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

async function library(env: Record<string, string> = {}) {
  const s = await setup(env);
  await post(s.ctx, s.b, "/library/sources", { url: web.url("/article") });
  const noteId = idIn(
    (
      await post(s.ctx, s.b, "/notes", {
        title: "Pool <visit>",
        content: "We watched a <b>sea star</b> in a tide pool.",
      })
    ).location!,
    "note",
  );
  await s.ctx.runner.drain();
  const srcId = idIn((await s.b.get("/library")).text, "src");
  return { ...s, srcId, noteId };
}

describe("search", () => {
  test("results link to the reader and mark the matched words, escaping everything else", async () => {
    const { b, srcId, noteId } = await library();
    const res = await b.get("/search?q=sea+star&mode=text");
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<a class="title" href="/library/sources/${srcId}">Life in the tide pools</a>`);
    expect(res.text).toContain(`<a class="title" href="/notes/${noteId}">Pool &lt;visit&gt;</a>`);
    expect(res.text).toMatch(/<mark>[Ss]ea<\/mark> <mark>star/);
    expect(res.text).not.toContain("<b>sea");
    expect(res.text).toContain('value="sea star"');
  });

  test("the type and notebook filters narrow the results", async () => {
    const { ctx, b, srcId, noteId } = await library();
    const notesOnly = await b.get("/search?q=tide&type=note");
    expect(notesOnly.text).toContain(`/notes/${noteId}`);
    expect(notesOnly.text).not.toContain(`/library/sources/${srcId}`);
    expect(notesOnly.text).toContain('<option value="note" selected>Notes</option>');
    const nbId = idIn((await post(ctx, b, "/notebooks", { name: "Empty" })).location!, "nb");
    expect((await b.get(`/search?q=tide&notebook=${nbId}`)).text).toContain("Nothing found for “tide”.");
  });

  test("vector and hybrid modes answer too", async () => {
    const { b, srcId } = await library();
    for (const mode of ["vector", "hybrid"]) {
      const res = await b.get(`/search?q=tube+feet+grip+rock&mode=${mode}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`/library/sources/${srcId}`);
      expect(res.text).toContain(`<option value="${mode}" selected>`);
    }
  });

  test("the snippet marker wraps offsets, clamps them and skips overlaps", () => {
    expect(highlighted("a <b> c", [{ start: 2, end: 5 }]).value).toBe("a <mark>&lt;b&gt;</mark> c");
    expect(
      highlighted("abcdef", [
        { start: 3, end: 4 },
        { start: 0, end: 2 },
        { start: 1, end: 3 },
        { start: 5, end: 99 },
      ]).value,
    ).toBe("<mark>ab</mark><mark>c</mark><mark>d</mark>e<mark>f</mark>");
  });
});

describe("ask", () => {
  test("the answer's [n] markers link to a citations list with quote, title and links", async () => {
    const { ctx, b, me, srcId } = await library();
    const res = await post(ctx, b, "/search/ask", { question: "How do sea stars grip the rock?" });
    expect(res.status).toBe(200);
    const answer = res.text.slice(res.text.indexOf('aria-label="Answer"'));
    expect(answer).toMatch(/<a href="#cite-1" class="cite">\[1\]<\/a>/);
    expect(answer).toContain('<li id="cite-1" value="1">');
    expect(answer).toContain(`<a href="/library/sources/${srcId}">Life in the tide pools</a>`);
    expect(answer).toContain(`<a href="${web.url("/article")}" rel="noopener noreferrer nofollow">original ↗</a>`);
    expect(answer).toMatch(/<blockquote>[^<]*tube feet[^<]*<\/blockquote>/);
    expect(answer).toContain("Credits used: 1");
    expect(res.text).toContain("How do sea stars grip the rock?</textarea>");
    expect((await call(ctx, "GET", "/api/v1/account", { key: me.key })).body.credits.used).toBe(1);
  });

  test("out of credits is a friendly 402 page, and nothing is charged", async () => {
    const { ctx, b, me } = await library({ DEFAULT_MONTHLY_CREDITS: "0" });
    const res = await post(ctx, b, "/search/ask", { question: "How do sea stars grip the rock?" });
    expect(res.status).toBe(402);
    expect(res.text).toContain("You are out of AI credits for now.");
    expect(res.text).toContain("Searching stays free");
    expect(res.text).not.toContain('aria-label="Answer"');
    expect((await call(ctx, "GET", "/api/v1/account", { key: me.key })).body.credits.used).toBe(0);
  });

  test("an empty question is asked again for; a reload of the answer lands on search", async () => {
    const { ctx, b } = await setup();
    const res = await post(ctx, b, "/search/ask", { question: "   " });
    expect(res.status).toBe(422);
    expect(res.text).toContain("Write a question first.");
    expect((await b.get("/search/ask")).location).toBe("/search");
  });
});
