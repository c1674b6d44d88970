// Feed parsing into one entry shape, channel-URL resolution and feed discovery: pure functions.
import { describe, expect, test } from "bun:test";
import { advertisedFeed, advertisedFeeds, looksLikeFeed, looksLikeHtml } from "./discover.ts";
import { cleanTitle, FeedFormatError, FeedRefusedError, MAX_ENTRIES, newestFirst, parseFeedText } from "./parse.ts";
import { expectLinearGrowth } from "../../../test/linear.ts";
import { atom, jsonFeed, rdf, rss, videoFeed } from "./testing.ts";
import { videoFeedUrl, videoWatchUrl, YOUTUBE } from "./video.ts";

const BASE = "https://news.example/feed.xml";
const items = [
  { id: "a1", title: "First & foremost", date: "2024-03-01T10:00:00Z" },
  { id: "a2", title: "Second", date: "2024-03-02T10:00:00Z" },
];

describe("formats", () => {
  test("RSS 2.0: guid, link, title, date and <ttl>", () => {
    const f = parseFeedText(rss(items, { title: "Example News", ttl: 90 }), BASE);
    expect(f).toMatchObject({ format: "rss", title: "Example News", ttlMs: 90 * 60_000 });
    expect(f.entries[0]).toEqual({
      keys: ["g:a1", "l:https://news.example/a1"],
      url: "https://news.example/a1",
      title: "First & foremost",
      publishedAt: Date.parse("2024-03-01T10:00:00Z"),
    });
  });

  test("Atom 1.0: id and the alternate link; HTML titles become text", () => {
    const f = parseFeedText(
      atom([{ id: "x", title: "<b>Bold</b> &amp; brave", link: "/posts/x" }]),
      "https://blog.example/atom",
    );
    expect(f.format).toBe("atom");
    expect(f.title).toBe("Example Blog");
    expect(f.entries[0]).toMatchObject({
      keys: ["g:urn:example:x", "l:https://blog.example/posts/x"],
      url: "https://blog.example/posts/x",
      title: "Bold & brave",
    });
  });

  test("RDF (RSS 1.0)", () => {
    const f = parseFeedText(rdf([{ id: "r1", title: "Resource one" }]), BASE);
    expect(f.format).toBe("rdf");
    expect(f.entries[0]).toMatchObject({ url: "https://rdf.example/r1", title: "Resource one" });
    expect(f.entries[0]!.keys).toContain("l:https://rdf.example/r1");
  });

  test("JSON Feed 1.1", () => {
    const f = parseFeedText(
      jsonFeed([{ id: "j1", title: "Json one", date: "2024-05-05T00:00:00Z" }], { title: "J" }),
      BASE,
    );
    expect(f).toMatchObject({ format: "json", title: "J", ttlMs: null });
    expect(f.entries[0]).toMatchObject({
      keys: ["g:j1", "l:https://json.example/j1"],
      url: "https://json.example/j1",
      publishedAt: Date.parse("2024-05-05T00:00:00Z"),
    });
  });

  test("a YouTube-shaped channel feed: entries are keyed by video id", () => {
    const origin = "https://www.youtube.com";
    const f = parseFeedText(
      videoFeed(origin, "UCabcdefghijklmnopqrstuv", [{ id: "dQw4w9WgXcQ", title: "A video" }]),
      `${origin}/feeds/videos.xml`,
    );
    expect(f.entries[0]).toMatchObject({ url: `${origin}/watch?v=dQw4w9WgXcQ`, title: "A video" });
    expect(f.entries[0]!.keys[0]).toBe("y:dQw4w9WgXcQ");
  });

  test("an entry with neither guid nor link is known by a hash of its content", () => {
    const f = parseFeedText(rss([{ id: "n", title: "No link", link: null }], { guids: false }), BASE);
    expect(f.entries[0]!.url).toBeNull();
    expect(f.entries[0]!.keys).toHaveLength(1);
    expect(f.entries[0]!.keys[0]).toMatch(/^h:[0-9a-f]{32}$/);
    const again = parseFeedText(rss([{ id: "n", title: "No link", link: null }], { guids: false }), BASE);
    expect(again.entries[0]!.keys).toEqual(f.entries[0]!.keys);
    const edited = parseFeedText(
      rss([{ id: "n", title: "No link", link: null, content: "changed" }], { guids: false }),
      BASE,
    );
    expect(edited.entries[0]!.keys).not.toEqual(f.entries[0]!.keys);
  });

  test("a permalink guid stands in for a missing link; javascript: links are not sources", () => {
    const doc =
      `<rss version="2.0"><channel><title>T</title><item><title>P</title><guid>https://news.example/p</guid></item>` +
      `<item><title>J</title><link>javascript:alert(1)</link><guid isPermaLink="false">j</guid></item></channel></rss>`;
    const [p, j] = parseFeedText(doc, BASE).entries;
    expect(p!.url).toBe("https://news.example/p");
    expect(j!.url).toBeNull();
    expect(j!.keys).toEqual(["g:j"]);
  });
});

describe("documents that are not feeds", () => {
  test.each([
    ["malformed XML", `<rss version="2.0"><channel><title>T</title><item><title>Cut off</tit`],
    ["an HTML page", "<!doctype html><html><body>hello</body></html>"],
    ["plain text", "hello"],
    ["unrelated JSON", `{"hello":"world"}`],
    [
      "a DTD declaring entities (no expansion, no external files)",
      `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY x SYSTEM "file:///etc/passwd">]>` +
        `<rss version="2.0"><channel><title>&b;</title><item><title>&x;</title><link>https://x.example/1</link></item></channel></rss>`,
    ],
  ])("%s throws FeedFormatError", (_name, doc) => {
    expect(() => parseFeedText(doc, BASE)).toThrow(FeedFormatError);
  });
});

const LAUGHS =
  `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
  `<!ENTITY lol9 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>` +
  `<rss version="2.0"><channel><title>&lol9;</title><item><title>A</title><link>https://x.example/1</link></item></channel></rss>`;

describe("entity declarations are refused, never expanded nor read as text", () => {
  test.each([
    ["the billion laughs", LAUGHS],
    [
      "an internal subset after a public id",
      `<!DOCTYPE rss PUBLIC "-//x//EN" "http://x.example/a[1].dtd" [<!ATTLIST rss a CDATA "b">]><rss version="2.0"><channel><title>T</title></channel></rss>`,
    ],
    [
      "a stray <!ENTITY> in the body",
      `<rss version="2.0"><channel><title>T</title><!ENTITY x "y"><item><title>&x;</title><link>https://x.example/1</link></item></channel></rss>`,
    ],
    [
      "an internal subset in lower case",
      `<!doctype rss [ <!entity e "x"> ]><rss version="2.0"><channel><title>&e;</title></channel></rss>`,
    ],
  ])("%s", (_name, doc) => {
    expect(() => parseFeedText(doc, BASE)).toThrow(FeedRefusedError);
  });

  test("markup quoted in CDATA or comments, and JSON text, are not declarations", () => {
    const cdata =
      `<rss version="2.0"><channel><title>XML tips</title><!-- <!DOCTYPE x [ ]> --><item><title>On DTDs</title>` +
      `<link>https://x.example/1</link><description><![CDATA[Write <!ENTITY a "b"> in a <!DOCTYPE x [ ]>]]></description></item></channel></rss>`;
    expect(parseFeedText(cdata, BASE).entries[0]!.title).toBe("On DTDs");
    const json = jsonFeed([{ id: "j", title: '<!DOCTYPE x [<!ENTITY a "b">]>' }]);
    expect(parseFeedText(json, BASE).entries).toHaveLength(1);
  });
});

test("an old RSS 0.91 feed with a public DOCTYPE still reads", () => {
  const doc =
    `<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">` +
    `<rss version="0.91"><channel><title>Old &amp; good</title><item><title>A</title><link>https://x.example/1</link></item></channel></rss>`;
  expect(parseFeedText(doc, BASE)).toMatchObject({
    format: "rss",
    title: "Old & good",
    entries: [{ url: "https://x.example/1", title: "A" }],
  });
});

test("titles: tags stripped, entities decoded, whitespace collapsed, long ones cut", () => {
  expect(cleanTitle("  <i>Hello</i>\n  &lt;world&gt; &#x2603; &#9731; ")).toBe("Hello <world> ☃ ☃");
  expect(cleanTitle("   ")).toBeNull();
  expect(cleanTitle("x".repeat(900))!.length).toBe(500);
});

test("newestFirst orders by date and keeps document order without dates", () => {
  const f = parseFeedText(rss(items), BASE);
  expect(newestFirst(f.entries).map((e) => e.title)).toEqual(["Second", "First & foremost"]);
  const undated = parseFeedText(
    rss([
      { id: "1", title: "one" },
      { id: "2", title: "two" },
    ]),
    BASE,
  );
  expect(newestFirst(undated.entries).map((e) => e.title)).toEqual(["one", "two"]);
});

describe("the entry cap", () => {
  const dated = (n: number) => ({
    id: `p${n}`,
    title: `Post ${n}`,
    date: new Date(Date.UTC(2020, 0, 1) + n * 3_600_000).toISOString(),
  });

  test("a feed listed oldest first keeps its newest entries, in document order", () => {
    const oldestFirst = Array.from({ length: MAX_ENTRIES + 200 }, (_, n) => dated(n));
    const f = parseFeedText(rss(oldestFirst), BASE);
    expect(f.entries).toHaveLength(MAX_ENTRIES);
    expect(f.entries[0]!.title).toBe("Post 200");
    expect(f.entries.at(-1)!.title).toBe(`Post ${MAX_ENTRIES + 199}`);
  });

  test("undated entries are kept by their place in the document", () => {
    const undated = Array.from({ length: MAX_ENTRIES + 5 }, (_, n) => ({ id: `u${n}`, title: `U ${n}` }));
    const f = parseFeedText(rss(undated), BASE);
    expect(f.entries.map((e) => e.title)).toEqual(undated.slice(0, MAX_ENTRIES).map((u) => u.title));
  });
});

describe("video channels", () => {
  test("a channel URL resolves to its feed; a playlist too; other URLs do not", () => {
    const id = "UC_x5XG1OV2P6uZZ5FSM9Ttw";
    expect(videoFeedUrl(`https://www.youtube.com/channel/${id}`)).toBe(
      `https://www.youtube.com/feeds/videos.xml?channel_id=${id}`,
    );
    expect(videoFeedUrl(`https://youtube.com/channel/${id}/videos`)).toBe(
      `https://www.youtube.com/feeds/videos.xml?channel_id=${id}`,
    );
    expect(videoFeedUrl("https://www.youtube.com/playlist?list=PLBCF2DAC6FFB574DE")).toBe(
      "https://www.youtube.com/feeds/videos.xml?playlist_id=PLBCF2DAC6FFB574DE",
    );
    expect(videoFeedUrl("https://www.youtube.com/channel/not-a-channel")).toBeNull();
    expect(videoFeedUrl(`https://evil.example/channel/${id}`)).toBeNull();
    expect(videoFeedUrl("https://www.youtube.com/@somehandle")).toBeNull();
    expect(videoFeedUrl("not a url")).toBeNull();
  });

  test("the site is injectable (tests point it at a local server)", () => {
    const site = { hosts: ["127.0.0.1:8080"], origin: "http://127.0.0.1:8080" };
    expect(videoFeedUrl("http://127.0.0.1:8080/channel/UCabcdefghijklmnopqrstuv", site)).toBe(
      "http://127.0.0.1:8080/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv",
    );
    expect(videoFeedUrl("https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv", site)).toBeNull();
    expect(videoWatchUrl("abc", YOUTUBE)).toBe("https://www.youtube.com/watch?v=abc");
  });
});

describe("discovery", () => {
  const page = (links: string) =>
    `<!DOCTYPE html><html><head><title>Blog</title>${links}</head><body><p>Hi</p></body></html>`;

  test("finds the advertised feed, resolved against the page", () => {
    expect(
      advertisedFeed(
        page(`<link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.xml">`),
        "https://blog.example/posts/",
      ),
    ).toBe("https://blog.example/feed.xml");
    expect(
      advertisedFeed(
        page(
          `<link rel="stylesheet" href="/s.css"><link rel="alternate" type="application/feed+json" href="feed.json">`,
        ),
        "https://blog.example/posts/",
      ),
    ).toBe("https://blog.example/posts/feed.json");
  });

  test("prefers Atom over RSS, ignores other alternates and non-http links", () => {
    const links =
      `<link rel="alternate" hreflang="fr" href="/fr/"><link rel="alternate" type="application/rss+xml" href="/rss">` +
      `<link rel="alternate" type="application/atom+xml" href="/atom">`;
    expect(advertisedFeed(page(links), "https://blog.example/")).toBe("https://blog.example/atom");
    expect(
      advertisedFeed(
        page(`<link rel="alternate" type="application/rss+xml" href="javascript:x">`),
        "https://blog.example/",
      ),
    ).toBeNull();
    expect(advertisedFeed(page(""), "https://blog.example/")).toBeNull();
  });

  test("lists every advertised feed: titles, entities, <base href>, quoted '>', unquoted values; not in scripts or comments", () => {
    const head =
      `<base href="https://cdn.example/site/"><!-- <link rel="alternate" type="application/rss+xml" href="/commented"> -->` +
      `<script>var s = '<link rel="alternate" type="application/rss+xml" href="/scripted">';</script>` +
      `<LINK REL="Alternate home" TYPE="application/RSS+XML; charset=utf-8" title="Posts &gt; all" href=rss.xml>` +
      `<link rel=alternate type=application/json href="/wp-json/wp/v2/pages/1">` +
      `<link href="feed.json" type="application/feed+json" rel="alternate" title='A "JSON" > feed'>`;
    expect(advertisedFeeds(page(head), "https://blog.example/")).toEqual([
      { url: "https://cdn.example/site/rss.xml", title: "Posts > all", kind: "rss", type: "application/rss+xml" },
      {
        url: "https://cdn.example/site/feed.json",
        title: 'A "JSON" > feed',
        kind: "json",
        type: "application/feed+json",
      },
    ]);
    // Links after the head are not the page's feeds; plain JSON counts only when nothing else is offered.
    expect(
      advertisedFeeds(
        `<html><head></head><body><link rel="alternate" type="application/rss+xml" href="/x">`,
        "https://b.example/",
      ),
    ).toEqual([]);
    expect(advertisedFeed(page(`<link rel="alternate" type="application/json" href="/j">`), "https://b.example/")).toBe(
      "https://b.example/j",
    );
  });

  test("hostile pages cost time linear in their size", () => {
    // Each case at 1/8 and at full size (2 MB): the cost may grow eightfold, not quadratically.
    const cases = [
      (n: number) => `<link rel="alternate" title="${"x".repeat(250_000 * n)}`,
      (n: number) => "<".repeat(250_000 * n),
      (n: number) => `<link ${"a=".repeat(62_500 * n)}`,
      (n: number) => `<script>${"</scrip".repeat(37_500 * n)}`,
      (n: number) => `<!--${"-".repeat(250_000 * n)}`,
      (n: number) => `<link rel="alternate" type="application/rss+xml" href="/f">`.repeat(5_000 * n),
    ];
    for (const page of cases) {
      expectLinearGrowth((n) => {
        const html = page(n);
        return () => advertisedFeeds(html, "https://blog.example/");
      });
      expect(advertisedFeeds(page(8), "https://blog.example/").length).toBeLessThanOrEqual(1);
    }
  }, 30_000);

  test("tells pages from feeds", () => {
    expect(looksLikeHtml("text/html", "")).toBe(true);
    expect(looksLikeHtml("text/plain", "  <!DOCTYPE html><html>")).toBe(true);
    expect(looksLikeHtml("application/xml", rss(items))).toBe(false);
    expect(looksLikeFeed("text/plain", `\uFEFF  ${rss(items)}`)).toBe(true);
    expect(
      looksLikeFeed("application/octet-stream", '{"version": "https://jsonfeed.org/version/1.1", "items": []}'),
    ).toBe(true);
    expect(looksLikeFeed("text/plain", "just words")).toBe(false);
    expect(looksLikeFeed("application/json", '{"posts": []}')).toBe(true);
  });
});
