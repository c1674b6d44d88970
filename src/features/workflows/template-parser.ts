// The workflow template parser: `{{ path | filter }}` syntax, its errors and limits (see templates.ts).
export const FILTERS = ["json", "urlencode", "default", "lower", "upper", "trim"] as const;
export type FilterName = (typeof FILTERS)[number];
export type Literal = string | number | boolean;
export type Filter = { name: FilterName; arg?: Literal };
/** One `{{ … }}`: `raw` is its source text (braces included), `offset` where it starts. */
export type TemplateTag = { path: string[]; filters: Filter[]; raw: string; offset: number };
export type ParsedTemplate = { parts: Array<string | TemplateTag> };
export type TemplateReference = { jsonPath: string; path: string[]; raw: string };
export type TemplateProblem = { jsonPath: string; message: string };

export const TEMPLATE_LIMITS = {
  maxSourceLength: 256 * 1024,
  maxOutputLength: 1024 * 1024,
  maxPathSegments: 32,
  maxFilters: 8,
  maxDepth: 64,
} as const;

export class TemplateError extends Error {
  jsonPath: string | undefined;
  /** Records where in a value the failing string sits (first caller wins). */
  at(jsonPath: string): this {
    this.jsonPath ??= jsonPath;
    return this;
  }
}
export class TemplateSyntaxError extends TemplateError {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} at position ${position}`);
  }
}
export class TemplateRenderError extends TemplateError {}

// ---- parsing ----

type Cursor = { s: string; i: number; open: number };

const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$-]/u;
export const SEGMENT = /^[\p{L}_$][\p{L}\p{N}_$-]*$/u;
const DIGITS = /\d+/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const FILTER_NAME = /[A-Za-z_]+/y;
const ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', "'": "'", n: "\n", t: "\t", r: "\r" };

function fail(c: Cursor, reason: string, at = c.i): never {
  if (at >= c.s.length) throw new TemplateSyntaxError('unclosed "{{"', c.open);
  throw new TemplateSyntaxError(reason, at);
}

const describe = (c: Cursor) => (c.i >= c.s.length ? "end of template" : JSON.stringify(c.s[c.i]));

function skipSpace(c: Cursor): void {
  while (c.i < c.s.length && /\s/.test(c.s[c.i]!)) c.i++;
}

function sticky(re: RegExp, c: Cursor): string | undefined {
  re.lastIndex = c.i;
  const m = re.exec(c.s);
  if (m) c.i += m[0].length;
  return m?.[0];
}

function parseName(c: Cursor, first: boolean): string {
  const start = c.i;
  while (c.i < c.s.length && (first && c.i === start ? IDENT_START : IDENT_PART).test(c.s[c.i]!)) c.i++;
  if (c.i === start)
    fail(
      c,
      first
        ? `expected a variable name, found ${describe(c)}`
        : `expected a property name after ".", found ${describe(c)}`,
    );
  return c.s.slice(start, c.i);
}

function parseString(c: Cursor): string {
  const quote = c.s[c.i]!;
  const start = c.i++;
  let out = "";
  while (c.i < c.s.length) {
    const ch = c.s[c.i++]!;
    if (ch === quote) return out;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const esc = ESCAPES[c.s[c.i] ?? ""];
    if (esc === undefined) fail(c, "unknown escape in string");
    out += esc;
    c.i++;
  }
  throw new TemplateSyntaxError("unterminated string", start);
}

function parseIndex(c: Cursor): string {
  c.i++; // [
  skipSpace(c);
  const ch = c.s[c.i];
  let key: string;
  if (ch === '"' || ch === "'") key = parseString(c);
  else {
    const digits = sticky(DIGITS, c);
    if (digits === undefined) fail(c, `expected a number or a quoted key inside "[ ]", found ${describe(c)}`);
    key = String(Number(digits));
  }
  skipSpace(c);
  if (c.s[c.i] !== "]") fail(c, `expected "]", found ${describe(c)}`);
  c.i++;
  return key;
}

function parsePath(c: Cursor): string[] {
  const path = [parseName(c, true)];
  for (;;) {
    const ch = c.s[c.i];
    if (ch === ".") {
      c.i++;
      path.push(parseName(c, false));
    } else if (ch === "[") path.push(parseIndex(c));
    else return path;
    if (path.length > TEMPLATE_LIMITS.maxPathSegments)
      fail(c, `path longer than ${TEMPLATE_LIMITS.maxPathSegments} segments`);
  }
}

function parseLiteral(c: Cursor): Literal {
  const ch = c.s[c.i];
  if (ch === '"' || ch === "'") return parseString(c);
  const num = sticky(NUMBER, c);
  if (num !== undefined) return Number(num);
  for (const word of ["true", "false"]) {
    if (c.s.startsWith(word, c.i) && !IDENT_PART.test(c.s[c.i + word.length] ?? " ")) {
      c.i += word.length;
      return word === "true";
    }
  }
  return fail(c, `expected a string, number or boolean, found ${describe(c)}`);
}

function parseFilter(c: Cursor): Filter {
  const start = c.i;
  const name = sticky(FILTER_NAME, c);
  if (name === undefined) fail(c, `expected a filter name after "|", found ${describe(c)}`);
  if (!(FILTERS as readonly string[]).includes(name))
    fail(c, `unknown filter "${name}" (known: ${FILTERS.join(", ")})`, start);
  const filter: Filter = { name: name as FilterName };
  skipSpace(c);
  if (c.s[c.i] === ":") {
    c.i++;
    skipSpace(c);
    const argAt = c.i;
    filter.arg = parseLiteral(c);
    if (name !== "default") fail(c, `filter "${name}" takes no argument`, argAt);
  } else if (name === "default") fail(c, 'filter "default" needs a value, e.g. default: "none"');
  return filter;
}

function parseTag(s: string, open: number): { tag: TemplateTag; end: number } {
  const c: Cursor = { s, i: open + 2, open };
  skipSpace(c);
  if (s.startsWith("}}", c.i)) fail(c, "empty expression", open);
  const path = parsePath(c);
  const filters: Filter[] = [];
  skipSpace(c);
  while (s[c.i] === "|") {
    if (filters.length === TEMPLATE_LIMITS.maxFilters) fail(c, `more than ${TEMPLATE_LIMITS.maxFilters} filters`);
    c.i++;
    skipSpace(c);
    filters.push(parseFilter(c));
    skipSpace(c);
  }
  if (!s.startsWith("}}", c.i)) fail(c, `expected "|" or "}}", found ${describe(c)}`);
  const end = c.i + 2;
  return { tag: { path, filters, raw: s.slice(open, end), offset: open }, end };
}

/** Splits a string into literal text and tags; throws TemplateSyntaxError with a 0-based position. */
export function parseTemplate(source: string): ParsedTemplate {
  if (source.length > TEMPLATE_LIMITS.maxSourceLength) {
    throw new TemplateSyntaxError(
      `template longer than ${TEMPLATE_LIMITS.maxSourceLength} characters`,
      TEMPLATE_LIMITS.maxSourceLength,
    );
  }
  const parts: Array<string | TemplateTag> = [];
  let text = "";
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf("{{", i);
    if (open < 0) {
      text += source.slice(i);
      break;
    }
    let before = source.slice(i, open);
    if (before.endsWith("\\\\")) before = before.slice(0, -1);
    else if (before.endsWith("\\")) {
      text += `${before.slice(0, -1)}{{`;
      i = open + 2;
      continue;
    }
    const { tag, end } = parseTag(source, open);
    text += before;
    if (text) parts.push(text);
    text = "";
    parts.push(tag);
    i = end;
  }
  if (text) parts.push(text);
  return { parts };
}
