// A linear pre-scan of HTML tag nesting, so pathologically deep pages are refused before any parse.
// It follows the implicit-close rules of htmlparser2 (the parser linkedom uses), so the depth it
// counts is the depth of the tree that would be built: a page of 1,000 unclosed <p> or <li> is
// shallow, 1,000 unclosed <div> is not.

const VOID = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
// Elements whose content the tokenizer reads as raw text up to the matching end tag.
const RAW_TEXT = new Set(["script", "style", "title", "textarea", "xmp"]);
const FOREIGN = new Set(["math", "svg"]);
const HTML_INTEGRATION = new Set(["mi", "mo", "mn", "ms", "mtext", "annotation-xml", "foreignobject", "desc", "title"]);

const P = ["p"];
const FORM = ["input", "option", "optgroup", "select", "button", "datalist", "textarea"];
const IMPLIES_CLOSE = new Map<string, Set<string>>(
  (
    [
      ["tr", ["tr", "th", "td"]],
      ["th", ["th"]],
      ["td", ["thead", "th", "td"]],
      ["body", ["head", "link", "script"]],
      ["li", ["li"]],
      ["option", ["option"]],
      ["optgroup", ["optgroup", "option"]],
      ["dd", ["dd", "dt"]],
      ["dt", ["dd", "dt"]],
      ["rt", ["rt", "rp"]],
      ["rp", ["rt", "rp"]],
      ["tbody", ["thead", "tbody"]],
      ["tfoot", ["thead", "tbody"]],
      ...["select", "input", "output", "button", "datalist", "textarea"].map((t) => [t, FORM] as const),
      ...[
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "address",
        "article",
        "aside",
        "blockquote",
        "details",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "header",
        "hr",
        "main",
        "nav",
        "ol",
        "pre",
        "section",
        "table",
        "ul",
      ].map((t) => [t, P] as const),
    ] as (readonly [string, string[]])[]
  ).map(([k, v]) => [k, new Set(v)]),
);

const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const endsName = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13 || c === 47 || c === 62;

/**
 * The deepest element nesting in `html`, or the first depth above `limit` (the scan stops there).
 * Linear in the length of the markup: every character is visited a bounded number of times.
 */
export function nestingDepth(html: string, limit = Infinity): number {
  const lower = html.toLowerCase();
  const stack: string[] = [];
  const open = new Map<string, number>();
  const foreign: boolean[] = [false];
  let deepest = 0;
  let i = 0;

  const push = (name: string) => {
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
    if (FOREIGN.has(name)) foreign.push(true);
    else if (HTML_INTEGRATION.has(name)) foreign.push(false);
    deepest = Math.max(deepest, stack.length);
  };
  const pop = () => {
    const name = stack.pop()!;
    open.set(name, open.get(name)! - 1);
    return name;
  };
  const readName = (from: number) => {
    let end = from;
    while (end < lower.length && !endsName(lower.charCodeAt(end))) end++;
    return lower.slice(from, end);
  };
  /** Index just past the `>` ending the tag that starts at `from`, skipping quoted attribute values. */
  const tagEnd = (from: number): { end: number; selfClosing: boolean } => {
    let j = from;
    let afterEquals = false;
    while (j < lower.length) {
      const c = lower.charCodeAt(j);
      if (c === 62) return { end: j + 1, selfClosing: lower.charCodeAt(j - 1) === 47 };
      if (c === 61) afterEquals = true;
      else if (afterEquals && (c === 34 || c === 39)) {
        const close = lower.indexOf(c === 34 ? '"' : "'", j + 1);
        if (close < 0) return { end: lower.length, selfClosing: false };
        j = close;
        afterEquals = false;
      } else if (c !== 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) afterEquals = false;
      j++;
    }
    return { end: lower.length, selfClosing: false };
  };

  while (deepest <= limit) {
    i = lower.indexOf("<", i);
    if (i < 0 || i + 1 >= lower.length) break;
    const next = lower.charCodeAt(i + 1);
    if (lower.startsWith("<!--", i)) {
      const close = lower.indexOf("-->", i + 4);
      i = close < 0 ? lower.length : close + 3;
    } else if (next === 33 || next === 63) {
      // <!doctype …>, <![CDATA[…]]>, <?xml …?>: no element
      const close = lower.indexOf(">", i + 2);
      i = close < 0 ? lower.length : close + 1;
    } else if (next === 47 && isAlpha(lower.charCodeAt(i + 2))) {
      const name = readName(i + 2);
      i = tagEnd(i + 2 + name.length).end;
      if ((FOREIGN.has(name) || HTML_INTEGRATION.has(name)) && foreign.length > 1) foreign.pop();
      if (!VOID.has(name) && (open.get(name) ?? 0) > 0) while (pop() !== name);
    } else if (isAlpha(next)) {
      const name = readName(i + 1);
      const tag = tagEnd(i + 1 + name.length);
      i = tag.end;
      const closes = IMPLIES_CLOSE.get(name);
      if (closes) while (stack.length > 0 && closes.has(stack[stack.length - 1]!)) pop();
      if (VOID.has(name)) {
        deepest = Math.max(deepest, stack.length + 1); // a leaf, but one level deeper all the same
        continue;
      }
      push(name);
      if (tag.selfClosing && foreign[foreign.length - 1]) {
        pop();
        if (FOREIGN.has(name) || HTML_INTEGRATION.has(name)) foreign.pop();
        continue;
      }
      if (RAW_TEXT.has(name) && !foreign[foreign.length - 1]) {
        // Raw text runs to the matching end tag (or the end of the document); it holds no elements.
        const close = lower.indexOf(`</${name}`, i);
        i = close < 0 ? lower.length : close;
      }
    } else {
      i++;
    }
  }
  return deepest;
}
