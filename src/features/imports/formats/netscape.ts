// Netscape bookmark HTML (Chrome, Firefox, Safari, Edge, Karakeep, Linkding) and Pocket's older HTML
// export: folders (<H3> followed by <DL>) become notebooks, nested names joined with " / ".
import type { ImportItem } from "./types.ts";
import { attributes, lineAt, splitTags, stripTags } from "./html-text.ts";

const TOKEN = /<(\/?)(dl|h3|a|h1|ul)\b([^>]*)>|<\/(h3|a|h1)>/gi;

export function parseNetscape(text: string): ImportItem[] {
  const items: ImportItem[] = [];
  const path: string[] = [];
  // A folder's name applies to the next <DL>; a <DL> without a name (the root) pushes nothing.
  let pendingFolder: string | null = null;
  const pushed: boolean[] = [];
  const cache = { i: 0, line: 1 };
  // Pocket's HTML export has <h1>Unread</h1> and <h1>Read Archive</h1> sections.
  let currentSection = "";
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(text))) {
    const closing = m[1] === "/";
    const tag = (m[2] ?? "").toLowerCase();
    if (tag === "dl") {
      if (closing) {
        if (pushed.pop()) path.pop();
      } else {
        pushed.push(pendingFolder !== null);
        if (pendingFolder !== null) path.push(pendingFolder);
        pendingFolder = null;
      }
    } else if (tag === "h3" && !closing) {
      const end = text.indexOf("</", TOKEN.lastIndex);
      const name = stripTags(text.slice(TOKEN.lastIndex, end === -1 ? undefined : end)) || "Untitled folder";
      // A " / " inside a folder's own name would read as nesting once joined.
      pendingFolder = name.replaceAll(" / ", " - ");
      const full = [...path, pendingFolder].join(" / ");
      items.push({ kind: "notebook", line: lineAt(text, m.index, cache), name: full });
    } else if (tag === "a" && !closing) {
      const attrs = attributes(m[3] ?? "");
      const end = text.slice(TOKEN.lastIndex).search(/<\/a>/i);
      const title = stripTags(end === -1 ? "" : text.slice(TOKEN.lastIndex, TOKEN.lastIndex + end));
      const line = lineAt(text, m.index, cache);
      const href = attrs["href"];
      if (!href) {
        items.push({ kind: "bad", line, reason: "the entry has no HREF" });
        continue;
      }
      // Pocket's HTML puts a `tags` and `time_added` attribute on the link; browsers use ADD_DATE and TAGS.
      items.push({
        kind: "link",
        line,
        url: href,
        title: title || undefined,
        savedAt: attrs["add_date"] ?? attrs["time_added"],
        tags: splitTags(attrs["tags"], ","),
        notebooks: path.length > 0 ? [path.join(" / ")] : [],
        archived: currentSection === "read archive" ? true : undefined,
      });
    } else if (tag === "h1" && !closing) {
      const end = text.indexOf("</", TOKEN.lastIndex);
      currentSection = stripTags(text.slice(TOKEN.lastIndex, end === -1 ? undefined : end)).toLowerCase();
    }
  }
  return items;
}
