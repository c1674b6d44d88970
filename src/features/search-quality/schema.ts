// TypeBox shapes of the search quality self-test: the start request and the run with its report.
import { t, type Static } from "elysia";
import { Int, Nullable, oneOf } from "../../http/schema.ts";
import { SEARCH_MODES } from "../search/schema.ts";
import { QUERY_KINDS } from "./queries.ts";

export const MIN_READY_SOURCES = 5;
export const DEFAULT_SAMPLE = 50;
export const MAX_SAMPLE = 200;
export const MAX_SEED = 2 ** 31 - 1;

export const QualityStart = t.Object(
  {
    sample: t.Optional(
      Int({
        minimum: MIN_READY_SOURCES,
        maximum: MAX_SAMPLE,
        default: DEFAULT_SAMPLE,
        description: "How many ready sources to draw at random (fewer when the library has fewer)",
      }),
    ),
    seed: t.Optional(
      Int({
        minimum: 0,
        maximum: MAX_SEED,
        description: "Seed of the sample and of the paraphrases; the same seed on the same library repeats a run",
      }),
    ),
  },
  { additionalProperties: false },
);
export type QualityStart = Static<typeof QualityStart>;

const Recall = (what: string) =>
  Nullable(t.Number({ minimum: 0, maximum: 1, description: `${what}, to three decimals; null without queries` }));

export const KindResult = t.Object({
  kind: oneOf(QUERY_KINDS, { description: "title, heading or paraphrase (of the first sentence)" }),
  queries: Int({ description: "Queries of this kind that ran without an error" }),
  recall_at_1: Recall("Share of queries whose source came first"),
  recall_at_5: Recall("Share of queries whose source was in the top five"),
});

export const ModeResult = t.Object({
  mode: oneOf(SEARCH_MODES),
  queries: Int({ description: "Queries that ran without an error" }),
  recall_at_1: Recall("Share of queries whose source came first"),
  recall_at_5: Recall("Share of queries whose source was in the top five"),
  errors: Int({ description: "Queries that failed (e.g. the embedding server did not answer); not counted above" }),
  error: Nullable(t.String({ description: "The first failure's message" })),
  kinds: t.Array(KindResult),
});
export type ModeResult = Static<typeof ModeResult>;

export const Miss = t.Object({
  kind: oneOf(QUERY_KINDS),
  query: t.String(),
  source_id: t.String(),
  title: Nullable(t.String()),
  ranks: t.Object(
    { text: Nullable(Int()), vector: Nullable(Int()), hybrid: Nullable(Int()) },
    { description: "The source's rank in each mode's top five (1 = first), null when it was not there" },
  ),
});

export const QualityReport = t.Object({
  seed: Int(),
  ready_sources: Int({ description: "Ready sources in the library when the run started" }),
  sampled: Int({ description: "Sources drawn (those that gave at least one query)" }),
  embedded: Int({ description: "Sampled sources whose every passage has a vector of `embedder`" }),
  embedder: Nullable(t.String({ description: "The model vector search used; null when nothing is embedded yet" })),
  configured_embedder: t.String({
    description: "The model new documents are embedded with; differs from `embedder` while the library is re-embedded",
  }),
  queries: t.Object({ title: Int(), heading: Int(), paraphrase: Int(), total: Int() }),
  modes: t.Array(ModeResult),
  misses: t.Array(Miss, { description: "Up to ten queries hybrid search missed (source not in its top five)" }),
  duration_ms: Int(),
});
export type QualityReport = Static<typeof QualityReport>;

export const QualityRunPublic = t.Object({
  id: t.String({ description: "A run id (sqr_…)" }),
  status: oneOf(["queued", "running", "done", "failed"] as const),
  progress: t.Object({
    done: Int({ description: "Searches made so far (a query once per mode)" }),
    total: Int({ description: "Searches to make; 0 until the sample is drawn" }),
  }),
  sample: Int({ description: "Sources asked for" }),
  seed: Int(),
  embedder: Nullable(t.String()),
  report: Nullable(QualityReport),
  error: Nullable(t.String()),
  created_at: t.String(),
  started_at: Nullable(t.String()),
  finished_at: Nullable(t.String()),
});
export type QualityRunPublic = Static<typeof QualityRunPublic>;
