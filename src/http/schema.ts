// Small TypeBox helpers shared by resource schemas.
import { t } from "elysia";
import type { TLiteral, TSchema, TUnion } from "@sinclair/typebox";

type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };

/** A closed set of strings. (Elysia's UnionEnum carries a default that would fill absent optional fields.) */
export function oneOf<const V extends readonly [string, ...string[]]>(values: V, options: { description?: string } = {}): TUnion<Literals<V>> {
  const literals = values.map((v) => t.Literal(v)) as unknown as Literals<V>;
  return t.Union(literals, { description: options.description ?? `One of: ${values.join(", ")}` }) as TUnion<Literals<V>>;
}

export const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);
