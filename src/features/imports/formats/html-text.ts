// Small helpers for the export formats: entity decoding and tag lists.
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[e.toLowerCase()] ?? m;
  });
}

/** Tags kept of one entry: a TAGS attribute of a million commas must not become a million strings. */
const MAX_TAGS = 100;

export const splitTags = (s: string | undefined, sep: RegExp | string = ",") =>
  [
    ...new Set(
      (s ?? "")
        .split(sep, MAX_TAGS * 10)
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ].slice(0, MAX_TAGS);
