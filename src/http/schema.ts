// Small TypeBox helpers shared by resource schemas: closed enums, plain integers, strict query
// integers and strict RFC 3339 times, each rendering as plain JSON Schema in the OpenAPI document.
import { t } from "elysia";
import {
  Kind,
  Type,
  TypeRegistry,
  type IntegerOptions,
  type StringOptions,
  type TInteger,
  type TLiteral,
  type TSchema,
  type TUnion,
} from "@sinclair/typebox";

type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };

/** A closed set of strings. (Elysia's UnionEnum carries a default that would fill absent optional fields.) */
export function oneOf<const V extends readonly [string, ...string[]]>(
  values: V,
  options: { description?: string } = {},
): TUnion<Literals<V>> {
  const literals = values.map((v) => t.Literal(v)) as unknown as Literals<V>;
  return t.Union(literals, { description: options.description ?? `One of: ${values.join(", ")}` }) as TUnion<
    Literals<V>
  >;
}

export const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);

/**
 * A JSON integer, for bodies and responses. Elysia's `t.Integer` is a union with numeric strings
 * (documented as `anyOf [string, integer]` and accepting `"5"` in a JSON body); this is TypeBox's own.
 */
export const Int = (options: IntegerOptions = {}) => Type.Integer(options);

// Query strings carry text, so a query integer is its own kind: the check accepts one canonical
// decimal spelling (the JSON number grammar without fraction or exponent: no "+1", "1e1", "0x10",
// "1.0" or leading zeros), and the document still shows {"type": "integer", minimum, maximum}.
// Kinds are registered once per process with TypeBox's registry, which the compiled validators read.
const QUERY_INTEGER = "QueryInteger";
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,15})$/;

function inRange(schema: IntegerOptions, n: number): boolean {
  return (
    Number.isSafeInteger(n) &&
    (schema.minimum === undefined || n >= schema.minimum) &&
    (schema.maximum === undefined || n <= schema.maximum)
  );
}

/** A query string value as an integer, or undefined when it is not one in range. */
export function queryInteger(schema: IntegerOptions, value: unknown): number | undefined {
  // Numbers arrive from defaults and from JSON callers (MCP tools reuse the query schemas).
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && CANONICAL_INTEGER.test(value)
        ? Number(value)
        : NaN;
  return inRange(schema, n) ? n : undefined;
}

if (!TypeRegistry.Has(QUERY_INTEGER))
  TypeRegistry.Set<IntegerOptions>(QUERY_INTEGER, (schema, value) => queryInteger(schema, value) !== undefined);

/**
 * An integer query parameter (strict decimal, range-checked), decoded to a number for the handler.
 * Typed as the integer it decodes to, as Elysia types its own numeric query types.
 */
export function QueryInt(options: IntegerOptions = {}): TInteger {
  const schema = Type.Unsafe<number | string>({ ...options, [Kind]: QUERY_INTEGER, type: "integer" });
  const decoded = Type.Transform(schema)
    .Decode((v) => (typeof v === "number" ? v : Number(v)))
    .Encode((v) => v);
  return decoded as unknown as TInteger;
}

// RFC 3339 date-time with a real calendar day and an explicit offset: the date-time format Elysia
// registers also accepts 2020-02-30 (JavaScript's Date rolls it over to March 1).
const DATE_TIME = "StrictDateTime";
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** True for an RFC 3339 time that names a real instant (leap seconds excepted). */
export function isRfc3339(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return false;
  return m[8] === undefined || (Number(m[8]) <= 23 && Number(m[9]) <= 59);
}

if (!TypeRegistry.Has(DATE_TIME))
  TypeRegistry.Set(DATE_TIME, (_schema, value) => typeof value === "string" && isRfc3339(value));

/** A request field holding an RFC 3339 time (`2026-01-31T12:00:00Z`), checked against the calendar. */
export const DateTime = (options: StringOptions = {}) =>
  Type.Unsafe<string>({
    description: "RFC 3339 time, e.g. 2026-01-31T12:00:00Z",
    ...options,
    [Kind]: DATE_TIME,
    type: "string",
    format: "date-time",
  });

/** The kinds above, for messages that say what a value must be. */
export const CUSTOM_KINDS = { queryInteger: QUERY_INTEGER, dateTime: DATE_TIME } as const;
