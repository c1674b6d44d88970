// The streaming ZIP writer: archives that jszip and Info-ZIP's unzip read back, ZIP64 past 65,535
// entries, and entries pulled only as the reader asks for bytes.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import JSZip from "jszip";
import { zipStream, type ZipEntry } from "./zip-writer.ts";

const dir = mkdtempSync(join(tmpdir(), "cp-zip-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (stream: ReadableStream<Uint8Array>) =>
  new Response(stream).arrayBuffer().then((b) => new Uint8Array(b));

/** Info-ZIP's own integrity test, when the machine has it. */
async function unzipTest(zip: Uint8Array, name: string): Promise<{ code: number; out: string } | null> {
  if (!Bun.which("unzip")) return null;
  const file = join(dir, name);
  writeFileSync(file, zip);
  const proc = Bun.spawn(["unzip", "-t", file], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, out: out + err };
}

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

describe("zipStream", () => {
  test("entries read back byte for byte: deflated text, stored random bytes, empty and UTF-8 names", async () => {
    const noise = random(4096);
    const entries: ZipEntry[] = [
      { name: "index.md", data: `# Index\n\n${"- [a line](sources/a.md)\n".repeat(500)}` },
      { name: "sources/noise.bin", data: noise },
      { name: "notes/empty.md", data: "" },
      { name: "notes/crème brûlée.md", data: "Ünïcode text ✓\n" },
    ];
    const zip = await bytesOf(zipStream(entries.values(), { modified: new Date(2024, 2, 5, 9, 30, 14) }));
    const read = await JSZip.loadAsync(zip);
    // A directory entry precedes the first file of each folder, as jszip and zip tools write them.
    expect(Object.keys(read.files)).toEqual([
      "index.md",
      "sources/",
      "sources/noise.bin",
      "notes/",
      "notes/empty.md",
      "notes/crème brûlée.md",
    ]);
    expect(read.files["sources/"]!.dir).toBe(true);
    for (const e of entries) {
      const got = await read.file(e.name)!.async("uint8array");
      expect(got).toEqual(typeof e.data === "string" ? new TextEncoder().encode(e.data) : e.data);
    }
    expect(read.file("index.md")!.date.getMinutes()).toBe(30);
    // The text was deflated (much smaller than 12 kB), the random bytes stored rather than grown.
    expect(zip.length).toBeLessThan(4096 + 2000);
    const checked = await unzipTest(zip, "small.zip");
    if (checked) expect(checked, checked.out).toMatchObject({ code: 0 });
  }, 60_000);

  test("more than 65,535 entries: ZIP64 end records, still readable", async () => {
    const count = 70_000;
    function* many(): Generator<ZipEntry> {
      for (let i = 0; i < count; i++) yield { name: `f/${i}.txt`, data: `${i}` };
    }
    const zip = await bytesOf(zipStream(many(), { level: 0 }));
    const view = new DataView(zip.buffer);
    const eocd = zip.length - 22;
    expect(view.getUint32(eocd, true)).toBe(0x06054b50);
    expect(view.getUint16(eocd + 10, true)).toBe(0xffff);
    expect(view.getUint32(eocd - 20, true)).toBe(0x07064b50); // the ZIP64 locator right before it
    const read = await JSZip.loadAsync(zip);
    expect(Object.keys(read.files)).toHaveLength(count + 1); // and the folder f/
    expect(await read.file("f/69999.txt")!.async("string")).toBe("69999");
    const checked = await unzipTest(zip, "many.zip");
    if (checked) expect(checked.code, checked.out.slice(-500)).toBe(0);
  }, 60_000);

  test("entries are pulled only as the reader reads, and cancelling stops the source", async () => {
    let made = 0;
    let closed = false;
    function* lazy(): Generator<ZipEntry> {
      try {
        for (let i = 0; i < 1000; i++) {
          made++;
          yield { name: `${i}.md`, data: "x".repeat(10_000) };
        }
      } finally {
        closed = true;
      }
    }
    const reader = zipStream(lazy()).getReader();
    await reader.read();
    expect(made).toBeLessThanOrEqual(2);
    await reader.cancel();
    expect(closed).toBe(true);
    expect(made).toBeLessThanOrEqual(2);
  });
});
