// A forward-only reader of the HTML-ish export formats (Netscape bookmarks, Pocket HTML, OPML): tags
// and the text between them, each character looked at a bounded number of times whatever the file
// holds (unclosed tags, quotes or comments, a name that never ends), so parsing is linear in the file.
import { decodeEntities } from "./html-text.ts";

/** What a reader is told, in the order it appears; positions index the scanned text. */
export interface MarkupVisitor {
  /** A tag: its lower-cased name, and where its attributes' raw text lies (read them with `attributes`). */
  tag(name: string, closing: boolean, at: number, rawStart: number, rawEnd: number): void;
  /** Text between tags, `s.slice(start, end)`: sliced only by a reader that wants it. */
  text(start: number, end: number): void;
}

const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;

/**
 * Tags and text in order. A `<` that starts no tag is text; a tag with no `>` after it ends the markup
 * (the rest is text); comments and `<!…>`/`<?…>` declarations are skipped. Allocates nothing per
 * token beyond the tag's name.
 */
export function scanMarkup(s: string, v: MarkupVisitor): void {
  let pos = 0;
  const n = s.length;
  while (pos < n) {
    const lt = s.indexOf("<", pos);
    if (lt === -1) {
      v.text(pos, n);
      return;
    }
    if (lt > pos) v.text(pos, lt);
    const c = s.charCodeAt(lt + 1);
    if (c === 33 && s.startsWith("<!--", lt)) {
      const end = s.indexOf("-->", lt + 4);
      if (end === -1) return;
      pos = end + 3;
      continue;
    }
    if (c === 33 || c === 63) {
      // <!DOCTYPE …>, <?xml …?>
      const gt = s.indexOf(">", lt);
      if (gt === -1) return;
      pos = gt + 1;
      continue;
    }
    const closing = c === 47;
    const start = closing ? lt + 2 : lt + 1;
    if (!isNameStart(s.charCodeAt(start))) {
      v.text(lt, lt + 1);
      pos = lt + 1;
      continue;
    }
    let e = start + 1;
    while (e < n && isNameChar(s.charCodeAt(e))) e++;
    const gt = s.indexOf(">", e);
    // No `>` anywhere after: nothing further can be a tag.
    if (gt === -1) {
      v.text(lt, n);
      return;
    }
    v.tag(s.slice(start, e).toLowerCase(), closing, lt, e, gt);
    pos = gt + 1;
  }
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

/**
 * Attributes of one start tag's raw text (`HREF="…" ADD_DATE=…`), names lower-cased, values decoded.
 * One pass: an unclosed quote takes the rest of the tag.
 */
export function attributes(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  const n = raw.length;
  let i = 0;
  while (i < n) {
    while (i < n && (isSpace(raw.charCodeAt(i)) || raw.charCodeAt(i) === 47)) i++;
    const nameStart = i;
    while (i < n && !isSpace(raw.charCodeAt(i)) && raw[i] !== "=" && raw[i] !== "/") i++;
    const name = raw.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
    if (raw[i] !== "=") {
      if (name && !(name in out)) out[name] = "";
      if (i === nameStart) i++;
      continue;
    }
    i++;
    while (i < n && isSpace(raw.charCodeAt(i))) i++;
    let value: string;
    const q = raw[i];
    if (q === '"' || q === "'") {
      const end = raw.indexOf(q, i + 1);
      value = raw.slice(i + 1, end === -1 ? n : end);
      i = end === -1 ? n : end + 1;
    } else {
      const start = i;
      while (i < n && !isSpace(raw.charCodeAt(i))) i++;
      value = raw.slice(start, i);
    }
    // The first of a repeated attribute wins, as in HTML.
    if (name && !(name in out)) out[name] = decodeEntities(value);
  }
  return out;
}

/**
 * Collects an element's text (a folder's or a link's name) up to a bounded length: pieces past the
 * bound are dropped as they arrive, so a name that never ends costs no more than one that does.
 */
export class BoundedText {
  private parts: string[] = [];
  private length = 0;
  constructor(
    private readonly source: string,
    private readonly max: number,
  ) {}
  /** Adds `source.slice(start, end)`, or what of it fits. */
  add(start: number, end: number): void {
    // Entities shrink when decoded, so up to 8 raw characters are kept for each one allowed.
    const room = this.max * 8 - this.length;
    if (room <= 0) return;
    const piece = this.source.slice(start, Math.min(end, start + room));
    this.parts.push(piece);
    this.length += piece.length;
  }
  /** The text with entities decoded and white space collapsed, at most `max` characters. */
  value(): string {
    return decodeEntities(this.parts.join("")).replace(/\s+/g, " ").trim().slice(0, this.max).trim();
  }
}

/** Line numbers of positions asked for in increasing order: the text is read once in all. */
export function lineCounter(s: string): (index: number) => number {
  let i = 0;
  let line = 1;
  return (index) => {
    for (; i < index; i++) if (s.charCodeAt(i) === 10) line++;
    return line;
  };
}
