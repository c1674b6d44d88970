// The nesting pre-scan counts the depth of the tree linkedom would build, quickly, without parsing.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { nestedDivs, unclosedScripts } from "../../../../../test/fixtures/pages/hostile.ts";
import { nestingDepth } from "./nesting.ts";

/** Depth of the element tree linkedom builds, counted from the children of the document. */
function parsedDepth(html: string): number {
  const { document } = parseHTML(html);
  const walk = (el: Element): number => 1 + Math.max(0, ...Array.from(el.children, walk));
  return Math.max(0, ...Array.from((document as unknown as Document).children, walk));
}

const PAGES = join(import.meta.dir, "../../../../../test/fixtures/pages");

describe("nestingDepth", () => {
  test("matches the parsed tree on the real-world fixture pages", () => {
    const files = readdirSync(PAGES).filter((f) => f.endsWith(".html"));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const html = readFileSync(join(PAGES, file), "latin1");
      expect({ file, depth: nestingDepth(html) }).toEqual({ file, depth: parsedDepth(html) });
    }
  });

  test.each([
    ["nested divs", nestedDivs(40)],
    [
      "unclosed paragraphs and list items stay shallow",
      `<body>${"<p>one".repeat(300)}<ul>${"<li>two".repeat(300)}</ul></body>`,
    ],
    ["a block closes an open paragraph", `<p>a<div>b<p>c<section>d</section></div>`],
    ["table cells and rows close each other", `<table>${"<tr><td>a<td>b".repeat(50)}</table>`],
    ["void elements and end tags that match nothing", `<div><br><img src=x><hr></span></b><input></div><div>`],
    [
      "self-closing only counts inside svg and math",
      `<div/><div/><svg><g/><path d="M0 0"/><g><rect/></g></svg><span/>`,
    ],
    [
      "raw text holds no elements",
      `<div><script>if (a <b) document.write("<div><div><div>")</script><style>p>a{}</style><textarea><div></textarea></div>`,
    ],
    ["quoted attributes may hold brackets", `<div title="a > b" data-x='<div><div>'><span class=x>t</span></div>`],
    ["comments and doctype hold no elements", `<!doctype html><!-- <div><div> --><div><?php echo 1 ?></div>`],
    ["an end tag closes everything opened inside it", `<div><span><b><i>x</div><div>y</div>`],
  ])("%s", (_name, html) => {
    expect(nestingDepth(html)).toBe(parsedDepth(html));
  });

  test("stops counting past the limit", () => {
    expect(nestingDepth(nestedDivs(1_000), 100)).toBe(101);
    expect(nestingDepth(nestedDivs(1_000))).toBe(parsedDepth(nestedDivs(1_000)));
  });

  test("an unclosed script swallows the rest of the page as text", () => {
    expect(nestingDepth(unclosedScripts(60_000))).toBe(parsedDepth(unclosedScripts(10)));
  });

  test("gets through pages built to make a scanner slow", () => {
    // Half a megabyte each: a linear scan takes milliseconds, a quadratic one would run past the
    // test's time limit.
    const cases: [string, number][] = [
      ["</a>".repeat(125_000), 0],
      [`${"<b>".repeat(200)}${"</i>".repeat(120_000)}`, 200],
      [`<div title="${"x".repeat(500_000)}`, 1],
      ["<".repeat(500_000), 0],
      ["<!--".repeat(125_000), 0],
      [`<a ${"=".repeat(500_000)}>`, 1],
    ];
    for (const [html, depth] of cases) expect(nestingDepth(html, 256)).toBe(depth);
  });
});
