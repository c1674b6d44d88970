// Format detection and parsing of each hand-written fixture, without the database.
import { describe, expect, test } from "bun:test";
import { DEFAULT_PARSE_LIMITS, detectFormat, parseImport, type ImportItem } from "./index.ts";
import { readSavedAt } from "../dates.ts";
import { checkImportUrl } from "../url-check.ts";

const file = (name: string) => Bun.file(new URL(`../../../../test/fixtures/imports/${name}`, import.meta.url)).bytes();
const links = (items: ImportItem[]) => items.filter((i) => i.kind === "link");

describe("detection", () => {
  test.each([
    ["chrome-bookmarks.html", "netscape"],
    ["firefox-bookmarks.html", "netscape"],
    ["pocket.csv", "pocket_csv"],
    ["pocket-export.html", "pocket_html"],
    ["karakeep.json", "karakeep"],
    ["feeds.opml", "opml"],
    ["urls.txt", "urls"],
  ])("%s is %s", async (name, format) => {
    expect(detectFormat(await file(name))).toBe(format as never);
  });
});

describe("parsing", () => {
  test("Firefox: descriptions (<DD>) are not links, place: queries are entries that will be refused, tags kept", async () => {
    const items = await parseImport("netscape", await file("firefox-bookmarks.html"), DEFAULT_PARSE_LIMITS);
    expect(links(items).map((l) => l.url)).toEqual([
      "https://example.com/tarte-tatin",
      "place:sort=8&maxResults=10",
      "https://example.org/Ünïcode/path",
    ]);
    expect(links(items)[0]).toMatchObject({
      title: "Tarte Tatin – la vraie",
      tags: ["dessert", "français"],
      notebooks: ["Recettes"],
      savedAt: "1690000010",
    });
    expect(links(items)[1]!.notebooks).toEqual([]);
    expect(checkImportUrl("place:sort=8&maxResults=10", null)).toMatchObject({ ok: false });
  });

  test("OPML: folders are skipped, each xmlUrl is a feed with its title", async () => {
    const items = await parseImport("opml", await file("feeds.opml"), DEFAULT_PARSE_LIMITS);
    expect(items).toEqual([
      { kind: "feed", line: 6, url: "https://example.com/feed.xml", title: "Example blog" },
      { kind: "feed", line: 7, url: "https://example.org/atom.xml", title: "Ünïcode feed" },
      { kind: "feed", line: 9, url: "https://example.net/rss", title: "Top level" },
    ]);
  });

  test("saved dates: seconds, milliseconds, microseconds, ISO strings; zero, garbage and the future are problems", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(readSavedAt("1600000000", now)).toEqual({ ms: 1600000000000 });
    expect(readSavedAt(1600000000123, now)).toEqual({ ms: 1600000000123 });
    expect(readSavedAt("1600000000123456", now)).toEqual({ ms: 1600000000123 });
    expect(readSavedAt("2023-03-14T09:26:53.000Z", now)).toEqual({ ms: Date.UTC(2023, 2, 14, 9, 26, 53) });
    expect(readSavedAt(undefined, now)).toBeNull();
    for (const bad of ["0", "yesterday", String(now / 1000 + 7 * 86400)])
      expect(readSavedAt(bad, now)).toHaveProperty("error");
  });
});
