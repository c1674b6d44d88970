// Tag suggestions at ingestion and the "similar tags" view. A source that becomes ready (saved by hand,
// by the extension or a feed; not an import, whose files carry their own labels) gets a background job
// that suggests up to five tags (suggest.ts) and either offers them on the source or, when its owner
// turned on auto-tagging, applies them. GET /api/v1/tags/similar proposes merges.
import { Elysia, t } from "elysia";
import { Type } from "@sinclair/typebox";
import type { Actor } from "../../../actor.ts";
import { systemActor } from "../../../actor.ts";
import type { ChatModel } from "../../../ai/chat/port.ts";
import type { Embedder } from "../../../ai/embedder/port.ts";
import { actorOf } from "../../../http/auth.ts";
import { Nullable } from "../../../http/schema.ts";
import type { JobEnqueuer } from "../../../jobs/port.ts";
import { defineJob, handleJob } from "../../../jobs/types.ts";
import type { Logger } from "../../../log.ts";
import type { Feature, Listeners } from "../../feature.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import { parseTags } from "../sources/public.ts";
import type { SourcesService } from "../sources/service.ts";
import {
  createSuggester,
  MAX_SUGGESTIONS,
  type Neighbour,
  type SimilarPair,
  similarTags,
  type SuggestInput,
} from "./suggest.ts";

export const SUGGEST_TAGS_JOB = defineJob("source.suggest_tags", Type.Object({ source_id: Type.String() }));

/** The listener that queues the job, in the same transaction as the source becoming ready. */
export function tagSuggestionListener(jobs: JobEnqueuer): Listeners {
  return {
    sourceReady: async (_actor, row) => {
      if (row.importId !== null) return;
      await jobs.enqueue(
        SUGGEST_TAGS_JOB,
        { source_id: row.id },
        { idempotencyKey: `${row.id}:tags:${row.fetchedAt ?? row.updatedAt}` },
      );
    },
  };
}

export interface TaggingDeps {
  sourcesRepo: SourcesRepo;
  sources: SourcesService;
  embedder: Embedder;
  chat: ChatModel;
  /** The owner's sources nearest in meaning to a text (vector search), best first. */
  nearestSources: (actor: Actor, text: string, limit: number) => Promise<{ id: string; score: number }[]>;
  autoTag: (userId: string) => Promise<boolean>;
  logger: Logger;
}

const SimilarPairPublic = t.Object({
  keep: t.String({ description: "The more used tag: the name a merge keeps" }),
  merge: t.String({ description: "The tag to rename onto `keep` (PATCH /api/v1/tags/{merge} with name=keep)" }),
  reason: t.String({
    description:
      "`spelling` (the same words up to case, plural, hyphens), `together` (nearly always on the same sources) or `meaning` (close by the embedder)",
  }),
  similarity: t.Number(),
});

export function createTaggingFeature(d: TaggingDeps) {
  const modelTags =
    !d.chat.extractive && d.chat.complete
      ? async (input: SuggestInput): Promise<string[]> => {
          const reply = await d.chat.complete!(
            [
              {
                role: "system",
                content: `You tag saved articles. Answer with JSON {"tags": [...]}: at most ${MAX_SUGGESTIONS} short lower-case topic tags. Prefer tags from the reader's existing list; add a new tag only when none fits.`,
              },
              {
                role: "user",
                content: `Existing tags: ${input.existing.slice(0, 200).join(", ") || "(none)"}\n\nTitle: ${input.title}\n\n${input.text.split(/\s+/).slice(0, 600).join(" ")}`,
              },
            ],
            { json: true, temperature: 0 },
          );
          const parsed = JSON.parse(reply) as { tags?: unknown };
          return Array.isArray(parsed.tags) ? parsed.tags.filter((x): x is string => typeof x === "string") : [];
        }
      : undefined;

  async function neighboursFor(actor: Actor, sourceId: string, text: string): Promise<Neighbour[]> {
    const near = (await d.nearestSources(actor, text, 13)).filter((n) => n.id !== sourceId).slice(0, 12);
    if (near.length === 0) return [];
    const rows = new Map(
      (
        await d.sourcesRepo.byIds(
          actor.userId,
          near.map((n) => n.id),
        )
      ).map((r) => [r.id, r]),
    );
    return near.flatMap((n) => {
      const row = rows.get(n.id);
      return row ? [{ tags: parseTags(row.tags), score: n.score }] : [];
    });
  }

  async function suggestFor(sourceId: string): Promise<void> {
    const row = await d.sourcesRepo.byIdUnscoped(sourceId);
    if (row?.status !== "ready") return;
    const actor = systemActor(row.userId, "tag suggestions");
    const existing = (await d.sources.tagCounts(actor)).map((x) => x.name);
    const suggester = createSuggester({
      embedder: d.embedder,
      neighbours: (text) => neighboursFor(actor, row.id, text),
      modelTags,
    });
    const current = parseTags(row.tags);
    const tags = await suggester.suggest({ title: row.title ?? "", text: row.content ?? "", existing, current });
    if (tags.length === 0) return;
    if (await d.autoTag(row.userId)) {
      await d.sources.update(actor, row.id, { tags: [...current, ...tags].slice(0, 100), suggested_tags: [] });
    } else {
      await d.sources.update(actor, row.id, { suggested_tags: tags });
    }
  }

  /** The owner's tags that look like one tag written twice (see similarTags). */
  async function similar(actor: Actor, limit = 50) {
    const tagged = (await d.sourcesRepo.taggedRows(actor.userId)).map((r) => parseTags(r.tags));
    return similarTags(d.embedder, tagged, limit);
  }

  const api = new Elysia({ prefix: "/tags", tags: ["Tags"] })
    // GET /api/v1/tags/similar
    .get("/similar", async ({ request }) => ({ data: await similar(actorOf(request)), next_cursor: null }), {
      response: t.Object({ data: t.Array(SimilarPairPublic), next_cursor: Nullable(t.String()) }),
      detail: {
        operationId: "listSimilarTags",
        summary: "Tags that look like one tag written twice",
        description:
          "Pairs of the caller's tags proposed as merges: the same words up to case, plural and hyphens; nearly always on the same sources; or close in meaning by the embedder. Merge a pair with PATCH /api/v1/tags/{merge} and `name` = `keep`.",
      },
    });

  return {
    name: "tagging",
    service: { suggestFor, similar },
    api,
    jobs: [
      handleJob(SUGGEST_TAGS_JOB, {
        maxAttempts: 3,
        backoff: (attempt) => Math.min(60_000, 5_000 * 2 ** (attempt - 1)),
        handle: async (p) => {
          try {
            await suggestFor(p.source_id);
          } catch (e) {
            // Suggestions are a convenience: a failure is logged, never retried into the ground.
            d.logger.warn("tag suggestions failed", { source_id: p.source_id, error: String(e) });
          }
        },
      }),
    ],
  } satisfies Feature<TaggingService>;
}

export interface TaggingService {
  suggestFor(sourceId: string): Promise<void>;
  similar(actor: Actor, limit?: number): Promise<SimilarPair[]>;
}
