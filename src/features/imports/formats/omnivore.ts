// Omnivore's export zip: `metadata_<from>_to_<to>.json` files (arrays of {id, slug, title, url, labels,
// savedAt, state, …}) and `content/<slug>.html` when the page was saved. Unpacked within a byte budget
// counted from the real inflated bytes, not the sizes the zip claims (a zip bomb lies about those).
import JSZip from "jszip";
import { entryCounter, ImportFormatError, type ImportItem, type ParseLimits } from "./types.ts";

type Json = Record<string, unknown>;

export async function parseOmnivore(bytes: Uint8Array, limits: ParseLimits): Promise<ImportItem[]> {
  const maxUnpackedBytes = limits.maxUnpackedBytes;
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new ImportFormatError("the file is not a readable zip archive");
  }
  let budget = maxUnpackedBytes;
  async function read(file: JSZip.JSZipObject): Promise<string> {
    const chunks: Uint8Array[] = [];
    await new Promise<void>((resolve, reject) => {
      // internalStream is JSZip's public streaming reader; its typings leave it out.
      const stream = (file as unknown as { internalStream(type: "uint8array"): ZipStream }).internalStream(
        "uint8array",
      );
      stream.on("data", (chunk: Uint8Array) => {
        budget -= chunk.byteLength;
        if (budget < 0) {
          stream.pause();
          reject(new ImportFormatError(`the archive unpacks to more than ${maxUnpackedBytes} bytes`));
        } else chunks.push(chunk);
      });
      stream.on("error", (e: Error) => reject(new ImportFormatError(`the archive is damaged: ${e.message}`)));
      stream.on("end", () => resolve());
      stream.resume();
    });
    return new TextDecoder().decode(Buffer.concat(chunks));
  }
  const metaFiles = Object.values(zip.files)
    .filter((f) => !f.dir && /(^|\/)metadata_\d+_to_\d+\.json$/.test(f.name))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  if (metaFiles.length === 0) throw new ImportFormatError("an Omnivore export has metadata_<n>_to_<m>.json files");
  // Saved pages by slug, found once: `content/<slug>.html` at the root or under one folder.
  const pages = new Map<string, JSZip.JSZipObject>();
  for (const f of Object.values(zip.files)) {
    const m = /(?:^|\/)content\/([^/]+)\.html$/.exec(f.name);
    if (!f.dir && m && (!pages.has(m[1]!) || f.name === `content/${m[1]}.html`)) pages.set(m[1]!, f);
  }
  const items: ImportItem[] = [];
  const count = entryCounter(limits);
  let entry = 0;
  for (const f of metaFiles) {
    let list: unknown;
    try {
      list = JSON.parse(await read(f));
    } catch (e) {
      if (e instanceof ImportFormatError) throw e;
      items.push({ kind: "bad", line: entry + 1, reason: `${f.name} is not valid JSON` });
      continue;
    }
    if (!Array.isArray(list)) continue;
    for (const a of list as Json[]) {
      entry++;
      count();
      const url = typeof a?.["url"] === "string" ? a["url"] : undefined;
      if (!url) {
        items.push({ kind: "bad", line: entry, reason: "the entry has no url" });
        continue;
      }
      const slug = typeof a["slug"] === "string" ? a["slug"] : undefined;
      const page = slug ? (zip.file(`content/${slug}.html`) ?? pages.get(slug)) : undefined;
      const html = page ? await read(page) : undefined;
      const labels = Array.isArray(a["labels"])
        ? (a["labels"] as unknown[])
            .map((l) =>
              typeof l === "string"
                ? l
                : typeof (l as Json)?.["name"] === "string"
                  ? ((l as Json)["name"] as string)
                  : "",
            )
            .filter(Boolean)
        : [];
      items.push({
        kind: "link",
        line: entry,
        url,
        title: typeof a["title"] === "string" && a["title"] ? a["title"].slice(0, limits.maxTitleLength) : undefined,
        savedAt: typeof a["savedAt"] === "string" ? a["savedAt"] : undefined,
        tags: [...new Set(labels.map((l) => l.trim()).filter(Boolean))],
        notebooks: [],
        archived: a["state"] === "Archived",
        content: html?.trim() ? { type: "html", text: html } : undefined,
      });
    }
  }
  return items;
}

interface ZipStream {
  on(event: "data", cb: (chunk: Uint8Array) => void): ZipStream;
  on(event: "error", cb: (e: Error) => void): ZipStream;
  on(event: "end", cb: () => void): ZipStream;
  pause(): void;
  resume(): void;
}
