// Small helpers for the HTML-ish export formats: attribute reading and entity decoding.
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

/** Attributes of one start tag's text (`<A HREF="…" ADD_DATE=…>`), names lower-cased. */
export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g;
  for (const m of tag.matchAll(re)) out[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  return out;
}

export const stripTags = (s: string) =>
  decodeEntities(s.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();

export function lineAt(text: string, index: number, cache: { i: number; line: number }): number {
  // Walks forward from the last position asked for: callers ask in order, so the whole file is read once.
  for (let k = cache.i; k < index; k++) if (text.charCodeAt(k) === 10) cache.line++;
  cache.i = index;
  return cache.line;
}

export const splitTags = (s: string | undefined, sep: RegExp | string = ",") => [
  ...new Set(
    (s ?? "")
      .split(sep)
      .map((x) => x.trim())
      .filter(Boolean),
  ),
];
