// TypeBox shapes for notebooks.
import { t, type Static } from "elysia";
import { Int } from "../../../http/schema.ts";

export const NotebookCreate = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 200 }),
    description: t.Optional(t.Union([t.String({ maxLength: 5000 }), t.Null()])),
  },
  { additionalProperties: false },
);
export type NotebookCreate = Static<typeof NotebookCreate>;

export const NotebookUpdate = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
    description: t.Optional(t.Union([t.String({ maxLength: 5000 }), t.Null()])),
  },
  { additionalProperties: false },
);
export type NotebookUpdate = Static<typeof NotebookUpdate>;

export const NotebookPublic = t.Object({
  id: t.String(),
  name: t.String(),
  description: t.Union([t.String(), t.Null()]),
  source_count: Int(),
  note_count: Int(),
  created_at: t.String(),
  updated_at: t.String(),
});
export type NotebookPublic = Static<typeof NotebookPublic>;
