// Format detection and the one entry point that turns an uploaded file into import items.
import { parseCommonplace } from "./commonplace.ts";
import { parseKarakeep } from "./karakeep.ts";
import { parseNetscape } from "./netscape.ts";
import { parseOmnivore } from "./omnivore.ts";
import { parseOpml } from "./opml.ts";
import { parsePocketCsv } from "./pocket-csv.ts";
import { ImportFormatError, type ImportFormat, type ImportItem, type ParseLimits } from "./types.ts";
import { parseUrlList } from "./urls.ts";

export * from "./types.ts";

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && (b[2] === 0x03 || b[2] === 0x05);

function text(bytes: Uint8Array): string {
  try {
    // A text format holding invalid UTF-8 or NUL bytes is a binary file under a text name.
    const s = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    if (s.includes("\u0000")) throw new Error("NUL");
    return s.replace(/^\uFEFF/, "");
  } catch {
    throw new ImportFormatError("the file is not UTF-8 text");
  }
}

function json(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    throw new ImportFormatError("the file is not valid JSON");
  }
}

/** Which format a file is, from its content; null when none fits. */
export function detectFormat(bytes: Uint8Array): ImportFormat | null {
  if (isZip(bytes)) return "omnivore";
  let s: string;
  try {
    s = text(bytes.subarray(0, 64 * 1024)).trimStart();
  } catch {
    // The cut may have split a character: decode leniently for sniffing only.
    s = new TextDecoder().decode(bytes.subarray(0, 64 * 1024)).trimStart();
    if (s.includes("\u0000")) return null;
  }
  const head = s.slice(0, 4096).toLowerCase();
  if (s.startsWith("{"))
    return head.includes('"commonplace-export"') ? "commonplace" : head.includes('"bookmarks"') ? "karakeep" : null;
  if (head.includes("<opml")) return "opml";
  if (head.includes("netscape-bookmark-file") || /<dl\b/.test(head)) return "netscape";
  if (/<title>\s*pocket export/.test(head) || (/<ul\b/.test(head) && /time_added=/.test(s))) return "pocket_html";
  const first = s.split(/\r?\n/, 1)[0]!.toLowerCase();
  if (
    first.includes(",") &&
    first
      .split(",")
      .map((c) => c.trim().replace(/"/g, ""))
      .includes("url")
  )
    return "pocket_csv";
  const lines = s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .slice(0, 50);
  if (lines.length > 0 && lines.filter((l) => /^[a-z][a-z0-9+.-]*:\S/i.test(l)).length >= lines.length * 0.8)
    return "urls";
  return null;
}

/**
 * The entries of a file, every parser linear in the file and stopping at `limits`. Servers call it
 * through the parsing thread (parser.ts), which adds the time and memory bounds.
 */
export async function parseImport(format: ImportFormat, bytes: Uint8Array, limits: ParseLimits): Promise<ImportItem[]> {
  switch (format) {
    case "omnivore":
      if (!isZip(bytes)) throw new ImportFormatError("an Omnivore export is a zip archive");
      return parseOmnivore(bytes, limits);
    case "karakeep":
      return parseKarakeep(json(text(bytes)), limits);
    case "commonplace":
      return parseCommonplace(json(text(bytes)), limits);
    case "opml":
      return parseOpml(text(bytes), limits);
    case "pocket_csv":
      return parsePocketCsv(text(bytes), limits);
    case "urls":
      return parseUrlList(text(bytes), limits);
    case "netscape":
    case "pocket_html": {
      const s = text(bytes);
      if (!/<a\b/i.test(s) && !/<dl\b/i.test(s) && !/<ul\b/i.test(s))
        throw new ImportFormatError("the file has no bookmark links (<A HREF>) in it");
      return parseNetscape(s, limits);
    }
  }
}
