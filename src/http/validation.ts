// Validation errors that say what is allowed: TypeBox errors become {path, message} pairs with
// dotted paths (`notebook_ids[0]`, `query.limit`) and messages such as "must be one of: a, b".
import { Kind, type TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import type { FieldError } from "../errors.ts";
import { CUSTOM_KINDS } from "./schema.ts";

type Schema = TSchema & Record<string, any>;

/** A JSON pointer (`/notebook_ids/0`) under a location (`body`, `query`, `path`) → `notebook_ids[0]`, `query.limit`. */
export function fieldPath(location: string, pointer: string): string {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  let out = location === "body" ? "" : location;
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || location;
}

const quote = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** The values of a closed set (a union of literals, possibly with null), or undefined. */
function enumValues(schema: Schema): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const];
  if (schema[Kind] === "Null") return [null];
  if (!Array.isArray(schema.anyOf)) return undefined;
  const values: unknown[] = [];
  for (const s of schema.anyOf as Schema[]) {
    const v = enumValues(s);
    if (!v) return undefined;
    values.push(...v);
  }
  return values;
}

function range(schema: Schema, noun: string): string {
  const { minimum: min, maximum: max } = schema;
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} of at least ${min}`;
  if (max !== undefined) return `${noun} of at most ${max}`;
  return noun;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** What a value of this schema must be, as a phrase: "an integer from 1 to 100", "one of: a, b". */
export function expected(schema: Schema): string {
  const values = enumValues(schema);
  if (values) {
    const given = values.filter((v) => v !== null);
    const list = given.length === 1 ? JSON.stringify(given[0]) : `one of: ${given.map(quote).join(", ")}`;
    return given.length < values.length ? `${list}, or null` : list;
  }
  switch (schema[Kind]) {
    case "Integer":
    case CUSTOM_KINDS.queryInteger:
      return range(schema, "an integer");
    case "Number":
      return range(schema, "a number");
    case "Boolean":
      return "true or false";
    case "Object":
      return "a JSON object";
    case "Array":
      return "an array";
    case CUSTOM_KINDS.dateTime:
      return "an RFC 3339 time with a real date, e.g. 2026-01-31T12:00:00Z";
    case "Union":
      return (schema.anyOf as Schema[]).map(expected).join(" or ");
    case "String": {
      if (schema.format === "date-time") return "an RFC 3339 time, e.g. 2026-01-31T12:00:00Z";
      const id = /^\^([a-z]+)_\[0-9A-Z\]\{26\}\$$/.exec(String(schema.pattern ?? ""));
      if (id) return `an id like ${id[1]}_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX`;
      return "a string";
    }
    default:
      return typeof schema.type === "string" ? `of type ${schema.type}` : "valid";
  }
}

function unionMessage(e: ValueError): string {
  const schema = e.schema as Schema;
  if (enumValues(schema)) return `must be ${expected(schema)}`;
  // {X or null} with a non-null value: X's own complaint is the useful one.
  const variants = schema.anyOf as Schema[];
  const nonNull = variants.filter((s) => s[Kind] !== "Null");
  if (e.value !== null && nonNull.length === 1 && variants.length === 2) {
    const inner = e.errors[variants.indexOf(nonNull[0]!)]?.First();
    if (inner) {
      const message = messageOf(inner);
      return message.startsWith("must be ") ? `${message} or null` : `${message}, or be null`;
    }
  }
  return `must be ${expected(schema)}`;
}

/** A message for one TypeBox error that says what is allowed. */
export function messageOf(e: ValueError): string {
  const s = e.schema as Schema;
  switch (e.type) {
    case ValueErrorType.ObjectAdditionalProperties: {
      const field = e.path.split("/").pop()!.replaceAll("~1", "/").replaceAll("~0", "~");
      const allowed = Object.keys(s.properties ?? {});
      return allowed.length
        ? `unknown field "${field}"; allowed: ${allowed.join(", ")}`
        : `unknown field "${field}"; this takes no fields`;
    }
    case ValueErrorType.ObjectRequiredProperty:
      return `is required (${expected(s)})`;
    case ValueErrorType.Union:
      return unionMessage(e);
    case ValueErrorType.Integer:
    case ValueErrorType.Number:
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.IntegerExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMaximum:
    case ValueErrorType.Kind:
    case ValueErrorType.Boolean:
    case ValueErrorType.Object:
    case ValueErrorType.Array:
    case ValueErrorType.Literal:
    case ValueErrorType.String:
    case ValueErrorType.StringFormat:
    case ValueErrorType.Null:
      return `must be ${expected(s)}`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1 ? "must not be empty" : `must be at least ${plural(s.minLength, "character")} long`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${plural(s.maxLength, "character")} long`;
    case ValueErrorType.StringPattern: {
      const what = expected(s);
      return what === "a string" ? `must match the pattern ${s.pattern}` : `must be ${what}`;
    }
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${plural(s.minItems, "item")}`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${plural(s.maxItems, "item")}`;
    case ValueErrorType.ArrayUniqueItems:
      return "must not list the same item twice";
    default:
      return e.message.charAt(0).toLowerCase() + e.message.slice(1);
  }
}

/** The errors of one location, one per path (the first is the most specific), at most 20. */
export function fieldErrors(location: string, all: Iterable<ValueError>): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of all) {
    const path = fieldPath(location, e.path);
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, message: messageOf(e) });
    if (out.length === 20) break;
  }
  return out;
}

/** The problem's `detail` for a list of field errors: the first one, whole. */
export function detailOf(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return "The request is invalid";
  // A top-level unknown field is named by its message already.
  return first.message.startsWith(`unknown field ${JSON.stringify(first.path)}`)
    ? first.message
    : `${first.path}: ${first.message}`;
}
