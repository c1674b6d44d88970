// A plain text list of URLs, one a line; blank lines and lines starting with # are skipped. OneTab's
// export (`url | title`) reads as the same list with titles.
import type { ImportItem } from "./types.ts";

export function parseUrlList(text: string): ImportItem[] {
  const items: ImportItem[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const s = raw.trim();
      if (!s || s.startsWith("#")) return;
      const bar = s.indexOf(" | ");
      const url = bar === -1 ? s : s.slice(0, bar).trim();
      const title = bar === -1 ? undefined : s.slice(bar + 3).trim() || undefined;
      items.push({ kind: "link", line: i + 1, url, title, tags: [], notebooks: [] });
    });
  return items;
}
