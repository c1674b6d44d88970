// Hostile import files: every parser reads them in one pass with its limits checked while it reads,
// and the parsing thread stops whatever still runs too long or grows too large.
import { afterAll, describe, expect, test } from "bun:test";
import {
  deepFolders,
  lineFlood,
  omnivoreFallback,
  unclosedA,
  unclosedH3,
  unclosedH3Flat,
  unclosedOutlines,
  commaRow,
} from "../../../../test/fixtures/imports/hostile.ts";
import { DEFAULT_PARSE_LIMITS, ImportFormatError, parseImport, type ImportItem, type ParseLimits } from "./index.ts";
import { createImportParser } from "./parser.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const limits = (l: Partial<ParseLimits> = {}): ParseLimits => ({ ...DEFAULT_PARSE_LIMITS, ...l });
const links = (items: ImportItem[]) => items.filter((i) => i.kind === "link");
const failure = (p: Promise<unknown>) =>
  p.then(
    () => "parsed",
    (e: unknown) => (e instanceof ImportFormatError ? e.message : `not an ImportFormatError: ${e}`),
  );
const MB = 1024 * 1024;

describe("Netscape bookmarks", () => {
  test("an unclosed <H3> names its folder up to the next tag, not with the rest of the file", async () => {
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><DT><H3>Recipes<DL><DT><A HREF="https://example.com/tart">Tart</A></DL><DT><H3>Travel</H3><DL></DL></DL>`;
    const items = await parseImport("netscape", enc(file), limits());
    expect(items.filter((i) => i.kind === "notebook").map((i) => (i as { name: string }).name)).toEqual([
      "Recipes",
      "Travel",
    ]);
    expect(links(items)).toMatchObject([{ url: "https://example.com/tart", title: "Tart", notebooks: ["Recipes"] }]);
  });

  test("an unclosed <A> takes its title up to the next entry, not the next </A>", async () => {
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><DT><A HREF="https://example.com/1">One\n<DT><A HREF="https://example.com/2">Two</A>\n</DL>`;
    const items = links(await parseImport("netscape", enc(file), limits()));
    expect(items.map((l) => [l.url, l.title, l.line])).toEqual([
      ["https://example.com/1", "One", 2],
      ["https://example.com/2", "Two", 3],
    ]);
  });

  test("the issue's 12.6 KB file of unclosed folders is refused at the depth limit", async () => {
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL>${"<H3>a<DL>".repeat(1400)}`;
    expect(await failure(parseImport("netscape", enc(file), limits()))).toBe(
      "folders are nested more than 64 deep (line 2)",
    );
  });

  test("folders nested 12,000 deep are refused; 64 deep are read, their full names bounded", async () => {
    expect(await failure(parseImport("netscape", enc(deepFolders(12_000)), limits()))).toStartWith(
      "folders are nested more than 64 deep",
    );
    const items = await parseImport("netscape", enc(deepFolders(63)), limits());
    const names = items.filter((i) => i.kind === "notebook").map((i) => (i as { name: string }).name);
    expect(names).toHaveLength(63);
    expect(names[1]).toBe("f / f");
    expect(Math.max(...names.map((n) => n.length))).toBeLessThanOrEqual(200);
    expect(links(items)[0]!.notebooks[0]!.length).toBeLessThanOrEqual(200);
  });

  test("a long name or title is cut at its bound however much text follows", async () => {
    const long = "x".repeat(300_000);
    const file = `<DL><DT><H3>${long}</H3><DL><DT><A HREF="https://example.com/a">${long}</A></DL></DL>`;
    const items = await parseImport("netscape", enc(file), limits());
    expect((items[0] as { name: string }).name).toHaveLength(200);
    expect(links(items)[0]!.title).toHaveLength(500);
  });

  test("megabytes of unclosed <A> and <H3> are read in one pass and stop at the entry and folder limits", async () => {
    // Before, each link searched the rest of the file for </a>: 4 MB would take hours.
    expect(await failure(parseImport("netscape", enc(unclosedA(4 * MB)), limits()))).toBe(
      "the file has more than 100000 entries; one import takes at most 100000",
    );
    expect(await failure(parseImport("netscape", enc(unclosedH3(4 * MB)), limits()))).toBe(
      "folders are nested more than 64 deep (line 2)",
    );
    expect(await failure(parseImport("netscape", enc(unclosedH3Flat(4 * MB)), limits({ maxFolders: 1000 })))).toBe(
      "the file has more than 1000 folders",
    );
    const items = await parseImport("netscape", enc(unclosedA(38 * 5000)), limits());
    expect(links(items)).toHaveLength(5000);
    expect(links(items).every((l) => l.title === "t")).toBe(true);
  });

  test("the entry limit is enforced while reading, whatever the format", async () => {
    const few = limits({ maxItems: 10 });
    const message = "the file has more than 10 entries; one import takes at most 10";
    expect(await failure(parseImport("netscape", enc(unclosedA(38 * 11)), few))).toBe(message);
    expect(await failure(parseImport("urls", enc(lineFlood(4 * 11)), few))).toBe(message);
    expect(await failure(parseImport("pocket_csv", enc(`url\n${"https://e.com/x\n".repeat(11)}`), few))).toBe(message);
    const opml = `<opml><body>${Array.from({ length: 11 }, (_, i) => `<outline xmlUrl="https://e.com/${i}.xml"/>`).join("")}</body></opml>`;
    expect(await failure(parseImport("opml", enc(opml), few))).toBe(message);
    expect(
      await failure(
        parseImport(
          "karakeep",
          enc(JSON.stringify({ bookmarks: Array(11).fill({ content: { type: "text", text: "x" } }) })),
          few,
        ),
      ),
    ).toBe(message);
  });
});

describe("other formats", () => {
  test("OPML outlines never closed and a CSV row of only commas are read in one pass", async () => {
    expect(await parseImport("opml", enc(unclosedOutlines(4 * MB)), limits())).toEqual([]);
    const rows = await parseImport("pocket_csv", enc(commaRow(4 * MB)), limits());
    expect(rows).toEqual([{ kind: "bad", line: 2, reason: "the row has no url" }]);
  });

  test("OPML: the same feed listed twice is one entry", async () => {
    const opml = `<opml><body><outline text="A"><outline xmlUrl="https://e.com/f.xml" title="F"/></outline><outline xmlUrl="https://e.com/f.xml"/><outline xmlUrl="https://E.com/f.xml"/><outline xmlUrl="https://e.com/g.xml"/></body></opml>`;
    const items = await parseImport("opml", enc(opml), limits());
    expect(items.map((i) => (i as { url: string }).url)).toEqual(["https://e.com/f.xml", "https://e.com/g.xml"]);
  });

  test("Omnivore: pages kept under a folder are found without scanning the archive for each entry", async () => {
    // 12,000 entries: the scan per entry made this about 10^8 name tests.
    const items = await parseImport("omnivore", await omnivoreFallback(12_000), limits());
    expect(items).toHaveLength(12_000);
    expect(links(items).every((l, i) => l.content?.text === `<p>${i}</p>`)).toBe(true);
  }, 30_000);
});

describe("the parsing thread", () => {
  const parser = createImportParser({ timeoutMs: 10_000, maxMemoryMb: 0 });
  afterAll(() => parser.close());

  test("gives what parsing in place gives, and keeps the reason a file is refused", async () => {
    const text = unclosedA(38 * 300);
    const parsed = await parser.parse("netscape", enc(text), limits());
    expect(parsed.items).toEqual(await parseImport("netscape", enc(text), limits()));
    // The file comes back hashed and compressed for keeping; its stored form reads the same (a resume).
    expect(parsed.sha256).toBe(new Bun.CryptoHasher("sha256").update(text).digest("hex"));
    expect(parsed.stored.byteLength).toBeLessThan(text.length / 10);
    expect(new TextDecoder().decode(Bun.gunzipSync(parsed.stored as Uint8Array<ArrayBuffer>))).toBe(text);
    const resumed = await parser.parse("netscape", parsed.stored.slice(), limits());
    expect(resumed.items).toEqual(parsed.items);
    expect(resumed.sha256).toBe(parsed.sha256);
    const refused = await parser.parse("netscape", enc(deepFolders(100)), limits()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ImportFormatError);
    expect((refused as Error).message).toStartWith("folders are nested more than 64 deep");
  });

  test("a file that runs past the time bound is stopped, and the server's thread turns meanwhile", async () => {
    const stuck = createImportParser({
      timeoutMs: 300,
      maxMemoryMb: 0,
      workerUrl: new URL("../../../../test/fixtures/imports/stuck-worker.ts", import.meta.url),
    });
    let turns = 0;
    const tick = setInterval(() => turns++, 10);
    try {
      const err = await stuck.parse("netscape" as never, enc("x"), limits()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportFormatError);
      expect((err as Error).message).toBe(
        "reading the file took longer than 0.3 s and was stopped (IMPORT_PARSE_TIMEOUT_MS)",
      );
      expect(turns).toBeGreaterThan(0);
    } finally {
      clearInterval(tick);
      await stuck.close();
    }
  });

  test("a file that grows memory past the bound is stopped", async () => {
    const stuck = createImportParser({
      timeoutMs: 20_000,
      maxMemoryMb: 64,
      workerUrl: new URL("../../../../test/fixtures/imports/stuck-worker.ts", import.meta.url),
    });
    try {
      const err = await stuck.parse("grow" as never, enc("x"), limits()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportFormatError);
      expect((err as Error).message).toBe(
        "reading the file needed more than 64 MB of memory and was stopped (IMPORT_PARSE_MAX_MEMORY_MB)",
      );
    } finally {
      await stuck.close();
    }
  }, 20_000);
});

describe("the 20 MB version of each case, through the parsing thread", () => {
  const parser = createImportParser({ timeoutMs: 60_000, maxMemoryMb: 0 });
  afterAll(() => parser.close());
  const FULL = 20 * MB - 4096;

  test.each([
    ["unclosed <H3>", () => unclosedH3(FULL), "folders are nested more than 64 deep (line 2)"],
    [
      "folders nested as deep as the size allows",
      () => deepFolders(Math.floor(FULL / 23)),
      "folders are nested more than 64 deep (line 2)",
    ],
    ["unclosed <A>", () => unclosedA(FULL), "the file has more than 100000 entries; one import takes at most 100000"],
  ])(
    "%s is refused with its reason",
    async (_name, make, reason) => {
      expect(await failure(parser.parse("netscape", enc(make()), limits({ maxUnpackedBytes: 20 * MB })))).toBe(reason);
    },
    60_000,
  );

  test("an Omnivore export of 20 MB with its pages under a folder is read, every page found", async () => {
    // 20,000 entries with a page of about 800 bytes each: the per-entry scan made this 4·10^8 name tests.
    const zip = await omnivoreFallback(20_000, 760);
    expect(zip.byteLength).toBeGreaterThan(19 * MB);
    expect(zip.byteLength).toBeLessThan(20 * MB);
    const { items } = await parser.parse("omnivore", zip, limits({ maxUnpackedBytes: 40 * MB }));
    expect(items).toHaveLength(20_000);
    expect(links(items).every((l) => l.content?.text.startsWith("<p>"))).toBe(true);
  }, 60_000);
});
