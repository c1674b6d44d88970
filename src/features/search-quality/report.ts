// Recall@1 and recall@5 of known-item queries, per search mode and per kind of query.
import { SEARCH_MODES, type SearchMode } from "../search/schema.ts";
import { QUERY_KINDS, type KnownItemQuery } from "./queries.ts";
import type { ModeResult } from "./schema.ts";

/** One query's result in one mode: the rank (0-based) of its source among the hits, null when absent. */
export interface Outcome {
  query: KnownItemQuery;
  mode: SearchMode;
  rank: number | null;
  /** The search failed (the embedding server did not answer…): not counted in recall. */
  error?: string;
}

/** A share to three decimals; null when nothing was measured (a library without headings has no heading queries). */
const share = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 1000);

function recall(outcomes: Outcome[]) {
  const ok = outcomes.filter((o) => o.error === undefined);
  return {
    queries: ok.length,
    recall_at_1: share(ok.filter((o) => o.rank === 0).length, ok.length),
    recall_at_5: share(ok.filter((o) => o.rank !== null && o.rank < 5).length, ok.length),
  };
}

/** Per mode (text, vector, hybrid): recall over all queries, errors, and recall per kind of query. */
export function summarise(outcomes: Outcome[]): ModeResult[] {
  return SEARCH_MODES.map((mode) => {
    const of = outcomes.filter((o) => o.mode === mode);
    const failed = of.filter((o) => o.error !== undefined);
    return {
      mode,
      ...recall(of),
      errors: failed.length,
      error: failed[0]?.error ?? null,
      kinds: QUERY_KINDS.map((kind) => ({ kind, ...recall(of.filter((o) => o.query.kind === kind)) })),
    };
  });
}
