// The ingestion job: fetch a source through safeFetch, extract its article, store it ready or failed.
// One bad page never stops the queue: every failure is recorded on the source with a readable code.
import type { Transactor } from "../../../db/port.ts";
import type { SourceRow } from "../../../db/schema/index.ts";
import type { Logger } from "../../../log.ts";
import type { Clock } from "../../../time.ts";
import { systemActor, type Actor } from "../../../actor.ts";
import type { EventsService } from "../../events/service.ts";
import type { SafeResponse } from "../../../net/response.ts";
import type { Extracted, ExtractInput } from "./extract/index.ts";
import type { SourcesRepo } from "./repo.ts";
import { toPublicSource } from "./public.ts";
import type { BlobStore } from "../../../blobs/port.ts";
import type { CollectedImages, ImageCollector } from "./images/collect.ts";
import { rewriteImages } from "./images/rewrite.ts";
import type { SourceImagesRepo } from "./images-repo.ts";

/** The parts of a fetched response ingestion reads (safeFetch's SafeResponse has them). */
export type FetchedPage = Pick<SafeResponse, "status" | "url" | "body" | "contentType" | "headers">;
export type PageFetcher = (url: string, init?: { accept?: string[] }) => Promise<FetchedPage>;
export type Extractor = (input: ExtractInput, opts?: { background?: boolean }) => Promise<Extracted>;

export const INGEST_CONTENT_TYPES = [
  "text/html",
  "application/xhtml+xml",
  "application/pdf",
  "text/plain",
  "text/markdown",
  "text/x-markdown",
];

/** Fetch errors worth another attempt; everything else fails the source at once. */
const TRANSIENT_CODES = new Set(["timeout", "connect_timeout", "network_error", "dns_failure"]);
const TRANSIENT_STATUS = (s: number) => s === 408 || s === 425 || s === 429 || s >= 500;

export class TransientIngestError extends Error {}

/** Runs inside the transaction that marks the source ready (indexing and quick podcasts commit with it). */
export type ReadyHook = (actor: Actor, row: SourceRow) => void | Promise<void>;

export interface IngestDeps {
  db: Transactor;
  repo: SourcesRepo;
  events: EventsService;
  fetchPage: PageFetcher;
  extract: Extractor;
  clock: Clock;
  logger: Logger;
  /** Run inside the transaction that marks a source ready (search indexing, quick podcasts). */
  onReady: readonly ReadyHook[];
  /** The archived copy's images; without it every image is removed from the Markdown. */
  images?: { collect: ImageCollector; repo: SourceImagesRepo; blobs: BlobStore };
}

function charsetOf(headers: Headers): string | undefined {
  const m = /charset\s*=\s*"?([^";\s]+)/i.exec(headers.get("content-type") ?? "");
  return m?.[1]?.toLowerCase();
}

export function createIngester(deps: IngestDeps) {
  const { db, repo, events, clock, logger } = deps;
  const nowIso = () => new Date(clock.now()).toISOString();

  /** `captured`: the browser's HTML this run read, deleted with the outcome (a newer one stays). */
  async function finish(
    row: SourceRow,
    actor: Actor,
    patch: Partial<SourceRow>,
    captured?: string,
    media?: CollectedImages,
  ) {
    const stored = await db.tx(async () => {
      const current = await repo.byIdUnscoped(row.id);
      if (!current) return false; // deleted while we fetched
      if (captured !== undefined) await repo.dropCapture(row.id, captured);
      if (media && deps.images) {
        const { blobs } = deps.images;
        const gone = await deps.images.repo.replace(row.id, media.images, nowIso());
        // The images the earlier copy had and this one has not: their blobs go once this commits.
        db.afterCommit(() => void dropBlobs(blobs, gone, logger));
      }
      const links = (await repo.notebookIds([row.id])).get(row.id) ?? [];
      const before = toPublicSource(current, links);
      await repo.update(row.id, { ...patch, updatedAt: nowIso() });
      const updated = (await repo.byIdUnscoped(row.id))!;
      await events.record(actor, "source.updated", toPublicSource(updated, links), before);
      if (updated.status === "ready") for (const hook of deps.onReady) await hook(actor, updated);
      return true;
    });
    // Written before the transaction, for a source deleted meanwhile (or a rolled-back save): not kept.
    if (!stored && media && deps.images)
      await dropBlobs(
        deps.images.blobs,
        media.images.map((i) => i.blobKey),
        logger,
      );
  }

  /** The images kept in the blob store and the Markdown pointing at them; never fails the source. */
  async function archiveImages(sourceId: string, doc: Extracted): Promise<CollectedImages | undefined> {
    const images = doc.images ?? [];
    const none = { markdown: rewriteImages(doc.markdown, images, new Map()), images: [], thumbnailKey: null };
    if (!deps.images) return undefined;
    try {
      return await deps.images.collect({ sourceId, markdown: doc.markdown, images, preview: doc.image ?? null });
    } catch (err) {
      logger.warn("images could not be kept", { source_id: sourceId, error: String(err) });
      return none;
    }
  }

  async function fail(row: SourceRow, actor: Actor, code: string, detail: string, captured?: string) {
    logger.info("source failed", { source_id: row.id, error: code, detail });
    const patch = { status: "failed" as const, error: code, errorDetail: detail.slice(0, 500), fetchedAt: nowIso() };
    await finish(row, actor, patch, captured);
  }

  /** Ingests one source. Throws TransientIngestError when a retry may help and attempts remain. */
  return async function ingest(
    sourceId: string,
    opts: {
      depth: number;
      lastAttempt: boolean;
      provided?: "html" | "markdown";
      captured?: boolean;
      background?: boolean;
    },
  ): Promise<void> {
    const row = await repo.byIdUnscoped(sourceId);
    if (!row) return;
    const actor = systemActor(row.userId, "ingest", opts.depth);
    // HTML the user's browser sent wins over a fetch (even one queued before it arrived). A captured
    // job whose HTML is gone has nothing to do: an earlier run extracted it, and the URL is never fetched.
    const capture = await repo.capture(sourceId);
    if (!capture && opts.captured) return;
    const retryOr = async (code: string, detail: string) => {
      if (!opts.lastAttempt) throw new TransientIngestError(`${code}: ${detail}`);
      await fail(row, actor, code, detail, capture?.createdAt);
    };

    let page: FetchedPage;
    try {
      // An import that carried the page (Omnivore's HTML, our own export's Markdown) is not fetched again.
      page = capture
        ? {
            status: 200,
            url: row.url,
            body: new TextEncoder().encode(capture.html),
            headers: new Headers({ "content-type": "text/html; charset=utf-8" }),
            contentType: "text/html",
          }
        : opts.provided && row.content !== null
          ? {
              status: 200,
              url: row.url,
              body: new TextEncoder().encode(row.content),
              headers: new Headers(),
              contentType: opts.provided === "html" ? "text/html" : "text/markdown",
            }
          : await deps.fetchPage(row.url, { accept: INGEST_CONTENT_TYPES });
    } catch (e) {
      const code = typeof (e as { code?: unknown }).code === "string" ? (e as { code: string }).code : "network_error";
      const detail = e instanceof Error ? e.message : String(e);
      if (TRANSIENT_CODES.has(code)) return retryOr(code, detail);
      return fail(row, actor, code, detail);
    }
    if (page.status >= 400) {
      const code = `http_${page.status}`;
      if (TRANSIENT_STATUS(page.status)) return retryOr(code, `the server answered ${page.status}`);
      return fail(row, actor, code, `the server answered ${page.status}`);
    }
    if (page.status < 200 || page.status >= 300)
      return fail(row, actor, `http_${page.status}`, `unexpected status ${page.status}`);

    let doc: Extracted;
    try {
      doc = await deps.extract(
        { body: page.body, contentType: page.contentType, charset: charsetOf(page.headers), url: page.url },
        { background: opts.background },
      );
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      // A coded failure (too_complex, malformed_pdf, …) is the page's own and would come back the
      // same; anything else is the extractor's trouble (a crashed thread, a pool closed at
      // shutdown), worth another attempt.
      if (typeof (e as { code?: unknown }).code === "string")
        return fail(row, actor, (e as { code: string }).code, detail, capture?.createdAt);
      return retryOr("extraction_failed", detail);
    }
    const media = await archiveImages(sourceId, doc);
    const current = await repo.byIdUnscoped(sourceId);
    await finish(
      row,
      actor,
      {
        status: "ready",
        error: null,
        errorDetail: null,
        finalUrl: page.url,
        contentType: page.contentType,
        title: current?.titleFromUser ? current.title : doc.title?.slice(0, 500) || current?.title || null,
        byline: doc.byline,
        siteName: doc.siteName,
        language: doc.language,
        publishedAt: doc.publishedAt,
        excerpt: doc.excerpt,
        wordCount: doc.wordCount,
        // Same-origin images only: the kept ones at their media addresses, every other one removed.
        content: media?.markdown ?? rewriteImages(doc.markdown, doc.images ?? [], new Map()),
        imageKey: media ? media.thumbnailKey : current?.imageKey,
        fetchedAt: nowIso(),
        capture: capture ? "browser" : "server",
      },
      capture?.createdAt,
      media,
    );
  };
}
export type Ingester = ReturnType<typeof createIngester>;

async function dropBlobs(blobs: BlobStore, keys: readonly string[], logger: Logger): Promise<void> {
  for (const key of keys) {
    try {
      await blobs.delete(key);
    } catch (err) {
      logger.warn("an image blob could not be deleted", { key, error: String(err) });
    }
  }
}
