// The workflow `condition` action's test: clauses over rendered templates, with a per-clause log.
/*
 * Each clause's `left` and `right` are rendered with the run's scope first (so `"{{ x }}"` keeps
 * the value's type and a missing value is ""). Then:
 *
 * - eq / ne: deep equality. A number and a numeric string ("42", "-1.5", "1e3"; no hex, no blanks)
 *   compare as numbers, at any depth; everything else is strict (true ≠ "true", "1.0" ≠ "1",
 *   null ≠ ""). Objects are equal when they have the same keys with equal values. ne = not eq.
 * - contains: left string → right is a non-empty substring; left array → some element eq right.
 *   Anything else → false. not_contains = not contains (so it is true for a missing value).
 * - in: right array → some element eq left; right string → left is a non-empty substring of it.
 * - starts_with / ends_with: left must be a string and right a non-empty needle, else false.
 * - Needles (right of contains/starts_with/ends_with, left of in) may be finite numbers, read as
 *   their decimal text; an empty needle never matches, so a missing value does not match everything.
 * - gt / gte / lt / lte: numbers (numeric strings read as numbers) compare as numbers; two ISO 8601
 *   dates ("2024-05-01", "2024-05-01T10:00:00Z"; no offset means UTC) compare as instants;
 *   any other pair → false.
 * - exists: not undefined, null or "" (empty arrays and objects exist). not_exists = not exists.
 *
 * `all` needs every clause (empty → true), `any` needs one (empty → false); with both, both must
 * hold; with neither, the condition is true (ConditionSchema refuses that shape).
 */
import { t, type Static } from "elysia";
import { isPlainObject, render, validateTemplates } from "./templates.ts";

export const OPS = [
  "eq",
  "ne",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "gt",
  "gte",
  "lt",
  "lte",
  "exists",
  "not_exists",
  "in",
] as const;
export type Op = (typeof OPS)[number];
const UNARY: ReadonlySet<Op> = new Set(["exists", "not_exists"]);

export const ClauseSchema = t.Object(
  {
    left: t.Unknown({ description: 'A value or template, e.g. "{{ trigger.status }}"' }),
    op: t.Union(
      OPS.map((op) => t.Literal(op)),
      { description: "Comparison operator" },
    ),
    right: t.Optional(t.Unknown({ description: "A value or template; not used by exists / not_exists" })),
  },
  { additionalProperties: false },
);
export const ConditionSchema = t.Object(
  {
    all: t.Optional(t.Array(ClauseSchema, { maxItems: 50, description: "Every clause must hold" })),
    any: t.Optional(t.Array(ClauseSchema, { maxItems: 50, description: "At least one clause must hold" })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type Clause = Static<typeof ClauseSchema>;
export type Condition = Static<typeof ConditionSchema>;

export interface ClauseDetail {
  left: unknown;
  op: Op;
  right: unknown;
  result: boolean;
}
export interface ConditionResult {
  result: boolean;
  details: ClauseDetail[];
  /** Template paths that had no value while rendering the clauses. */
  missing: string[];
}

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  return typeof v === "string" && NUMERIC.test(v) ? Number(v) : undefined;
}

function asTime(v: unknown): number | undefined {
  if (typeof v !== "string") return undefined;
  const m = ISO_DATE.exec(v);
  if (!m) return undefined;
  let iso = v.toUpperCase().replace(" ", "T");
  if (m[1] && /\d{4}$/.test(m[1])) iso = `${iso.slice(0, -2)}:${iso.slice(-2)}`;
  // A date-time without an offset would otherwise be read in the server's local zone.
  else if (!m[1] && iso.includes(":")) iso += "Z";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? undefined : time;
}

/** Deep equality where a number and a numeric string compare as numbers. */
export function looseEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "number" || typeof b === "number") {
    const x = asNumber(a);
    const y = asNumber(b);
    return x !== undefined && y !== undefined && x === y;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => looseEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && looseEqual(a[k], b[k]));
  }
  return a === b;
}

function needle(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return typeof v === "string" && v !== "" ? v : undefined;
}

function contains(haystack: unknown, item: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.some((x) => looseEqual(x, item));
  const n = needle(item);
  return typeof haystack === "string" && n !== undefined && haystack.includes(n);
}

function compare(a: unknown, b: unknown): number | undefined {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return x - y;
  const p = asTime(a);
  const q = asTime(b);
  return p !== undefined && q !== undefined ? p - q : undefined;
}

const exists = (v: unknown) => v !== undefined && v !== null && v !== "";

function affix(left: unknown, right: unknown, test: (s: string, n: string) => boolean): boolean {
  const n = needle(right);
  return typeof left === "string" && n !== undefined && test(left, n);
}

/** Applies one operator to already-rendered operands. */
export function applyOp(op: Op, left: unknown, right: unknown): boolean {
  switch (op) {
    case "eq":
      return looseEqual(left, right);
    case "ne":
      return !looseEqual(left, right);
    case "contains":
      return contains(left, right);
    case "not_contains":
      return !contains(left, right);
    case "in":
      return contains(right, left);
    case "starts_with":
      return affix(left, right, (s, n) => s.startsWith(n));
    case "ends_with":
      return affix(left, right, (s, n) => s.endsWith(n));
    case "exists":
      return exists(left);
    case "not_exists":
      return !exists(left);
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const d = compare(left, right);
      if (d === undefined) return false;
      return op === "gt" ? d > 0 : op === "gte" ? d >= 0 : op === "lt" ? d < 0 : d <= 0;
    }
  }
}

/** Renders and tests every clause (no short-circuit, so the run log shows them all). */
export function evaluateCondition(
  cond: { all?: Clause[]; any?: Clause[] },
  scope: Record<string, unknown>,
): ConditionResult {
  const missing = new Set<string>();
  const details: ClauseDetail[] = [];
  const run = (clauses: Clause[]) =>
    clauses.map((clause) => {
      const rendered = render({ left: clause.left, right: clause.right }, scope);
      for (const m of rendered.missing) missing.add(m);
      const { left, right } = rendered.value as { left: unknown; right: unknown };
      const result = applyOp(clause.op, left, right);
      details.push({ left, op: clause.op, right, result });
      return result;
    });
  const all = cond.all ? run(cond.all).every(Boolean) : true;
  const any = cond.any ? run(cond.any).some(Boolean) : true;
  return { result: all && any, details, missing: [...missing] };
}

/** Checks a condition beyond its schema: binary ops need `right`, templates must parse. */
export function validateCondition(
  cond: { all?: Clause[]; any?: Clause[] },
  root = "",
): Array<{ path: string; message: string }> {
  const errors: Array<{ path: string; message: string }> = [];
  for (const list of ["all", "any"] as const) {
    cond[list]?.forEach((clause, i) => {
      const at = `${root ? `${root}.` : ""}${list}[${i}]`;
      if (!UNARY.has(clause.op) && clause.right === undefined)
        errors.push({ path: `${at}.right`, message: `"${clause.op}" needs a right-hand value` });
      for (const e of validateTemplates({ left: clause.left, right: clause.right }, at))
        errors.push({ path: e.jsonPath, message: e.message });
    });
  }
  return errors;
}
