import { describe, expect, test } from "bun:test";
import { dropInertBlocks } from "./dom.ts";
import { extract } from "./index.ts";

const STORY = `<p>${"The harbour wall was rebuilt after the winter storms took most of the old stone away. ".repeat(6)}</p>`;

describe("dropInertBlocks", () => {
  // The old backtracking regex took 12–14 s on 60,000 unclosed <script> tags (quadratic); a linear scan
  // takes milliseconds, so each case finishing inside the test's own timeout is the proof.
  for (const opener of ["<script>", "<SCRIPT type=text/javascript>", "<style>", "<!--"]) {
    test(`60,000 unclosed ${opener} tags are dropped in one linear pass`, () => {
      const html = `<html><body>${STORY}${`${opener}var x = 1;`.repeat(60_000)}</body></html>`;
      expect(dropInertBlocks(html)).toBe(`<html><body>${STORY}`);
    }, 5_000);
  }

  test("an unclosed script, style or comment hides the rest of the page, as it does from an HTML parser", () => {
    expect(dropInertBlocks("<p>a</p><script>x<p>b</p>")).toBe("<p>a</p>");
    expect(dropInertBlocks("<p>a</p><style>x<p>b</p>")).toBe("<p>a</p>");
    expect(dropInertBlocks("<p>a</p><!-- x <p>b</p>")).toBe("<p>a</p>");
    expect(dropInertBlocks("<p>a</p><script src=x.js")).toBe("<p>a</p>");
  });

  test("closed blocks go in any case; look-alike tags, text and empty comments are handled as a parser would", () => {
    const html = `<p>a</p><SCRIPT>if (a < b) x = "</scr" + "ipt>";</Script ><style media="print">p{}</STYLE><scripts>kept</scripts><!---->b<!-->c<!--->d<!-- e -->f`;
    expect(dropInertBlocks(html)).toBe("<p>a</p><scripts>kept</scripts>bcdf");
  });

  test("JSON-LD scripts stay whole, even when their text quotes a comment or a script tag", () => {
    const ld = `<script type="application/ld+json">{"headline":"<!-- not a comment --> <script>"}</script>`;
    expect(dropInertBlocks(`<head>${ld}<script>track()</script></head>`)).toBe(`<head>${ld}</head>`);
  });

  test("a well-formed page keeps its JSON-LD metadata through extraction", async () => {
    const html = `<html><head><title>Sea wall</title><script>var a = "<!--";</script>
      <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-02-01T08:00:00Z"}</script></head>
      <body><article><h1>Sea wall</h1>${STORY}</article><!-- footer --></body></html>`;
    const r = await extract({
      body: new TextEncoder().encode(html),
      contentType: "text/html",
      url: "https://news.example/sea-wall",
    });
    expect(r.publishedAt).toBe("2024-02-01T08:00:00.000Z");
    expect(r.markdown).toContain("The harbour wall was rebuilt");
  });
});
