import { describe, expect, test } from "bun:test";
import { countWords, htmlToMarkdown } from "./index.ts";

const BASE = "https://ex.example/dir/page.html";

describe("htmlToMarkdown", () => {
  test("uses ATX headings, '-' bullets, numbered lists from start, fenced code with its language", () => {
    const md = htmlToMarkdown(
      `<h2>Title</h2><ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul><ol start="3"><li>three</li><li>four</li></ol>
       <pre><code class="language-ts">const a = 1;\nconst b = 2;</code></pre><pre>plain\n  indented</pre>`,
      BASE,
    );
    expect(md).toBe(
      "## Title\n\n- one\n  - nested\n- two\n\n3. three\n4. four\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n\n```\nplain\n  indented\n```",
    );
  });

  test("a code block containing a fence gets a longer fence", () => {
    expect(htmlToMarkdown("<pre><code>```\ninner\n```</code></pre>", BASE)).toBe("````\n```\ninner\n```\n````");
  });

  test("resolves links and images against the base, including a page's own relative <base>", () => {
    expect(htmlToMarkdown('<p><a href="../up">up</a> <img src="pic.png" alt="a [pic]"></p>', BASE)).toBe(
      "[up](https://ex.example/up) ![a \\[pic\\]](https://ex.example/dir/pic.png)",
    );
    const page = '<html><head><base href="/assets/"></head><body><p><a href="x.html">x</a></p></body></html>';
    expect(htmlToMarkdown(page, BASE)).toBe("[x](https://ex.example/assets/x.html)");
  });

  test("drops empty links, images without a usable src, scripts and form controls; keeps javascript: link text", () => {
    const md = htmlToMarkdown(
      '<p>a<a href="/e"> </a>b<img alt="none">c<img src="data:image/png;base64,AAAA">d<a href="javascript:go()">text</a><script>x()</script><button>Buy</button></p>',
      BASE,
    );
    // The empty link's space stays as a space: "a<a> </a>b" reads "a b".
    expect(md).toBe("a bcdtext");
  });

  test("a link around an image keeps the image", () => {
    expect(htmlToMarkdown('<a href="/big.jpg"><img src="/small.jpg" alt="thumb"></a>', BASE)).toBe(
      "[![thumb](https://ex.example/small.jpg)](https://ex.example/big.jpg)",
    );
  });

  test("uses an image's srcset when it has no src, and encodes spaces and parentheses in URLs", () => {
    expect(htmlToMarkdown('<img srcset="/a%20b.png 1x, /b.png 2x" alt="s">', BASE)).toBe(
      "![s](https://ex.example/a%20b.png)",
    );
    expect(htmlToMarkdown('<a href="/wiki/Foo_(bar)">Foo</a>', BASE)).toBe(
      "[Foo](https://ex.example/wiki/Foo_%28bar%29)",
    );
  });

  test("turns tables into GFM tables with the first row as header", () => {
    const md = htmlToMarkdown(
      '<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>Apple | red</td><td></td></tr><tr><td><a href="/p">Pear</a></td><td>2</td></tr></tbody></table>',
      BASE,
    );
    expect(md).toBe("| Name | Qty |\n| --- | --- |\n| Apple \\| red |  |\n| [Pear](https://ex.example/p) | 2 |");
  });

  test('text lines starting "1)" stay text: CommonMark would read them as an ordered list and drop the numbers', () => {
    expect(htmlToMarkdown("<p>Offers:<br>1) Lego set<br>2) Pista Polistil</p><p>3) Thriller</p>", BASE)).toBe(
      "Offers:\n1\\) Lego set\n2\\) Pista Polistil\n\n3\\) Thriller",
    );
  });

  test("an empty or whitespace-only input gives an empty string", () => {
    expect(htmlToMarkdown("", BASE)).toBe("");
    expect(htmlToMarkdown("<div>  </div>", BASE)).toBe("");
  });
});

describe("countWords", () => {
  test("counts words, not link targets or image syntax", () => {
    expect(
      countWords("Hello world, don't [link text](https://a.example/c/d) ![alt words](x.png) https://bare.example/x/y"),
    ).toBe(5);
  });

  test("keeps hyphenated and dotted words whole", () => {
    expect(countWords("e-mail 9.5km U.S. well-known")).toBe(4);
  });

  test("counts each Chinese or Japanese character as a word", () => {
    expect(countWords("東京タワー is tall")).toBe(7);
  });

  test("ignores Markdown punctuation", () => {
    expect(countWords("## Heading\n\n- item *one*\n\n> quote\n\n---")).toBe(4);
    expect(countWords("")).toBe(0);
  });
});
