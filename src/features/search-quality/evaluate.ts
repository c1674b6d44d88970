// The self-test itself: draw a seeded sample of the user's ready sources, make known-item queries from
// them, run each through the search service in text, vector and hybrid mode (sources only, top five)
// and report where the source came. Shared by the background job and the CLI.
import type { Actor } from "../../actor.ts";
import { AppError } from "../../errors.ts";
import type { Clock } from "../../time.ts";
import type { LibraryReader } from "../library/reader.ts";
import { SEARCH_MODES } from "../search/schema.ts";
import type { SearchService } from "../search/service.ts";
import {
  contentWords,
  hasQueries,
  type KnownItemQuery,
  knownItemQueries,
  MAX_TEXT,
  type SampledSource,
  shuffled,
} from "./queries.ts";
import { seededRandom } from "../../random.ts";
import { type Outcome, summarise } from "./report.ts";
import { MIN_READY_SOURCES, type QualityReport } from "./schema.ts";

export interface EvaluateDeps {
  clock: Clock;
  search: Pick<SearchService, "search">;
  library: Pick<LibraryReader, "readySourceIds" | "sourcesByIds">;
  /** The model vector search uses now (the active one; null before anything is embedded) and the configured one. */
  embedders: () => Promise<{ active: string | null; configured: string }>;
  /** Embedding progress of sources under the configured model. */
  embeddingProgress: (ids: string[]) => Promise<Map<string, { done: number; total: number }>>;
  /** Awaited before each search so that requests and other work get their turn (default: one event-loop turn). */
  pause?: () => Promise<void>;
}

export interface EvaluateHooks {
  /** Once the sample is drawn: how many searches will be made, and with which vector model. */
  onStart?: (info: { total: number; embedder: string | null }) => Promise<void> | void;
  /** After each source's searches: how many were made so far. */
  onProgress?: (done: number, total: number) => Promise<void> | void;
  signal?: AbortSignal;
}

const MAX_MISSES = 10;
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function tooFewSources(ready: number, usable = ready): AppError {
  const have =
    usable === ready
      ? `your library has ${ready} ready source${ready === 1 ? "" : "s"}`
      : `only ${usable} of your ${ready} ready sources have a title or text to make queries from`;
  return new AppError(
    "conflict",
    `Measuring search quality needs at least ${MIN_READY_SOURCES} ready sources; ${have}. Save a few more and try again.`,
  );
}

/** Draws the sample: the ready sources in seeded random order, keeping those that give at least one query. */
async function drawSample(d: EvaluateDeps, userId: string, ids: string[], size: number, seed: number) {
  const order = shuffled(ids, seededRandom(seed));
  const sample: SampledSource[] = [];
  for (let at = 0; at < order.length && sample.length < size; ) {
    const batch = order.slice(at, at + Math.max(10, size - sample.length));
    at += batch.length;
    const rows = new Map((await d.library.sourcesByIds(userId, batch)).map((r) => [r.id, r]));
    for (const id of batch) {
      const r = rows.get(id);
      if (r?.status !== "ready" || sample.length >= size) continue;
      const s = { id, title: r.title, content: r.content?.slice(0, MAX_TEXT) ?? null };
      if (hasQueries(s)) sample.push(s);
    }
  }
  return sample;
}

export async function evaluate(
  d: EvaluateDeps,
  actor: Actor,
  opts: { sample: number; seed: number },
  hooks: EvaluateHooks = {},
): Promise<QualityReport> {
  const startedAt = d.clock.now();
  const pause = d.pause ?? nextTurn;
  const ids = await d.library.readySourceIds(actor.userId);
  if (ids.length < MIN_READY_SOURCES) throw tooFewSources(ids.length);
  const sample = await drawSample(d, actor.userId, ids, opts.sample, opts.seed);
  if (sample.length < Math.min(MIN_READY_SOURCES, opts.sample)) throw tooFewSources(ids.length, sample.length);

  // Rarity of a word = in how many sampled sources it appears (the paraphrase drops the rarest).
  const df = new Map<string, number>();
  for (const s of sample)
    for (const w of contentWords(`${s.title ?? ""}\n${s.content ?? ""}`)) df.set(w, (df.get(w) ?? 0) + 1);
  const queries: KnownItemQuery[] = sample.flatMap((s) => knownItemQueries(s, opts.seed, (w) => df.get(w) ?? 0));
  const total = queries.length * SEARCH_MODES.length;

  const { active, configured } = await d.embedders();
  const progress = await d.embeddingProgress(sample.map((s) => s.id));
  const embedded = sample.filter((s) => {
    const p = progress.get(s.id);
    return p !== undefined && p.total > 0 && p.done >= p.total;
  }).length;
  await hooks.onStart?.({ total, embedder: active });

  const outcomes: Outcome[] = [];
  let done = 0;
  for (const [i, q] of queries.entries()) {
    for (const mode of SEARCH_MODES) {
      hooks.signal?.throwIfAborted();
      await pause();
      try {
        const hits = await d.search.search(actor, q.text, { mode, types: ["source"], limit: 5 });
        const rank = hits.findIndex((h) => h.type === "source" && h.id === q.sourceId);
        outcomes.push({ query: q, mode, rank: rank < 0 ? null : rank });
      } catch (e) {
        // A search that fails (the embedding server is down) is reported, not fatal: the other modes still tell.
        if (!(e instanceof AppError)) throw e;
        outcomes.push({ query: q, mode, rank: null, error: e.detail ?? e.message });
      }
      done++;
    }
    if (queries[i + 1]?.sourceId !== q.sourceId) await hooks.onProgress?.(done, total);
  }

  const titles = new Map(sample.map((s) => [s.id, s.title]));
  const rankOf = (q: KnownItemQuery, mode: string) => {
    const o = outcomes.find((x) => x.query === q && x.mode === mode);
    return o?.rank === null || o?.rank === undefined ? null : o.rank + 1;
  };
  const misses = outcomes
    .filter((o) => o.mode === "hybrid" && o.error === undefined && o.rank === null)
    .slice(0, MAX_MISSES)
    .map((o) => ({
      kind: o.query.kind,
      query: o.query.text,
      source_id: o.query.sourceId,
      title: titles.get(o.query.sourceId) ?? null,
      ranks: { text: rankOf(o.query, "text"), vector: rankOf(o.query, "vector"), hybrid: null },
    }));
  const count = (kind: string) => queries.filter((q) => q.kind === kind).length;
  return {
    seed: opts.seed,
    ready_sources: ids.length,
    sampled: sample.length,
    embedded,
    embedder: active,
    configured_embedder: configured,
    queries: {
      title: count("title"),
      heading: count("heading"),
      paraphrase: count("paraphrase"),
      total: queries.length,
    },
    modes: summarise(outcomes),
    misses,
    duration_ms: Math.max(0, Math.round(d.clock.now() - startedAt)),
  };
}
