// Netscape bookmark HTML (Chrome, Firefox, Safari, Edge, Karakeep, Linkding) and Pocket's older HTML
// export: folders (<H3> followed by <DL>) become notebooks, nested names joined with " / ".
// One forward pass (markup.ts): a name or title ends at its closing tag or at the next structural tag
// (an unclosed <H3> or <A> does not swallow the rest of the file), and every limit is checked as the
// entry is read.
import { attributes, BoundedText, lineCounter, scanMarkup } from "./markup.ts";
import { splitTags } from "./html-text.ts";
import { entryCounter, ImportFormatError, type ImportItem, type ParseLimits } from "./types.ts";

/** Tags that end an open name or title even when its own closing tag is missing. */
const STRUCTURAL = new Set(["dl", "dt", "dd", "h1", "h2", "h3", "a", "ul", "li", "p", "hr"]);

interface Open {
  tag: "h3" | "a" | "h1";
  text: BoundedText;
  at: number;
  attrs: Record<string, string>;
}

export function parseNetscape(text: string, limits: ParseLimits): ImportItem[] {
  const items: ImportItem[] = [];
  const entry = entryCounter(limits);
  const lineAt = lineCounter(text);
  // The joined path of each open folder level; a <DL> without a name (the root) repeats its parent's.
  const paths: string[] = [];
  let folders = 0;
  // A folder's name applies to the next <DL>.
  let pendingFolder: string | null = null;
  // Pocket's HTML export has <h1>Unread</h1> and <h1>Read Archive</h1> sections.
  let section = "";
  let open = null as Open | null;

  const close = () => {
    if (!open) return;
    const o = open;
    open = null;
    if (o.tag === "h1") {
      section = o.text.value().toLowerCase();
    } else if (o.tag === "h3") {
      if (++folders > limits.maxFolders)
        throw new ImportFormatError(`the file has more than ${limits.maxFolders} folders`);
      // A " / " inside a folder's own name would read as nesting once joined.
      const name = (o.text.value() || "Untitled folder").replaceAll(" / ", " - ");
      const parent = paths.at(-1) ?? "";
      pendingFolder = (parent ? `${parent} / ${name}` : name).slice(0, limits.maxNameLength).trim();
      items.push({ kind: "notebook", line: lineAt(o.at), name: pendingFolder });
    } else {
      entry();
      const line = lineAt(o.at);
      const href = o.attrs["href"];
      if (!href) {
        items.push({ kind: "bad", line, reason: "the entry has no HREF" });
        return;
      }
      const path = paths.at(-1);
      // Pocket's HTML puts a `tags` and `time_added` attribute on the link; browsers use ADD_DATE and TAGS.
      items.push({
        kind: "link",
        line,
        url: href,
        title: o.text.value() || undefined,
        savedAt: o.attrs["add_date"] ?? o.attrs["time_added"],
        tags: splitTags(o.attrs["tags"], ","),
        notebooks: path ? [path] : [],
        archived: section === "read archive" ? true : undefined,
      });
    }
  };

  scanMarkup(text, {
    tag(name, closing, at, rawStart, rawEnd) {
      if (open && (name === open.tag ? closing : STRUCTURAL.has(name))) close();
      if (name === "dl") {
        if (closing) {
          paths.pop();
          return;
        }
        if (paths.length >= limits.maxDepth)
          throw new ImportFormatError(`folders are nested more than ${limits.maxDepth} deep (line ${lineAt(at)})`);
        paths.push(pendingFolder ?? paths.at(-1) ?? "");
        pendingFolder = null;
      } else if (!closing && (name === "h3" || name === "a" || name === "h1")) {
        open = {
          tag: name,
          text: new BoundedText(text, name === "a" ? limits.maxTitleLength : limits.maxNameLength),
          at,
          attrs: name === "a" ? attributes(text.slice(rawStart, rawEnd)) : {},
        };
      }
    },
    text(start, end) {
      open?.text.add(start, end);
    },
  });
  close();
  return items;
}
