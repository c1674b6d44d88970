// Workflow templates: `{{ path | filter }}` in action strings, parsed and rendered without ever running code.
/*
 * Syntax. `{{ path }}` anywhere in a string, spaces inside the braces optional. A path starts with a
 * name (`url`, `trigger`, `steps`) followed by `.name`, `.0`, `[0]` or `["any key"]` / `['any key']`.
 * Filters run left to right after `|`: `json`, `urlencode`, `lower`, `upper`, `trim`, and
 * `default: <string|number|boolean>` (used when the value is missing, null or "").
 * Literal braces: `\{{` renders as `{{`; `\\{{ x }}` renders a backslash then the value of x
 * (as in Handlebars). Other backslashes and a lone `}}` are plain text.
 *
 * Rendering. A string that is exactly one template (surrounding whitespace allowed) becomes the
 * value itself, keeping its type; otherwise values are joined as text (objects and arrays as JSON,
 * null and missing as ""). A missing value renders as "" and its path is reported in `missing`
 * unless a `default` filter replaced it. Values from the scope are never rendered again.
 *
 * Safety. Lookups read only own data properties of plain objects and arrays (no getters, no
 * functions); `__proto__`, `constructor` and `prototype` are always missing. Strings that rendering
 * builds (joins, filter results) are capped at TEMPLATE_LIMITS.maxOutputLength characters.
 */

import {
  SEGMENT,
  TEMPLATE_LIMITS,
  TemplateError,
  TemplateRenderError,
  parseTemplate,
  type Filter,
  type ParsedTemplate,
  type TemplateProblem,
  type TemplateReference,
  type TemplateTag,
} from "./template-parser.ts";

export * from "./template-parser.ts";

// ---- lookup ----

const BLOCKED = new Set(["__proto__", "constructor", "prototype"]);

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function child(v: unknown, key: string): unknown {
  if (BLOCKED.has(key)) return undefined;
  if (Array.isArray(v) ? !/^(0|[1-9]\d*)$/.test(key) : !isPlainObject(v)) return undefined;
  const d = Object.getOwnPropertyDescriptor(v, key);
  if (!d || !("value" in d) || typeof d.value === "function" || typeof d.value === "symbol") return undefined;
  return d.value;
}

/** Reads a parsed path from the scope; undefined when any step is absent or not traversable. */
export function lookupPath(scope: unknown, path: readonly string[]): unknown {
  let v = scope;
  for (const key of path) {
    v = child(v, key);
    if (v === undefined) return undefined;
  }
  return v;
}

/** `steps.save.source.id`, `items[0]`, `trigger["weird key"]`: a path as it would be written. */
export function formatPath(path: readonly string[]): string {
  return path
    .map((seg, i) => {
      if (i > 0 && /^\d+$/.test(seg)) return `[${seg}]`;
      if (SEGMENT.test(seg)) return i === 0 ? seg : `.${seg}`;
      return `[${JSON.stringify(seg)}]`;
    })
    .join("");
}

// ---- rendering ----

function capped(s: string): string {
  if (s.length > TEMPLATE_LIMITS.maxOutputLength) {
    throw new TemplateRenderError(`rendered text longer than ${TEMPLATE_LIMITS.maxOutputLength} characters`);
  }
  return s;
}

/** How a value reads inside a larger string. */
export function toText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (v instanceof Date) return v.toISOString();
  return capped(JSON.stringify(v) ?? "");
}

function applyFilter(v: unknown, f: Filter): unknown {
  if (f.name === "default") return v === undefined || v === null || v === "" ? f.arg : v;
  if (v === undefined) return undefined; // missing stays missing, so it is still reported
  switch (f.name) {
    case "json":
      return capped(JSON.stringify(v) ?? "");
    case "urlencode":
      return capped(encodeURIComponent(toText(v)));
    case "lower":
      return toText(v).toLowerCase();
    case "upper":
      return toText(v).toUpperCase();
    case "trim":
      return toText(v).trim();
  }
}

function evalTag(tag: TemplateTag, scope: unknown, missing: Set<string>): unknown {
  let v = lookupPath(scope, tag.path);
  const absent = v === undefined;
  try {
    for (const f of tag.filters) v = applyFilter(v, f);
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    throw new TemplateRenderError(`${tag.raw}: ${(err as Error).message}`);
  }
  if (absent && v === undefined) missing.add(formatPath(tag.path));
  return v;
}

function renderString(s: string, scope: unknown, missing: Set<string>): unknown {
  if (!s.includes("{{")) return s;
  const { parts } = parseTemplate(s);
  const tags = parts.filter((p): p is TemplateTag => typeof p !== "string");
  if (tags.length === 1 && parts.every((p) => typeof p !== "string" || p.trim() === "")) {
    const v = evalTag(tags[0]!, scope, missing);
    return v === undefined ? "" : v;
  }
  let out = "";
  for (const p of parts) out = capped(out + (typeof p === "string" ? p : toText(evalTag(p, scope, missing))));
  return out;
}

function joinPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

/** Rebuilds arrays and plain objects with each string replaced by fn's result; object keys are kept. */
function mapStrings(v: unknown, jsonPath: string, fn: (s: string, jsonPath: string) => unknown, depth = 0): unknown {
  if (depth > TEMPLATE_LIMITS.maxDepth)
    throw new TemplateRenderError(`nested deeper than ${TEMPLATE_LIMITS.maxDepth} levels`).at(jsonPath);
  if (typeof v === "string") return fn(v, jsonPath);
  if (Array.isArray(v)) return v.map((x, i) => mapStrings(x, joinPath(jsonPath, i), fn, depth + 1));
  if (!isPlainObject(v)) return v;
  // fromEntries defines own properties, so a "__proto__" key stays data and never sets a prototype.
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k, mapStrings(x, joinPath(jsonPath, k), fn, depth + 1)]),
  );
}

/** Renders every string inside value against scope. Throws TemplateError (with jsonPath) on bad input. */
export function render(value: unknown, scope: Record<string, unknown>): { value: unknown; missing: string[] } {
  const missing = new Set<string>();
  const out = mapStrings(value, "", (s, jsonPath) => {
    try {
      return renderString(s, scope, missing);
    } catch (err) {
      throw err instanceof TemplateError ? err.at(jsonPath) : err;
    }
  });
  return { value: out, missing: [...missing] };
}

/** Calls fn with the parsed template (or its syntax error) of every string in value that has `{{`. */
function eachTemplate(
  value: unknown,
  root: string,
  fn: (parsed: ParsedTemplate | TemplateError, jsonPath: string) => void,
): void {
  mapStrings(value, root, (s, jsonPath) => {
    if (!s.includes("{{")) return s;
    let parsed: ParsedTemplate | TemplateError;
    try {
      parsed = parseTemplate(s);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      parsed = err;
    }
    fn(parsed, jsonPath);
    return s;
  });
}

/** Every variable reference in value, with the JSON path of its string. Unparseable strings are skipped. */
export function collectReferences(value: unknown, root = ""): TemplateReference[] {
  const refs: TemplateReference[] = [];
  eachTemplate(value, root, (parsed, jsonPath) => {
    if (parsed instanceof TemplateError) return; // validateTemplates reports these
    for (const p of parsed.parts) if (typeof p !== "string") refs.push({ jsonPath, path: p.path, raw: p.raw });
  });
  return refs;
}

/** Syntax errors anywhere in value, one per bad string; empty when every template parses. */
export function validateTemplates(value: unknown, root = ""): TemplateProblem[] {
  const errors: TemplateProblem[] = [];
  try {
    eachTemplate(value, root, (parsed, jsonPath) => {
      if (parsed instanceof TemplateError) errors.push({ jsonPath, message: parsed.message });
    });
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    errors.push({ jsonPath: err.jsonPath ?? root, message: err.message });
  }
  return errors;
}
