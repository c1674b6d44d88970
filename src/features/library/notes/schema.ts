// TypeBox shapes for notes.
import { t, type Static } from "elysia";
import { Cursor, Limit } from "../../../http/pagination.ts";

const NoteContent = t.String({ minLength: 1, maxLength: 1_000_000, description: "Markdown, at most 1 MB" });
const NotebookId = t.String({ pattern: "^nb_[0-9A-Z]{26}$", description: "A notebook id (nb_…)" });
const SourceIds = t.Array(t.String({ pattern: "^src_[0-9A-Z]{26}$" }), { maxItems: 100, uniqueItems: true });

export const NoteCreate = t.Object(
  {
    content: NoteContent,
    title: t.Optional(t.String({ maxLength: 500 })),
    notebook_id: t.Optional(t.Union([NotebookId, t.Null()])),
    source_ids: t.Optional(SourceIds),
  },
  { additionalProperties: false },
);
export type NoteCreate = Static<typeof NoteCreate>;

export const NoteUpdate = t.Object(
  {
    content: t.Optional(NoteContent),
    title: t.Optional(t.Union([t.String({ maxLength: 500 }), t.Null()])),
    notebook_id: t.Optional(t.Union([NotebookId, t.Null()])),
    source_ids: t.Optional(SourceIds),
  },
  { additionalProperties: false },
);
export type NoteUpdate = Static<typeof NoteUpdate>;

export const NoteListQuery = t.Object(
  {
    limit: t.Optional(Limit()),
    cursor: t.Optional(Cursor),
    notebook_id: t.Optional(NotebookId),
    source_id: t.Optional(
      t.String({
        pattern: "^src_[0-9A-Z]{26}$",
        description: "Only notes about this source (whose source_ids contain it)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const NotePublic = t.Object({
  id: t.String(),
  title: t.Union([t.String(), t.Null()]),
  content: t.String(),
  notebook_id: t.Union([t.String(), t.Null()]),
  source_ids: t.Array(t.String()),
  created_at: t.String(),
  updated_at: t.String(),
});
export type NotePublic = Static<typeof NotePublic>;
