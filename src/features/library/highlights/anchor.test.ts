// Anchoring: the article text a reader sees, and finding a quote in it by exact text, context and hint.
import { describe, expect, test } from "bun:test";
import { expectLinearGrowth } from "../../../../test/linear.ts";
import { anchor, articleText, contextOf, normalizeWhitespace } from "./anchor.ts";

describe("articleText", () => {
  test("drops Markdown syntax, link targets and images; blocks and breaks separate words", () => {
    const md = [
      "# Life &amp; times",
      "",
      'Some *emphasis*, **strong** and `code <x>` with a [link **here**](https://example.com/a "t").',
      "An image ![alt text](https://example.com/i.png) vanishes. Escaped \\* star. Hard  ",
      "break.",
      "",
      "- one",
      "- two",
      "",
      "| a | b |",
      "|---|---|",
      "| c | d |",
      "",
      "```js",
      "let   x = 1;",
      "```",
      "",
      "> quoted",
      "",
      "<div>raw html</div>",
      "",
      "Para\u00a0with\tspaces &#8212; end.",
    ].join("\n");
    expect(articleText(md)).toBe(
      "Life & times Some emphasis, strong and code <x> with a link here. An image vanishes. Escaped * star. Hard break. one two a b c d let x = 1; quoted <div>raw html</div> Para with spaces \u2014 end.",
    );
  });

  test("adjacent paragraphs never glue words together", () => {
    expect(articleText("alpha\n\nbeta\n## gamma\ndelta")).toBe("alpha beta gamma delta");
  });

  test("normalizeWhitespace collapses every run, line breaks and no-break spaces included", () => {
    expect(normalizeWhitespace("  a \n\n b\u00a0\tc  ")).toBe("a b c");
  });
});

describe("anchor", () => {
  const text = "The cat sat. Then the cat ran. Finally the cat slept.";

  test("a single occurrence, whatever the whitespace of the quote", () => {
    expect(anchor(text, { exact: "the cat\n  ran" })).toEqual({ start: 18, end: 29 });
    expect(text.slice(18, 29)).toBe("the cat ran");
  });

  test("several occurrences: prefix and suffix decide", () => {
    const byPrefix = anchor(text, { exact: "the cat", prefix: "Finally " });
    expect(byPrefix).toEqual({ start: 39, end: 46 });
    const bySuffix = anchor(text, { exact: "the cat", suffix: " ran." });
    expect(bySuffix).toEqual({ start: 18, end: 25 });
    // Context wins over a hint pointing elsewhere.
    expect(anchor(text, { exact: "the cat", prefix: "Then ", position: { start: 39, end: 46 } })).toEqual({
      start: 18,
      end: 25,
    });
  });

  test("several occurrences without context: the position hint decides, else the first", () => {
    expect(anchor(text, { exact: "the cat", position: { start: 40, end: 47 } })).toEqual({ start: 39, end: 46 });
    expect(anchor(text, { exact: "the cat" })).toEqual({ start: 18, end: 25 });
  });

  test("context compared with whitespace normalised and trimmed at the quote's side", () => {
    expect(anchor(text, { exact: "the cat", prefix: "Finally\n", suffix: "\tslept" })).toEqual({
      start: 39,
      end: 46,
    });
  });

  test("a quote not in the text, or empty, is null", () => {
    expect(anchor(text, { exact: "the dog" })).toBeNull();
    expect(anchor(text, { exact: "  \n " })).toBeNull();
    expect(anchor("", { exact: "x" })).toBeNull();
  });

  test("contextOf fills prefix and suffix from the text", () => {
    const at = anchor(text, { exact: "Then" })!;
    expect(contextOf(text, at, 5)).toEqual({ prefix: " sat. ".slice(1), suffix: " the " });
  });

  test("1 MB of text with thousands of occurrences anchors in linear time", () => {
    const para = "The tide comes back faster than most people expect, so watch the sea. ";
    const big = para.repeat(Math.ceil(1_000_000 / para.length));
    expect(big.length).toBeGreaterThan(1_000_000);
    const target = Math.floor(big.length / para.length / 2) * para.length;
    const text = `${big.slice(0, target)}A unique marker sits here. ${big.slice(target)}`;
    // "the sea" occurs ~14,000 times; the prefix and the hint pick one.
    const at = anchor(text, {
      exact: "the sea",
      prefix: "sits here. The tide comes back faster than most people expect, so watch ",
    });
    const hinted = anchor(text, { exact: "the sea", position: { start: 700_000, end: 700_007 } });
    const missing = anchor(text, { exact: "the sea, said nobody" });
    expect(text.slice(at!.start - 9, at!.end)).toBe("so watch the sea");
    expect(text.slice(target, at!.start)).toStartWith("A unique marker sits here. The tide");
    expect(at!.start).toBeGreaterThan(target);
    expect(at!.start).toBeLessThan(target + 200);
    expect(Math.abs(hinted!.start - 700_000)).toBeLessThan(para.length);
    expect(missing).toBeNull();
    // Anchoring among n occurrences costs time linear in n (from 125 KB to 1 MB of text).
    expectLinearGrowth((n) => {
      const t = para.repeat(Math.ceil((125_000 * n) / para.length));
      return () => anchor(t, { exact: "the sea", prefix: "sits here. The tide comes back" });
    });
    // The article text of a 1 MB Markdown document is made in one pass too.
    const paragraph = "A paragraph of *prose* with a [link](https://example.com/x) in it.\n\n";
    const md = `# Title\n\n${paragraph.repeat(15_000)}`;
    expect(articleText(md).startsWith("Title A paragraph of prose with a link in it. A paragraph")).toBe(true);
    expectLinearGrowth((n) => {
      const doc = `# Title\n\n${paragraph.repeat(1_875 * n)}`;
      return () => articleText(doc);
    });
  }, 30_000);
});
