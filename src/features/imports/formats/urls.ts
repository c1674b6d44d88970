// A plain text list of URLs, one a line; blank lines and lines starting with # are skipped. OneTab's
// export (`url | title`) reads as the same list with titles.
import { entryCounter, type ImportItem, type ParseLimits } from "./types.ts";

export function parseUrlList(text: string, limits: ParseLimits): ImportItem[] {
  const items: ImportItem[] = [];
  const entry = entryCounter(limits);
  const s = text.replace(/^\uFEFF/, "");
  let line = 0;
  // Line by line without splitting the whole file first: the entry limit stops a flood of lines early.
  for (let start = 0; start <= s.length; ) {
    let end = s.indexOf("\n", start);
    if (end === -1) end = s.length;
    line++;
    const raw = s.slice(start, end).trim();
    start = end + 1;
    if (!raw || raw.startsWith("#")) continue;
    entry();
    const bar = raw.indexOf(" | ");
    const url = bar === -1 ? raw : raw.slice(0, bar).trim();
    const title =
      bar === -1
        ? undefined
        : raw
            .slice(bar + 3)
            .trim()
            .slice(0, limits.maxTitleLength) || undefined;
    items.push({ kind: "link", line, url, title, tags: [], notebooks: [] });
  }
  return items;
}
