// Keeps the search index in step with the library: chunks (and so FTS) are replaced inside the
// transaction that changed a document; embedding happens afterwards in durable jobs.
import type { Logger } from "../../log.ts";
import type { JobEnqueuer } from "../../jobs/port.ts";
import { defineJob, handleJob, type JobContext, type JobRegistration } from "../../jobs/types.ts";
import type { Embedder } from "../../ai/embedder/port.ts";
import { t } from "elysia";
import { chunkMarkdown } from "./chunker.ts";
import type { ChunksRepo, DocType } from "./chunks-repo.ts";
import type { VectorIndex } from "./vectors.ts";

const EmbedPayload = t.Object({
  doc_type: t.Union([t.Literal("source"), t.Literal("note"), t.Literal("highlight")]),
  doc_id: t.String(),
});
export const EMBED_JOB = defineJob("search.embed", EmbedPayload);
export const REEMBED_JOB = defineJob("search.reembed", t.Object({ model: t.String() }));
/** Embedding of imported documents: a background lane, so an interactive save's vectors come first. */
export const EMBED_IMPORT_JOB = defineJob("search.embed_import", EmbedPayload);
const BATCH = 64;

export interface IndexableDoc {
  type: DocType;
  id: string;
  userId: string;
  title: string;
  markdown: string;
}

/** The text a chunk is embedded from: its document title and heading give it context. */
export const embeddingText = (c: { title: string; heading: string | null; text: string }) =>
  [c.title, c.heading && c.heading !== c.title ? c.heading : "", c.text].filter(Boolean).join("\n");

export function createIndexer(deps: {
  chunks: ChunksRepo;
  vectors: VectorIndex;
  jobs: JobEnqueuer;
  embedder: Embedder;
  logger: Logger;
}) {
  const { chunks, vectors, jobs, embedder, logger } = deps;

  /** Embeds up to `limit` chunks that lack a vector for the configured model; returns how many. */
  async function embedMissing(
    limit: number,
    doc?: { type: DocType; id: string },
    signal?: AbortSignal,
  ): Promise<number> {
    let slot = await vectors.byModel(embedder.id);
    const pending = slot ? await vectors.missing(slot.slot, limit, doc) : await vectors.missing(-1, limit, doc); // no slot yet: every chunk is missing
    if (pending.length === 0) return 0;
    for (let i = 0; i < pending.length; i += BATCH) {
      signal?.throwIfAborted();
      const batch = pending.slice(i, i + BATCH);
      const vecs = await embedder.embed(batch.map(embeddingText), "document");
      slot ??= await vectors.ensureSlot(embedder.id, vecs[0]!.length);
      await vectors.upsert(
        slot,
        batch.map((c, j) => ({
          rowid: c.rowid,
          chunkId: c.chunkId,
          userId: c.userId,
          docType: c.docType,
          vector: vecs[j]!,
        })),
      );
    }
    // The first model ever used becomes active as soon as it has vectors.
    if (slot && !(await vectors.active())) await vectors.activate(slot.slot);
    return pending.length;
  }

  return {
    embedMissing,

    /** Embedding progress of sources under the configured model (a model change starts again from 0). */
    async progress(ids: string[]): Promise<Map<string, { done: number; total: number }>> {
      if (ids.length === 0) return new Map();
      return vectors.progress((await vectors.byModel(embedder.id))?.slot ?? -1, "source", ids);
    },

    /**
     * Call inside the document's transaction. `background`: the document came in bulk (an import),
     * so its embedding waits behind interactive work and runs one at a time.
     */
    async index(doc: IndexableDoc, opts: { background?: boolean } = {}): Promise<void> {
      await chunks.replace(doc, chunkMarkdown(doc.markdown));
      await jobs.enqueue(opts.background ? EMBED_IMPORT_JOB : EMBED_JOB, { doc_type: doc.type, doc_id: doc.id });
    },

    /**
     * At start: rebuilds vector code tables an upgrade left missing, and enqueues a background
     * re-embedding when the configured model is not the active one.
     */
    async ensureCurrent(): Promise<boolean> {
      await vectors.prepare();
      const active = await vectors.active();
      if (active?.model === embedder.id) return false;
      if (!active && (await chunksEmpty())) return false;
      await jobs.enqueue(
        REEMBED_JOB,
        { model: embedder.id },
        { idempotencyKey: `reembed:${embedder.id}:${active?.model ?? "none"}` },
      );
      logger.info("re-embedding the library", { from: active?.model ?? null, to: embedder.id });
      return true;
    },

    /** The embedding jobs, for the feature to hand to the runner. */
    jobs(): JobRegistration[] {
      const embedDoc = {
        handle: async (p: { doc_type: DocType; doc_id: string }, ctx: JobContext) => {
          await embedMissing(10_000, { type: p.doc_type, id: p.doc_id }, ctx.signal);
        },
      };
      // One at a time and after every other due job: the encoder is one worker, and 10,000 imported
      // pages would otherwise queue ahead of the page the user saves next.
      return [
        handleJob(EMBED_JOB, embedDoc),
        handleJob(EMBED_IMPORT_JOB, { ...embedDoc, maxConcurrent: 1 }),
        handleJob(REEMBED_JOB, {
          maxAttempts: 20,
          handle: async (p, ctx) => {
            if (p.model !== embedder.id) return; // configuration changed again since
            // Batches until done; search keeps using the previous model until the switch.
            while ((await embedMissing(512, undefined, ctx.signal)) > 0) ctx.signal.throwIfAborted();
            const slot = await vectors.byModel(embedder.id);
            if (slot && slot.state !== "active") await vectors.activate(slot.slot);
          },
        }),
      ];
    },
  };

  async function chunksEmpty(): Promise<boolean> {
    return (await chunks.count()) === 0;
  }
}
export type Indexer = ReturnType<typeof createIndexer>;
