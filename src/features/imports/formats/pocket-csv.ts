// Pocket's CSV export (2024–2025): header `title,url,time_added,tags,status`, tags joined by "|",
// status `unread` or `archive`, time_added in epoch seconds.
import { parseCsv } from "./csv.ts";
import { splitTags } from "./html-text.ts";
import { entryCounter, ImportFormatError, type ImportItem, type ParseLimits } from "./types.ts";

export function parsePocketCsv(text: string, limits: ParseLimits): ImportItem[] {
  const rows = parseCsv(text.replace(/^\uFEFF/, ""));
  const header = rows.next();
  const cols = header.done ? [] : header.value.cells.map((c) => c.trim().toLowerCase());
  const at = (name: string) => cols.indexOf(name);
  if (at("url") === -1) throw new ImportFormatError("a Pocket CSV needs a header row with a `url` column");
  const entry = entryCounter(limits);
  const items: ImportItem[] = [];
  for (const { line, cells } of rows) {
    entry();
    const get = (name: string) => (at(name) === -1 ? undefined : cells[at(name)]?.trim());
    const url = get("url");
    if (!url) {
      items.push({ kind: "bad", line, reason: "the row has no url" });
      continue;
    }
    const title = get("title")?.slice(0, limits.maxTitleLength);
    items.push({
      kind: "link",
      line,
      url,
      title: title && title !== url ? title : undefined,
      savedAt: get("time_added") || undefined,
      tags: splitTags(get("tags"), "|"),
      notebooks: [],
      archived: get("status") === "archive" ? true : get("status") === "unread" ? false : undefined,
    });
  }
  return items;
}
