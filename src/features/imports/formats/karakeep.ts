// Karakeep's JSON export (`{ bookmarks: [{ createdAt (epoch s), title, tags, content: {type: "link", url}
// | {type: "text", text}, note, archived }] }`, the schema of its exportBookmarks module).
import { entryCounter, ImportFormatError, type ImportItem, type ParseLimits } from "./types.ts";

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

export function parseKarakeep(doc: unknown, limits: ParseLimits): ImportItem[] {
  const list = (doc as Json | null)?.["bookmarks"];
  if (!Array.isArray(list)) throw new ImportFormatError("a Karakeep export is a JSON object with a `bookmarks` array");
  const items: ImportItem[] = [];
  const count = entryCounter(limits);
  list.forEach((b: Json, i) => {
    const entry = i + 1;
    count();
    const content = (b?.["content"] ?? null) as Json | null;
    const tags = Array.isArray(b?.["tags"])
      ? [
          ...new Set(
            (b["tags"] as unknown[])
              .filter((x): x is string => typeof x === "string" && x.trim() !== "")
              .map((x) => x.trim()),
          ),
        ]
      : [];
    const title = str(b?.["title"])?.slice(0, limits.maxTitleLength);
    const savedAt =
      typeof b?.["createdAt"] === "number" || typeof b?.["createdAt"] === "string"
        ? (b["createdAt"] as number | string)
        : undefined;
    if (content?.["type"] === "link" && str(content["url"])) {
      const url = str(content["url"])!;
      items.push({
        kind: "link",
        line: entry,
        url,
        title: title || undefined,
        savedAt,
        tags,
        notebooks: [],
        archived: b?.["archived"] === true,
      });
      const note = str(b?.["note"]);
      if (note?.trim())
        items.push({
          kind: "note",
          line: entry,
          title: title ? `Note on ${title}` : null,
          content: note,
          sourceUrls: [url],
        });
    } else if (content?.["type"] === "text" && str(content["text"])) {
      // A text bookmark has no link: it becomes a note.
      items.push({ kind: "note", line: entry, title: title || null, content: str(content["text"])!, sourceUrls: [] });
    } else {
      items.push({
        kind: "bad",
        line: entry,
        reason: `bookmark ${entry} is neither a link nor a text (assets are not imported)`,
      });
    }
  });
  return items;
}
