// Settings → Search quality without script: start a run with CSRF, see it queued with a self-reloading
// page and a live region, read its report once done, compare runs; too small a library and bad fields
// answer the form with the reason; another user sees nothing of it.
import { afterAll, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../../test/helpers.ts";
import { hiddenFields, signUp, testBrowser, type TestBrowser } from "../../test/browser-client.ts";
import { saveSource, startMarkdownSite, TEXTS } from "../features/search/library.fixture.ts";

const PATH = "/settings/search-quality";
const site = startMarkdownSite();
afterAll(() => site.stop());
let n = 0;

async function userWithSources(ctx: TestContext, b: TestBrowser, email: string, texts: string[]) {
  await signUp(b, email);
  const u = await ctx.services.accounts.userByEmail(email);
  const { key } = await ctx.services.keys.create(u.id, "test");
  for (const md of texts) await saveSource(ctx, key, site, `/page-${++n}`, md);
  await ctx.runner.drain({ timeoutMs: 60_000 });
  return { key };
}

const article = (i: number) =>
  `# Field notes number ${i}\n\nThe observer counted ${i} herons wading along the marsh edge before the tide turned at dusk.`;

test("start, follow and read a run without script; too small a library and bad fields say why", async () => {
  const ctx = createTestContext();
  const b = testBrowser(ctx);
  const { key } = await userWithSources(ctx, b, "quality@example.com", [TEXTS.bread, TEXTS.tides]);

  expect((await b.get("/settings")).text).toContain(`href="${PATH}"`);
  const empty = await b.get(PATH);
  expect(empty.status).toBe(200);
  expect(empty.text).toContain("No run yet.");
  expect(empty.text).toContain("<code>AI_EMBEDDING_MODEL</code>");
  expect(empty.text).not.toContain("http-equiv");
  const csrf = hiddenFields(empty.text, PATH);

  // Two sources: the form answers with the reason, nothing starts.
  const small = await b.post(PATH, { ...csrf, sample: "50", seed: "" });
  expect(small.status).toBe(409);
  expect(small.text).toContain("needs at least 5 ready sources; your library has 2 ready sources");
  expect(small.text).toContain('role="alert"');

  for (const md of [TEXTS.compost, TEXTS.orbits, article(1), article(2)])
    await saveSource(ctx, key, site, `/page-${++n}`, md);
  await ctx.runner.drain({ timeoutMs: 60_000 });

  const bad = await b.post(PATH, { ...csrf, sample: "lots", seed: "-3" });
  expect(bad.status).toBe(422);
  expect(bad.text).toContain('id="f-sample-error"');
  expect(bad.text).toContain("Enter a whole number from 5 to 200.");
  expect(bad.text).toContain("Enter a whole number from 0 to 2147483647.");
  expect(bad.text).toContain('value="lots"');
  expect((await b.post(PATH, { csrf: "forged", sample: "50" })).status).toBe(403);

  const started = await b.post(PATH, { ...csrf, sample: "50", seed: "42" });
  expect(started.status).toBe(303);
  expect(started.location).toBe(PATH);
  const queued = await b.get(PATH);
  const id = /data-live-id="(sqr_[0-9A-Z]{26})"/.exec(queued.text)?.[1];
  expect(id).toBeDefined();
  expect(queued.text).toContain(`data-live="search_quality" data-live-id="${id}" data-live-fragment="${PATH}/live"`);
  expect(queued.text).toContain("Status: <strong>queued</strong>");
  expect(queued.text).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
  expect(queued.text).not.toContain("Start the test");
  const fragment = await b.get(`${PATH}/live`);
  expect(fragment.status).toBe(200);
  expect(fragment.text).toStartWith('<div id="quality-run" data-live="search_quality"');

  await ctx.runner.drain({ timeoutMs: 60_000 });
  const done = await b.get(PATH);
  expect(done.text).not.toContain("http-equiv");
  expect(done.text).toContain("Measured on 6 of your 6 ready sources (seed 42)");
  expect(done.text).toContain(`<code>${ctx.services.ai.embedder.id}</code>`);
  expect(done.text).toContain("Found first (recall@1)");
  for (const name of [
    "Words (text)",
    "Meaning (vector)",
    "Both (hybrid)",
    "Titles",
    "Headings",
    "Paraphrased first sentences",
  ])
    expect(done.text).toContain(name);
  // The titles row in text mode: every source found first.
  expect(done.text).toMatch(
    /<td data-label="Query">Titles<\/td><td data-label="Queries">6<\/td><td data-label="Words \(text\)">100% · 100%<\/td>/,
  );
  // The form keeps the seed, so a second run compares like for like.
  expect(done.text).toContain('name="seed" type="text" value="42"');
  expect(done.text).not.toContain("Runs compared");

  expect((await b.post(PATH, { ...hiddenFields(done.text, PATH), sample: "5", seed: "42" })).status).toBe(303);
  await ctx.runner.drain({ timeoutMs: 60_000 });
  const twice = await b.get(PATH);
  expect(twice.text).toContain("Measured on 5 of your 6 ready sources (seed 42)");
  expect(twice.text).toContain("Runs compared");

  // Another user: no run, and the fragment shows none either.
  const other = testBrowser(ctx);
  await signUp(other, "other@example.com");
  expect((await other.get(PATH)).text).toContain("No run yet.");
  expect((await other.get(`${PATH}/live`)).text).not.toContain(id!);
  // Signed out: the page asks to sign in, the fragment is 401.
  const anon = testBrowser(ctx);
  expect((await anon.get(PATH)).status).toBe(303);
  expect((await anon.get(`${PATH}/live`)).status).toBe(401);
}, 120_000);
