// Pocket's CSV export (2024–2025): header `title,url,time_added,tags,status`, tags joined by "|",
// status `unread` or `archive`, time_added in epoch seconds.
import { parseCsv } from "./csv.ts";
import { ImportFormatError, type ImportItem } from "./types.ts";
import { splitTags } from "./html-text.ts";

export function parsePocketCsv(text: string): ImportItem[] {
  const rows = parseCsv(text.replace(/^\uFEFF/, ""));
  const header = rows.shift();
  const cols = header?.cells.map((c) => c.trim().toLowerCase()) ?? [];
  const at = (name: string) => cols.indexOf(name);
  if (at("url") === -1) throw new ImportFormatError("a Pocket CSV needs a header row with a `url` column");
  return rows.map(({ line, cells }): ImportItem => {
    const get = (name: string) => (at(name) === -1 ? undefined : cells[at(name)]?.trim());
    const url = get("url");
    if (!url) return { kind: "bad", line, reason: "the row has no url" };
    const title = get("title");
    return {
      kind: "link",
      line,
      url,
      title: title && title !== url ? title : undefined,
      savedAt: get("time_added") || undefined,
      tags: splitTags(get("tags"), "|"),
      notebooks: [],
      archived: get("status") === "archive" ? true : get("status") === "unread" ? false : undefined,
    };
  });
}
