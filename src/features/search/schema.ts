// TypeBox shapes for search and ask.
import { t, type Static } from "elysia";
import { Int, oneOf } from "../../http/schema.ts";

/** What search finds: sources, notes, and highlights (indexed by their quote and note). */
export const DOC_TYPES = ["source", "note", "highlight"] as const;

export const SEARCH_MODES = ["text", "vector", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const SearchRequest = t.Object(
  {
    query: t.String({ minLength: 1, maxLength: 1000 }),
    mode: t.Optional(
      oneOf(SEARCH_MODES, { description: "text (BM25, default), vector (KNN) or hybrid (reciprocal rank fusion)" }),
    ),
    types: t.Optional(
      t.Array(oneOf(DOC_TYPES, { description: "source, note or highlight (a highlight's quote and note)" }), {
        minItems: 1,
        uniqueItems: true,
      }),
    ),
    notebook_id: t.Optional(t.String({ pattern: "^nb_[0-9A-Z]{26}$" })),
    limit: t.Optional(Int({ minimum: 1, maximum: 50, default: 10 })),
  },
  { additionalProperties: false },
);
export type SearchRequest = Static<typeof SearchRequest>;

export const SearchHit = t.Object({
  type: oneOf(DOC_TYPES),
  id: t.String({ description: "The source's, note's or highlight's id" }),
  source_id: t.Optional(t.String({ description: "For a highlight: the source it was made in" })),
  title: t.Union([t.String(), t.Null()]),
  url: t.Union([t.String(), t.Null()]),
  snippet: t.String({ description: "Plain text around the best match, about 200 characters" }),
  highlights: t.Array(t.Object({ start: Int(), end: Int() }), { description: "Match offsets inside snippet" }),
  score: t.Number(),
  chunk_id: t.String(),
});
export type SearchHit = Static<typeof SearchHit>;

export const SearchResponse = t.Object({ mode: oneOf(SEARCH_MODES), data: t.Array(SearchHit) });

export const AskRequest = t.Object(
  {
    question: t.String({ minLength: 1, maxLength: 2000 }),
    notebook_id: t.Optional(t.String({ pattern: "^nb_[0-9A-Z]{26}$" })),
    source_ids: t.Optional(
      t.Array(t.String({ pattern: "^src_[0-9A-Z]{26}$" }), { minItems: 1, maxItems: 100, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
);
export type AskRequest = Static<typeof AskRequest>;

export const Citation = t.Object({
  n: Int({ minimum: 1 }),
  type: oneOf(["source", "note"] as const, {
    description: "What is cited: a source (also when the passage is one of its highlights) or a note",
  }),
  id: t.String(),
  highlight_id: t.Optional(
    t.String({ description: "When the passage is a highlight: its id (`id` is then its source's)" }),
  ),
  title: t.Union([t.String(), t.Null()]),
  url: t.Union([t.String(), t.Null()]),
  quote: t.String({ description: "A verbatim passage of the cited chunk" }),
  chunk_id: t.String(),
});
export type Citation = Static<typeof Citation>;

export const AskResponse = t.Object({
  answer: t.String({ description: "Claims are marked [1], [2] matching citations[].n" }),
  citations: t.Array(Citation),
  model: t.String(),
  extractive: t.Boolean({
    description: "true when the answer is built from retrieved sentences, not written by a model",
  }),
  credits_used: Int(),
  credits_remaining: Int(),
});
export type AskResponse = Static<typeof AskResponse>;
