// TypeBox shapes for webhook tokens: the public view, and the one-time view with the URL.
import { t, type Static } from "elysia";

export const TokenPublic = t.Object({
  id: t.String({ description: "A token id (whk_…)" }),
  hint: t.String({ description: "The token's prefix and last four characters" }),
  workflow_ids: t.Array(t.String(), { description: "Workflows triggered through this token" }),
  created_at: t.String(),
  regenerated_at: t.Union([t.String(), t.Null()]),
});
export type TokenPublic = Static<typeof TokenPublic>;

export const TokenWithUrl = t.Composite([
  TokenPublic,
  t.Object({ url: t.String({ description: "The webhook URL; shown only in this response" }) }),
]);
export type TokenWithUrl = Static<typeof TokenWithUrl>;
