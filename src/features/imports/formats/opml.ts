// OPML subscription lists from feed readers: each <outline xmlUrl="…"> is a feed to watch.
import { attributes } from "./html-text.ts";
import { ImportFormatError, type ImportItem } from "./types.ts";

export function parseOpml(text: string): ImportItem[] {
  if (!/<opml\b/i.test(text)) throw new ImportFormatError("an OPML file starts with an <opml> element");
  const items: ImportItem[] = [];
  let line = 1;
  let last = 0;
  for (const m of text.matchAll(/<outline\b([^>]*)>/gi)) {
    for (let k = last; k < m.index; k++) if (text.charCodeAt(k) === 10) line++;
    last = m.index;
    const a = attributes(m[1] ?? "");
    if (!a["xmlurl"]) continue; // a folder
    items.push({ kind: "feed", line, url: a["xmlurl"], title: a["title"] || a["text"] || undefined });
  }
  return items;
}
