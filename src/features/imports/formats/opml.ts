// OPML subscription lists from feed readers: each <outline xmlUrl="…"> is a feed to watch. The same
// feed listed twice (in two folders, say) is one entry: the first, with its line.
import { attributes, lineCounter, scanMarkup } from "./markup.ts";
import { entryCounter, ImportFormatError, type ImportItem, type ParseLimits } from "./types.ts";

export function parseOpml(text: string, limits: ParseLimits): ImportItem[] {
  if (!/<opml\b/i.test(text.slice(0, 64 * 1024)))
    throw new ImportFormatError("an OPML file starts with an <opml> element");
  const items: ImportItem[] = [];
  const entry = entryCounter(limits);
  const lineAt = lineCounter(text);
  const seen = new Set<string>();
  scanMarkup(text, {
    text() {},
    tag(name, closing, at, rawStart, rawEnd) {
      if (closing || name !== "outline") return;
      const a = attributes(text.slice(rawStart, rawEnd));
      const url = a["xmlurl"]?.trim();
      if (!url) return; // a folder
      const key = canonical(url);
      if (seen.has(key)) return;
      seen.add(key);
      entry();
      items.push({ kind: "feed", line: lineAt(at), url, title: a["title"] || a["text"] || undefined });
    },
  });
  return items;
}

function canonical(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
