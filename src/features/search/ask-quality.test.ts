// Ask end to end on the cases the builtin answerer used to get wrong: an unrelated note appended to
// a bee answer, a URL cut into a quote, PDF sentences cut at line breaks.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { markdownPdf } from "../../../scripts/lib/eval-library.ts";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { chunkText, saveNote, saveSource, startMarkdownSite } from "./library.fixture.ts";

const HARD = join(import.meta.dir, "..", "..", "..", "test", "fixtures", "search", "hard");
const read = (p: string) => readFileSync(join(HARD, p), "utf8");
const site = startMarkdownSite();
const pdfs = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () =>
    new Response(markdownPdf(read("pdfs/hot-composting-guide.md")), { headers: { "content-type": "application/pdf" } }),
});
afterAll(() => {
  void site.stop();
  void pdfs.stop(true);
});

async function library() {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  await saveSource(ctx, a.key, site, "/honeybees", read("articles/honeybee-nest-site-selection.md"));
  await saveNote(ctx, a.key, read("notes/team-meeting-notes.md"), { title: "Team meeting, 14 March" });
  await saveNote(ctx, a.key, read("notes/kombucha-brewing-log.md"), { title: "Kombucha brewing log" });
  expect(
    (
      await call(ctx, "POST", "/api/v1/sources", {
        key: a.key,
        body: { url: `http://127.0.0.1:${pdfs.port}/compost.pdf` },
      })
    ).status,
  ).toBe(201);
  await ctx.runner.drain();
  const ask = async (question: string) => {
    const r = await call(ctx, "POST", "/api/v1/search/ask", { key: a.key, body: { question } });
    expect(r.status).toBe(200);
    for (const c of r.body.citations) expect(await chunkText(ctx, c.chunk_id)).toContain(c.quote);
    return r.body as { answer: string; citations: { quote: string; title: string }[] };
  };
  return { ask };
}

describe("ask answers that answer (builtin)", () => {
  test("the honeybee nest question cites the bee article and never the espresso machine", async () => {
    const { ask } = await library();
    const r = await ask("How do honeybees decide where to build a new nest?");
    expect(r.answer).not.toContain("espresso");
    expect(r.citations.length).toBeGreaterThan(0);
    expect(r.citations.every((c) => c.title === "How a Honeybee Swarm Chooses a New Home")).toBe(true);
  }, 30_000);

  // Known gap with the hashed embedder: over the whole article the answer picks "nest boxes" and
  // "decision" sentences, not the dancing scouts (no shared word with the question). Kept as a
  // failing test so it flags when a semantic embedder or better ranking fixes it.
  test.failing("the honeybee nest question over the whole article mentions the dance", async () => {
    const { ask } = await library();
    expect((await ask("How do honeybees decide where to build a new nest?")).answer).toMatch(/danc/);
  }, 30_000);

  test("a note with URLs never yields a quote cut out of a URL", async () => {
    const { ask } = await library();
    const r = await ask("Where can I read more about the microbes in kombucha and sourdough?");
    for (const c of r.citations) {
      expect(c.quote).not.toMatch(/^\d+:\d+|^\/|^[a-z0-9-]+\)\.?$/);
      expect(c.quote).not.toContain("](");
    }
  }, 30_000);

  test("sentences of a hard-wrapped PDF are whole: no fragment ends an answer", async () => {
    const { ask } = await library();
    for (const q of ["How damp should the compost heap be?", "How hot does the centre of a compost heap get?"]) {
      const r = await ask(q);
      expect(r.answer).not.toMatch(/\b(?:a|the|of|like|most|weed)\s*\[\d+\]/);
      for (const c of r.citations) expect(c.quote).toMatch(/[.!?]$|\w$/);
    }
    expect((await ask("How damp should the compost heap be?")).answer).toContain("wrung-out sponge");
    expect((await ask("How hot does the centre of a compost heap get?")).answer).toContain(
      "hot enough to kill most weed seeds and plant pathogens.",
    );
  }, 30_000);
});
