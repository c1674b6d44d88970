// Reads our own JSON export (docs/import-export.md, version 1) back in: notebooks, sources with their
// Markdown, tags and saved times, and notes with the sources they cite.
import { entryCounter, ImportFormatError, type ImportItem, type ParseLimits } from "./types.ts";

type Json = Record<string, any>;
export const EXPORT_FORMAT_NAME = "commonplace-export";
export const EXPORT_VERSION = 1;

export function parseCommonplace(doc: unknown, limits: ParseLimits): ImportItem[] {
  const d = doc as Json | null;
  if (d?.["format"] !== EXPORT_FORMAT_NAME)
    throw new ImportFormatError(`a Commonplace export has "format": "${EXPORT_FORMAT_NAME}"`);
  if (typeof d["version"] !== "number" || d["version"] > EXPORT_VERSION) {
    throw new ImportFormatError(
      `this server reads export versions up to ${EXPORT_VERSION}, the file is version ${String(d["version"])}`,
    );
  }
  const items: ImportItem[] = [];
  const entry = entryCounter(limits);
  let folders = 0;
  const nbName = new Map<string, string>();
  const arr = (v: unknown): Json[] => (Array.isArray(v) ? v : []);
  for (const nb of arr(d["notebooks"])) {
    if (typeof nb?.name !== "string") continue;
    if (++folders > limits.maxFolders)
      throw new ImportFormatError(`the file has more than ${limits.maxFolders} notebooks`);
    nbName.set(nb.id, nb.name);
    items.push({
      kind: "notebook",
      name: nb.name,
      description: typeof nb.description === "string" ? nb.description : null,
    });
  }
  const srcUrl = new Map<string, string>();
  arr(d["sources"]).forEach((s, i) => {
    entry();
    if (typeof s?.url !== "string")
      return void items.push({ kind: "bad", line: i + 1, reason: "a source without a url" });
    srcUrl.set(s.id, s.url);
    items.push({
      kind: "link",
      line: i + 1,
      url: s.url,
      title: typeof s.title === "string" ? s.title : undefined,
      savedAt: s.saved_at ?? s.created_at,
      tags: arr(s.tags).filter((x): x is string & Json => typeof x === "string"),
      notebooks: arr(s.notebook_ids)
        .map((id) => nbName.get(id as unknown as string))
        .filter((x): x is string => Boolean(x)),
      archived: s.archived === true,
      content: typeof s.content === "string" && s.content.trim() ? { type: "markdown", text: s.content } : undefined,
    });
  });
  for (const n of arr(d["notes"])) {
    if (typeof n?.content !== "string") continue;
    entry();
    items.push({
      kind: "note",
      title: typeof n.title === "string" ? n.title : null,
      content: n.content,
      notebook: n.notebook_id ? nbName.get(n.notebook_id) : undefined,
      sourceUrls: arr(n.source_ids)
        .map((id) => srcUrl.get(id as unknown as string))
        .filter((x): x is string => Boolean(x)),
      createdAt: typeof n.created_at === "string" ? n.created_at : undefined,
    });
  }
  return items;
}
