// The Markdown renderer's safety rules, case by case: raw HTML escaped, link schemes limited, images
// from this site's kept media only.
import { describe, expect, test } from "bun:test";
import { renderArticle, renderMarkdown, safeLinkUrl, slugify, webImageUrl } from "./markdown.ts";

const render = (md: string) => renderMarkdown(md).value;

describe("renderMarkdown", () => {
  test("ordinary Markdown becomes HTML", () => {
    expect(render("# Title\n\nSome **bold** and `code <b>`.")).toBe(
      "<h1>Title</h1>\n<p>Some <strong>bold</strong> and <code>code &lt;b&gt;</code>.</p>\n",
    );
    expect(render("| a |\n|---|\n| 1 |")).toContain("<td>1</td>");
    expect(render("```\n<script>x</script>\n```")).toContain("&lt;script&gt;x&lt;/script&gt;");
  });

  test("raw HTML, block or inline, is shown as text", () => {
    expect(render("<script>alert(1)</script>")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(render("a <img src=x onerror=alert(1)> b")).toBe("<p>a &lt;img src=x onerror=alert(1)&gt; b</p>\n");
    expect(render('<div onclick="x()">hi</div>')).not.toContain("<div");
    expect(render("[<b>x</b>](https://ok.example)")).toBe(
      '<p><a href="https://ok.example" rel="nofollow noopener noreferrer">&lt;b&gt;x&lt;/b&gt;</a></p>\n',
    );
  });

  test.each([
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x]( javascript:alert(1))",
    "[x](<javascript:alert(1)>)",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "<javascript:alert(1)>",
    "[x][r]\n\n[r]: javascript:alert(1)",
  ])("%p keeps its text but loses the link", (md) => {
    const out = render(md);
    expect(out).not.toContain("<a ");
    expect(out).not.toMatch(/href=/);
  });

  test("entity-spelled schemes stay inert text inside a relative URL", () => {
    const out = render("[x](&#106;avascript:alert(1))");
    expect(out).not.toMatch(/href="javascript:/i);
    expect(out).toMatch(/href="&amp;#106;avascript:alert\(1\)"/);
  });

  test("http, https, mailto and relative links are kept, attributes escaped", () => {
    expect(render('[a](https://x.example/?q="1" "t<")')).toBe(
      '<p><a href="https://x.example/?q=&quot;1&quot;" title="t&lt;" rel="nofollow noopener noreferrer">a</a></p>\n',
    );
    expect(render("[m](mailto:a@b.example) [r](/library) [h](#top)")).toBe(
      '<p><a href="mailto:a@b.example" rel="nofollow noopener noreferrer">m</a> <a href="/library" rel="nofollow noopener noreferrer">r</a> <a href="#top" rel="nofollow noopener noreferrer">h</a></p>\n',
    );
  });

  test("only kept images load, at their web address; any other image leaves its alt text", () => {
    const id = "src_01J0000000000000000000000A";
    expect(render(`![a "b"](/api/v1/sources/${id}/media/3fa9c2.webp)`)).toBe(
      `<p><img src="/sources/${id}/media/3fa9c2.webp" alt="a &quot;b&quot;" loading="lazy"></p>\n`,
    );
    expect(render(`![w](/sources/${id}/media/3fa9c2.webp)`)).toContain(`<img src="/sources/${id}/media/3fa9c2.webp"`);
    expect(render("![alt](https://i.example/x.png)")).toBe("<p>alt</p>\n");
    expect(render("![alt](http://i.example/x.png)")).toBe("<p>alt</p>\n");
    expect(render("![alt](//i.example/x.png)")).toBe("<p>alt</p>\n");
    expect(render("![alt](data:image/png;base64,AAAA)")).toBe("<p>alt</p>\n");
    expect(render("![alt](/local.png)")).toBe("<p>alt</p>\n");
    expect(render(`![alt](/api/v1/sources/${id}/media/../../me)`)).toBe("<p>alt</p>\n");
    expect(render(`![alt](https://evil.example/api/v1/sources/${id}/media/a.webp)`)).toBe("<p>alt</p>\n");
    expect(render("![<b>](javascript:1)")).toBe("<p>&lt;b&gt;</p>\n");
    expect(render("[![x](https://i.example/x.png)](https://ok.example)")).not.toContain("<img");
  });
});

describe("URL rules", () => {
  test("schemes hidden by control characters are still seen", () => {
    expect(safeLinkUrl("java\tscript:alert(1)")).toBe(false);
    expect(safeLinkUrl("\u0000javascript:alert(1)")).toBe(false);
    expect(safeLinkUrl("java\u200bscript:alert(1)")).toBe(false);
    expect(safeLinkUrl("a/b:c")).toBe(true);
    expect(webImageUrl("/api/v1/sources/src_01J0000000000000000000000A/media/ab.webp")).toBe(
      "/sources/src_01J0000000000000000000000A/media/ab.webp",
    );
    expect(webImageUrl("HTTPS://x.example/a.png")).toBeNull();
    expect(webImageUrl("/sources/src_1/media/a.webp?x=1")).toBeNull();
  });
});

describe("renderArticle: heading ids and the outline", () => {
  test("headings get slug ids, repeats numbered, reserved ids avoided, each listed with its text", () => {
    const md = "# Intro\n\ntext\n\n## Intro\n\n## Über *große* `Flüsse` & more\n\n### reader\n\n## Intro";
    const { html, outline } = renderArticle(md, ["reader"]);
    expect(html.value).toContain('<h1 id="intro">Intro</h1>');
    expect(html.value).toContain('<h2 id="intro-2">Intro</h2>');
    expect(html.value).toContain(
      '<h2 id="uber-große-flusse-more">Über <em>große</em> <code>Flüsse</code> &amp; more</h2>',
    );
    expect(html.value).toContain('<h3 id="reader-2">reader</h3>');
    expect(html.value).toContain('<h2 id="intro-3">Intro</h2>');
    expect(outline).toEqual([
      { level: 1, id: "intro", text: "Intro" },
      { level: 2, id: "intro-2", text: "Intro" },
      { level: 2, id: "uber-große-flusse-more", text: "Über große Flüsse & more" },
      { level: 3, id: "reader-2", text: "reader" },
      { level: 2, id: "intro-3", text: "Intro" },
    ]);
    // The same text gives the same ids every time: links to a section keep working.
    expect(renderArticle(md, ["reader"]).html.value).toBe(html.value);
  });

  test("ids and outline text stay escaped; raw HTML in a heading is text; empty headings are left out of the outline", () => {
    const { html, outline } = renderArticle(
      '## <script>alert(1)</script> "x"\n\n## ![](https://i.example/a.png)\n\n## 東京 2024',
    );
    expect(html.value).toContain(
      '<h2 id="script-alert-1-script-x">&lt;script&gt;alert(1)&lt;/script&gt; &quot;x&quot;</h2>',
    );
    expect(html.value).not.toContain("<script>");
    // An image from another host is never loaded: a heading made only of one is empty.
    expect(html.value).toContain('<h2 id="section"></h2>');
    expect(html.value).not.toContain("i.example");
    expect(html.value).toContain('<h2 id="東京-2024">東京 2024</h2>');
    expect(outline.map((h) => h.text)).toEqual(['<script>alert(1)</script> "x"', "東京 2024"]);
  });

  test("notes keep plain headings; slugify copes with anything", () => {
    expect(renderMarkdown("## Notes").value).toBe("<h2>Notes</h2>\n");
    expect(slugify("  --  ")).toBe("section");
    expect(slugify("A".repeat(200)).length).toBe(80);
    expect(slugify("Ça va? Oui!")).toBe("ca-va-oui");
  });
});
