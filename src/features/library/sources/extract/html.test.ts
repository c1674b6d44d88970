import { describe, expect, test } from "bun:test";
import { type Extracted, ExtractError, extract } from "./index.ts";

const FIXTURES = new URL("../../../../../test/fixtures/pages/", import.meta.url);

async function fixture(name: string): Promise<Uint8Array> {
  return new Uint8Array(await Bun.file(new URL(name, FIXTURES)).arrayBuffer());
}

async function page(
  name: string,
  url: string,
  extra: { charset?: string; contentType?: string } = {},
): Promise<Extracted> {
  return extract({
    body: await fixture(name),
    contentType: extra.contentType ?? "text/html",
    charset: extra.charset,
    url,
  });
}

function expectAll(markdown: string, present: string[], absent: string[]): void {
  for (const text of present) expect(markdown).toContain(text);
  for (const text of absent) expect(markdown).not.toContain(text);
}

describe("HTML article pages", () => {
  test("a news story keeps the article and drops banner, nav, ads, sidebar, comments and footer", async () => {
    const r = await page("news-article.html", "https://www.harbourherald.example/news/2024/03/tidal-lagoon");
    expectAll(
      r.markdown,
      [
        "A tidal lagoon off the Welsh coast has finally been approved by ministers",
        "## Costs and concerns",
        '> "We have listened to every objection',
        "with the first turbines turning before the end of the decade.",
      ],
      [
        "We use cookies",
        "Weather forecast for the week",
        "Switch your energy supplier",
        "luxury cruises",
        "Share on Facebook",
        "About time! My grandfather",
        "white elephant",
        "Ferry strike called off",
        "Sign up for our free daily newsletter",
        "Harbour Herald Media Ltd",
        "dataLayer",
      ],
    );
    expect(r.title).toBe("Tidal power scheme wins approval after decade of delays");
    expect(r.byline).toBe("Megan Pritchard");
    expect(r.siteName).toBe("The Harbour Herald");
    expect(r.language).toBe("en-GB");
    expect(r.publishedAt).toBe("2024-03-05T09:30:00.000Z");
    expect(r.excerpt).toStartWith("A tidal lagoon off the Welsh coast has been approved");
    expect(r.wordCount).toBeGreaterThan(180);
    expect(r.wordCount).toBeLessThan(260);
  });

  test("a windows-1252 blog post decodes its accents from <meta http-equiv> and loses the sidebar and comments", async () => {
    const r = await page("blog-windows-1252.html", "https://elodie.example.fr/2023/11/creme-brulee/");
    expectAll(
      r.markdown,
      [
        "la crème brûlée n’était servie qu’aux grandes occasions",
        "- six jaunes d’œufs bien frais",
        "## Préparation",
        "la crème doit rester légèrement tremblotante au centre.",
      ],
      [
        "cookies pour mesurer",
        "Toutes les recettes",
        "Pâtisserie bretonne",
        "toute la famille s’est régalée",
        "Épingler sur Pinterest",
        "Reproduction interdite",
        "\uFFFD",
      ],
    );
    expect(r.title).toBe("La crème brûlée de ma grand-mère");
    expect(r.byline).toBe("Élodie Marchand");
    expect(r.language).toBe("fr");
    expect(r.siteName).toBe("elodie.example.fr");
    expect(r.publishedAt).toBe("2023-11-18T07:15:00.000Z");
  });

  test("the HTTP charset wins over the document's own declaration", async () => {
    const html =
      "<html><head><meta charset=\"utf-8\"><title>Caf\xe9</title></head><body><article><p>Un caf\xe9 cr\xe8me, s'il vous pla\xeet, avec un croissant et un verre d'eau fra\xeeche.</p></article></body></html>";
    const body = Uint8Array.from(html, (c) => c.charCodeAt(0));
    const r = await extract({ body, contentType: "text/html", charset: "ISO-8859-1", url: "https://bistro.example/" });
    expect(r.markdown).toContain("Un café crème, s'il vous plaît");
    expect(r.title).toBe("Café");
  });

  test("relative links and images become absolute; empty links, src-less images and javascript: links go", async () => {
    const r = await page("tech-relative-links.html", "https://devnotes.example.org/posts/2024/sqlite-wal.html");
    expectAll(
      r.markdown,
      [
        "[the backup guide](https://devnotes.example.org/guides/backup.html)",
        "[section on checkpoints](https://devnotes.example.org/posts/2024/sqlite-wal.html#checkpoints)",
        "![Diagram of the WAL file beside the database](https://devnotes.example.org/posts/2024/images/wal-diagram.png)",
        "[WAL documentation](https://devnotes.example.org/docs/wal.html)",
        "[slide deck](https://cdn.example.net/slides/wal.pdf)",
        "```sql\nPRAGMA journal_mode = WAL;\nPRAGMA synchronous = NORMAL;\n```",
        "- Keep read transactions short.",
        "**readers never block writers and writers never block readers**",
      ],
      [
        "](/",
        "](images/",
        "](../",
        "[]",
        "![](",
        "javascript:",
        "Get 20% off",
        "Browse all tags",
        "You might also like",
        "Hacker News",
        "Content licensed CC BY 4.0",
      ],
    );
    expect(r.title).toBe("Understanding SQLite's write-ahead log");
    expect(r.byline).toBe("Priya Raman");
    expect(r.publishedAt).toBe("2024-06-12T00:00:00.000Z");
    expect(r.excerpt).toBe("How WAL mode works, when checkpoints happen, and why readers never block writers.");
    expect(r.siteName).toBe("devnotes.example.org");
  });

  test("a page wrapped in a <form> with a share-tools content wrapper keeps its story", async () => {
    const r = await page("magazine-webforms.html", "https://longitude.example.com/stories/lighthouse-keepers.aspx");
    expectAll(
      r.markdown,
      [
        "the light on Sable Point was trimmed, wound and polished by hand",
        "listening for a foghorn that has not sounded in twenty-five years",
        "the crossing takes forty minutes instead of three hours",
      ],
      [
        "Follow us on Instagram",
        "print edition",
        "Photography portfolio",
        "Email this story",
        "Get our best long reads",
        "Join the discussion",
        "Cape Race",
        "Driving the ice roads",
        "Meridian Press",
        "__VIEWSTATE",
      ],
    );
    expect(r.title).toBe("The last lighthouse keepers");
    expect(r.byline).toBe("Tom Okafor");
    expect(r.language).toBe("en-US");
    expect(r.publishedAt).toBe("2022-09-30T22:45:00.000Z");
    expect(r.siteName).toBe("longitude.example.com");
  });

  test("JSON-LD datePublished is used when nothing else gives a date, including inside @graph", async () => {
    const html = `<html><head><title>Graph</title><script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"X"},{"@type":"Article","datePublished":"2021-07-04 16:20:00+02:00"}]}</script></head>
      <body><article><p>${"Independence day fireworks were postponed because of the storm over the bay. ".repeat(8)}</p></article></body></html>`;
    const r = await extract({
      body: new TextEncoder().encode(html),
      contentType: "text/html",
      url: "https://x.example/p",
    });
    expect(r.publishedAt).toBe("2021-07-04T14:20:00.000Z");
  });

  test("an app shell with no text is empty_content", async () => {
    const error = await page("empty-shell.html", "https://app.example/").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractError);
    expect((error as ExtractError).code).toBe("empty_content");
  });

  test("a bare page with a line of text falls back to the body text", async () => {
    const body = new TextEncoder().encode("<html><body><div>Back in five minutes.</div></body></html>");
    const r = await extract({ body, contentType: "text/html", url: "https://status.example/" });
    expect(r.markdown).toBe("Back in five minutes.");
    expect(r.wordCount).toBe(4);
    expect(r.siteName).toBe("status.example");
  });

  test("XHTML with an ISO-8859-1 XML prolog is decoded and read", async () => {
    const xhtml = `<?xml version="1.0" encoding="ISO-8859-1"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="de"><head><title>\xdcber uns</title></head><body><h1>\xdcber uns</h1><p>Wir sind ein kleines Team aus K\xf6ln, das seit zwanzig Jahren Software f\xfcr Bibliotheken baut.</p></body></html>`;
    const body = Uint8Array.from(xhtml, (c) => c.charCodeAt(0));
    const r = await extract({ body, contentType: "application/xhtml+xml", url: "https://team.example.de/ueber" });
    expect(r.title).toBe("Über uns");
    expect(r.language).toBe("de");
    expect(r.markdown).toContain("ein kleines Team aus Köln");
  });

  test("the excerpt is at most 300 characters", async () => {
    const long = "word ".repeat(200);
    const html = `<html><head><meta name="description" content="${long}"></head><body><p>${"Some readable text in a paragraph. ".repeat(20)}</p></body></html>`;
    const r = await extract({
      body: new TextEncoder().encode(html),
      contentType: "text/html",
      url: "https://x.example/",
    });
    expect(r.excerpt!.length).toBeLessThanOrEqual(300);
    expect(r.excerpt).toEndWith("…");
  });
});
