// TypeBox schemas as MCP tool schemas: plain JSON Schema for clients, and the same TypeBox checks
// (defaults, coercion, error paths) the HTTP API applies, for the tools' arguments.
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { FieldError } from "../../errors.ts";
import { validationErrors } from "../../http/errors.ts";

type Json = Record<string, unknown>;

// Elysia's numeric types accept a numeric string too (for query strings): anyOf [string with
// format "integer"/"numeric", integer]. JSON clients should see only the number.
const NUMERIC_STRING_FORMATS = new Set(["integer", "numeric"]);
const isNumericString = (s: unknown) =>
  !!s && typeof s === "object" && (s as Json).type === "string" && NUMERIC_STRING_FORMATS.has(String((s as Json).format));

function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = clean(v);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.some(isNumericString)) {
    const rest = anyOf.filter((s) => !isNumericString(s));
    delete out.anyOf;
    if (rest.length === 1) return { ...(rest[0] as Json), ...out };
    out.anyOf = rest;
  }
  return out;
}

/** The JSON Schema a client sees (TypeBox's symbols dropped, numeric strings folded). */
export function toJsonSchema(schema: TSchema): Json & { type: "object" } {
  const json = clean(JSON.parse(JSON.stringify(schema))) as Json;
  if (json.type !== "object") throw new Error("MCP tool schemas must be objects");
  return json as Json & { type: "object" };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** Defaults, check, decode (numeric strings to numbers), unknown fields dropped: as Elysia does for a body. */
export function checkArguments<T>(schema: TSchema, input: unknown): Checked<T> {
  const value = Value.Clean(schema, Value.Default(schema, structuredClone(input ?? {})));
  if (!Value.Check(schema, value)) return { ok: false, errors: validationErrors("body", [...Value.Errors(schema, value)]) };
  return { ok: true, value: Value.Decode(schema, value) as T };
}
