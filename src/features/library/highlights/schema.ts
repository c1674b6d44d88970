// TypeBox shapes for highlights: what may be sent, the list filters, and the public view.
import { t, type Static } from "elysia";
import { Cursor, Limit } from "../../../http/pagination.ts";
import { DateTime, Int, Nullable, oneOf } from "../../../http/schema.ts";

/** The colours a highlight may have (the table keeps the same list). */
export const HIGHLIGHT_COLORS = ["yellow", "green", "blue", "pink", "purple"] as const;
const Color = oneOf(HIGHLIGHT_COLORS, { description: `One of: ${HIGHLIGHT_COLORS.join(", ")} (default yellow)` });
const SourceId = t.String({ pattern: "^src_[0-9A-Z]{26}$", description: "A source id (src_…)" });
const Note = t.String({
  maxLength: 10_000,
  description: "The reader's note on the passage, at most 10,000 characters",
});
const Position = t.Object(
  {
    start: Int({ minimum: 0, description: "Offset of the quote's first character in the article text" }),
    end: Int({ minimum: 0, description: "Offset just past its last character" }),
  },
  {
    additionalProperties: false,
    description:
      "Character offsets (UTF-16 code units) in the source's article text: its Markdown as a reader sees it, whitespace runs collapsed to one space",
  },
);

export const HighlightCreate = t.Object(
  {
    source_id: SourceId,
    exact: t.String({
      minLength: 1,
      maxLength: 5000,
      description: "The quoted text (W3C TextQuoteSelector `exact`); compared with whitespace collapsed",
    }),
    prefix: t.Optional(
      t.String({ maxLength: 200, description: "Text just before the quote; filled from the article when absent" }),
    ),
    suffix: t.Optional(
      t.String({ maxLength: 200, description: "Text just after the quote; filled from the article when absent" }),
    ),
    position: t.Optional(Position),
    color: t.Optional(Color),
    note: t.Optional(Nullable(Note)),
  },
  { additionalProperties: false },
);
export type HighlightCreate = Static<typeof HighlightCreate>;

export const HighlightUpdate = t.Object(
  {
    color: t.Optional(Color),
    note: t.Optional(Nullable(t.String({ maxLength: 10_000, description: "null clears the note" }))),
  },
  { additionalProperties: false },
);
export type HighlightUpdate = Static<typeof HighlightUpdate>;

/** The filters of the list and of the CSV export. */
const filters = {
  source_id: t.Optional(SourceId),
  notebook_id: t.Optional(
    t.String({ pattern: "^nb_[0-9A-Z]{26}$", description: "Only highlights of the sources in this notebook" }),
  ),
  tag: t.Optional(t.String({ minLength: 1, maxLength: 100, description: "Only highlights of sources with this tag" })),
  created_after: t.Optional(
    DateTime({ description: "Only highlights made after this RFC 3339 time, e.g. 2026-01-31T12:00:00Z" }),
  ),
};

export const HighlightListQuery = t.Object(
  { limit: t.Optional(Limit()), cursor: t.Optional(Cursor), ...filters },
  { additionalProperties: false },
);
export type HighlightListQuery = Static<typeof HighlightListQuery>;

export const HighlightExportQuery = t.Object(filters, { additionalProperties: false });
export type HighlightExportQuery = Static<typeof HighlightExportQuery>;

export const HighlightPublic = t.Object({
  id: t.String(),
  source_id: t.String(),
  exact: t.String(),
  prefix: t.String(),
  suffix: t.String(),
  position: t.Object({ start: Int(), end: Int() }),
  color: Color,
  note: Nullable(t.String()),
  orphaned: t.Boolean({
    description: "The quote is no longer in the article since a refetch; the highlight is kept with its last position",
  }),
  source: t.Object({ title: Nullable(t.String()), url: t.String() }),
  created_at: t.String(),
  updated_at: t.String(),
});
export type HighlightPublic = Static<typeof HighlightPublic>;
