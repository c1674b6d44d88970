// TypeBox shapes for personal API keys: what may be sent, and the public view.
import { t, type Static } from "elysia";

export const KeyCreate = t.Object(
  { name: t.String({ minLength: 1, maxLength: 100, description: "A label to recognise the key by" }) },
  { additionalProperties: false },
);

export const KeyPublic = t.Object({
  id: t.String({ examples: ["key_01JB3S6W3W4VZ3G8Q0Q9Y5H2KX"] }),
  name: t.String(),
  hint: t.String({ description: "The key's prefix and last four characters" }),
  created_at: t.String({ format: "date-time" }),
  last_used_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
  revoked_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
});
export type KeyPublic = Static<typeof KeyPublic>;

export const KeyCreated = t.Composite([
  KeyPublic,
  t.Object({ key: t.String({ description: "Shown once; store it now" }) }),
]);
