// Sources: save a link (deduplicated on its normalised URL), read, update, delete, refetch.
// Every change writes its event and its ingestion job in the same transaction.
import type { Transactor } from "../../../db/port.ts";
import { mapPage, paginate, type Page } from "../../../paging.ts";
import type { SourceRow } from "../../../db/schema/index.ts";
import { AppError, invalid, notFound } from "../../../errors.ts";
import { newId } from "../../../ids.ts";
import { Type } from "@sinclair/typebox";
import type { JobEnqueuer } from "../../../jobs/port.ts";
import { defineJob } from "../../../jobs/types.ts";
import type { Clock } from "../../../time.ts";
import type { Actor } from "../../../actor.ts";
import type { EventsService } from "../../events/service.ts";
import type { NotebooksRepo } from "../notebooks/repo.ts";
import { normalizeUrl, parseHttpUrl } from "./normalize.ts";
import type { SourceListFilter, SourcesRepo } from "./repo.ts";
import { DEFAULT_CAPTURE_MAX_HTML_BYTES, type SourceCreate, type SourcePublic, type SourceUpdate } from "./schema.ts";
import { checkCursor, cursorKey, type SourcePageQuery } from "./list-query.ts";
import type { BlobBody, BlobStore } from "../../../blobs/port.ts";
import type { SourceImagesRepo } from "./images-repo.ts";
import { type EmbeddingProgress, parseTags, toPublicSource } from "./public.ts";
import { createNotebookMembership } from "./membership.ts";
import { createTagOps } from "./tag-ops.ts";

/** A kept image of a source, ready to be served. */
export interface SourceMediaFile {
  name: string;
  contentType: string;
  size: number;
  open(): Promise<BlobBody>;
}

export const INGEST_JOB = defineJob(
  "source.ingest",
  Type.Object({
    source_id: Type.String(),
    depth: Type.Integer({ minimum: 0 }),
    /** The browser sent the page (source_captures): extract that, never fetch. */
    captured: Type.Optional(Type.Boolean()),
  }),
);
/** Ingestion of imported links: a capped background lane of the job queue. */
export const INGEST_IMPORT_JOB = defineJob(
  "source.ingest_import",
  Type.Object({
    source_id: Type.String(),
    depth: Type.Integer({ minimum: 0 }),
    provided: Type.Optional(Type.Union([Type.Literal("html"), Type.Literal("markdown")])),
  }),
);

export interface SourcesDeps {
  db: Transactor;
  repo: SourcesRepo;
  notebooks: NotebooksRepo;
  events: EventsService;
  jobs: JobEnqueuer;
  clock: Clock;
  /** Run inside the transaction when a ready source's title or tags change (the search index takes them in). */
  onReindex?: readonly ((row: SourceRow) => void | Promise<void>)[];
  /** How far each source's embedding has got (search answers); without it the field is left out. */
  embeddingProgress?: EmbeddingProgress;
  /** The most bytes of HTML a save may carry (CAPTURE_MAX_HTML_BYTES). */
  maxHtmlBytes?: number;
  /** The archived copy's images: served, and deleted with their source. */
  media?: { repo: SourceImagesRepo; blobs: BlobStore };
}

export function createSourcesService(deps: SourcesDeps) {
  const { db, repo, notebooks, events, jobs, clock, embeddingProgress } = deps;
  const maxHtmlBytes = deps.maxHtmlBytes ?? DEFAULT_CAPTURE_MAX_HTML_BYTES;
  const nowIso = () => new Date(clock.now()).toISOString();

  /** The page the browser sent waits for the ingestion job, which extracts it instead of fetching. */
  async function enqueueCapture(actor: Actor, id: string, html: string, at: string): Promise<void> {
    await repo.putCapture(id, html, at);
    await jobs.enqueue(
      INGEST_JOB,
      { source_id: id, depth: actor.depth ?? 0, captured: true },
      { idempotencyKey: `${id}:capture:${at}` },
    );
  }

  async function publicOf(row: SourceRow, includeContent = false): Promise<SourcePublic> {
    const progress = embeddingProgress ? ((await embeddingProgress([row.id])).get(row.id) ?? null) : undefined;
    return toPublicSource(row, (await repo.notebookIds([row.id])).get(row.id) ?? [], includeContent, progress);
  }

  async function requireNotebooks(actor: Actor, ids: string[] | undefined, field = "notebook_ids"): Promise<string[]> {
    const list = ids ?? [];
    const found = await notebooks.existingIds(actor.userId, list);
    list.forEach((id, i) => {
      if (!found.has(id)) throw invalid(`${field}[${i}]`, `notebook ${id} does not exist`);
    });
    return list;
  }

  /** One page of rows; the cursor's key must match the sort (checkCursor), sorted by saved time it is "saved_at|id". */
  function pageRows(
    actor: Actor,
    limit: number,
    cursor: string | undefined,
    filters: Omit<SourceListFilter, "limit" | "before">,
  ): Promise<Page<SourceRow>> {
    return paginate(
      limit,
      cursor,
      async (o) => {
        const f = { ...filters, ...o };
        checkCursor(f);
        return repo.list(actor.userId, f);
      },
      (row) => cursorKey(row, filters.sort),
    );
  }

  async function get(actor: Actor, id: string): Promise<SourceRow> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Source");
    return row;
  }

  /**
   * Every change of a title or tags goes through here, whoever made it (PATCH, an import merging tags):
   * a ready source is indexed again in the same transaction, so search finds the new words and not the
   * old. A pending source is indexed when it becomes ready, from the row as it is then.
   */
  async function indexedFieldsChanged(before: SourceRow, after: SourceRow): Promise<void> {
    if (after.status !== "ready" || (after.title === before.title && after.tags === before.tags)) return;
    for (const h of deps.onReindex ?? []) await h(after);
  }

  /** A source's image by name, for its owner only: another owner's source is simply not found. */
  async function mediaFile(actor: Actor, id: string, name: string): Promise<SourceMediaFile> {
    const media = deps.media;
    const row = media ? await media.repo.byName(actor.userId, id, name) : undefined;
    if (!media || !row) throw notFound("Image");
    return {
      name: row.name,
      contentType: row.contentType,
      size: row.bytes,
      async open() {
        const body = await media.blobs.get(row.blobKey);
        if (!body) throw notFound("Image");
        return body;
      },
    };
  }

  return {
    ...createTagOps({ db, repo, events, nowIso, publicOf, indexedFieldsChanged }),
    ...createNotebookMembership({ db, repo, notebooks, events, nowIso, get, publicOf }),
    get,
    publicOf,
    indexedFieldsChanged,
    mediaFile,

    /** The card thumbnail of a source; 404 when it has none. */
    async thumbnail(actor: Actor, id: string): Promise<SourceMediaFile> {
      const row = await get(actor, id);
      const name = row.imageKey?.split("/").pop();
      if (!name) throw notFound("Image");
      return mediaFile(actor, id, name);
    },

    /** Returns the source and whether it was created (201) or already saved (200). */
    async create(actor: Actor, input: SourceCreate): Promise<{ source: SourcePublic; created: boolean }> {
      const parsed = parseHttpUrl(input.url);
      if (!parsed.ok) throw invalid("url", parsed.message);
      const normalized = normalizeUrl(parsed.url);
      const html = input.html;
      if (html !== undefined && Buffer.byteLength(html, "utf8") > maxHtmlBytes)
        throw invalid("html", `must be at most ${maxHtmlBytes} bytes of UTF-8 (CAPTURE_MAX_HTML_BYTES)`);
      return db.tx(async () => {
        // Checked inside the transaction: a notebook deleted meanwhile would fail the link's foreign key (500).
        const notebookIds = await requireNotebooks(actor, input.notebook_ids);
        const tags = [...new Set((input.tags ?? []).map((x) => x.trim()).filter(Boolean))];
        const at = nowIso();
        const alreadySaved = async (existing: SourceRow) => {
          const before = await publicOf(existing);
          let changed = false;
          for (const nb of notebookIds) changed = (await repo.link(nb, existing.id, at)) || changed;
          const had = parseTags(existing.tags);
          const merged = [...had, ...tags.filter((x) => !had.includes(x))].slice(0, 100);
          if (merged.length !== had.length) {
            await repo.update(existing.id, { tags: JSON.stringify(merged) });
            changed = true;
          }
          // New HTML from the browser replaces the content: the source is pending until it is extracted.
          if (html !== undefined) await enqueueCapture(actor, existing.id, html, at);
          if (!changed && html === undefined) return { source: before, created: false };
          await repo.update(
            existing.id,
            html === undefined
              ? { updatedAt: at }
              : { updatedAt: at, status: "pending", error: null, errorDetail: null },
          );
          const updated = (await repo.byIdUnscoped(existing.id))!;
          const after = await publicOf(updated);
          await events.record(actor, "source.updated", after, before);
          await indexedFieldsChanged(existing, updated);
          return { source: after, created: false };
        };
        const existing = await repo.byNormalizedUrl(actor.userId, normalized);
        if (existing) return alreadySaved(existing);
        const id = newId("source");
        // Another request may save the same address between the read above and this insert (PostgreSQL
        // runs them in parallel; SQLite's single writer never does): it only inserts if still new.
        const inserted = await repo.insertIfNew({
          id,
          userId: actor.userId,
          url: parsed.url.href,
          normalizedUrl: normalized,
          title: input.title?.trim() || null,
          titleFromUser: Boolean(input.title?.trim()),
          status: "pending",
          generateQuickPodcast: input.generate_quick_podcast ?? false,
          podcastFormat: input.podcast_format ?? (input.generate_quick_podcast ? "deep_dive" : null),
          tags: JSON.stringify(tags),
          savedAt: at,
          createdAt: at,
          updatedAt: at,
        });
        if (!inserted) return alreadySaved((await repo.byNormalizedUrl(actor.userId, normalized))!);
        for (const nb of notebookIds) await repo.link(nb, id, at);
        const source = await publicOf((await repo.byIdUnscoped(id))!);
        await events.record(actor, "source.created", source);
        if (html !== undefined) await enqueueCapture(actor, id, html, at);
        else await jobs.enqueue(INGEST_JOB, { source_id: id, depth: actor.depth ?? 0 }, { idempotencyKey: `${id}:0` });
        return { source, created: true };
      });
    },

    async check(actor: Actor, rawUrl: string) {
      const parsed = parseHttpUrl(rawUrl);
      if (!parsed.ok) throw invalid("query.url", parsed.message);
      const normalized = normalizeUrl(parsed.url);
      const existing = await repo.byNormalizedUrl(actor.userId, normalized);
      return {
        url: parsed.url.href,
        normalized_url: normalized,
        saved: Boolean(existing),
        source_id: existing?.id ?? null,
      };
    },

    async list(actor: Actor, q: SourcePageQuery): Promise<Page<SourcePublic>> {
      const { limit, cursor, ...filters } = q;
      if (filters.notebookId && (await notebooks.existingIds(actor.userId, [filters.notebookId])).size === 0)
        return { data: [], next_cursor: null };
      return mapPage(await pageRows(actor, limit, cursor, { ...filters, withoutText: true }), async (rows) => {
        const links = await repo.notebookIds(rows.map((r) => r.id));
        const progress = await embeddingProgress?.(rows.map((r) => r.id));
        return rows.map((r) =>
          toPublicSource(r, links.get(r.id) ?? [], false, progress ? (progress.get(r.id) ?? null) : undefined),
        );
      });
    },

    /** How many sources each triage view holds, for the library's tabs. */
    viewCounts(actor: Actor) {
      return repo.viewCounts(actor.userId);
    },

    /** A page with the extracted Markdown of each (the account export); notebook links read in one query. */
    async listWithContent(actor: Actor, q: SourcePageQuery): Promise<Page<SourcePublic>> {
      const { limit, cursor, ...filters } = q;
      return mapPage(await pageRows(actor, limit, cursor, filters), async (rows) => {
        const links = await repo.notebookIds(rows.map((r) => r.id));
        return rows.map((r) => toPublicSource(r, links.get(r.id) ?? [], true));
      });
    },

    async listRows(actor: Actor, f: SourceListFilter): Promise<SourceRow[]> {
      checkCursor(f);
      return repo.list(actor.userId, f);
    },

    async update(actor: Actor, id: string, input: SourceUpdate): Promise<SourcePublic> {
      return db.tx(async () => {
        const row = await get(actor, id);
        const before = await publicOf(row);
        const patch: Partial<SourceRow> = { updatedAt: nowIso() };
        if (input.title !== undefined) {
          patch.title = input.title === null ? null : input.title.trim();
          patch.titleFromUser = input.title !== null;
        }
        if (input.generate_quick_podcast !== undefined) patch.generateQuickPodcast = input.generate_quick_podcast;
        if (input.podcast_format !== undefined) patch.podcastFormat = input.podcast_format;
        if (input.tags !== undefined) patch.tags = JSON.stringify(input.tags.map((x) => x.trim()).filter(Boolean));
        if (input.suggested_tags !== undefined)
          patch.suggestedTags = JSON.stringify(input.suggested_tags.map((x) => x.trim()).filter(Boolean));
        if (input.archived !== undefined) patch.archived = input.archived;
        if (input.favorite !== undefined) patch.favorite = input.favorite;
        if (input.progress !== undefined) {
          patch.progress = input.progress;
          if (input.progress >= 1 && row.readAt === null) patch.readAt = patch.updatedAt;
        }
        if (input.read === true && row.readAt === null) {
          patch.readAt = patch.updatedAt;
          if (input.progress === undefined) patch.progress = 1;
        }
        if (input.read === false) {
          patch.readAt = null;
          if (input.progress === undefined) patch.progress = 0;
        }
        // Progress is saved as the reader scrolls, and suggestions are advice the server adds after
        // ingestion: alone they neither move updated_at nor record an event (workflows on
        // source.updated would fire on every scroll); finishing, or taking a suggested tag, does both.
        const quiet =
          Object.keys(input).every((k) => k === "progress" || k === "suggested_tags") && patch.readAt === undefined;
        if (quiet) {
          const q: Partial<SourceRow> = {};
          if (input.progress !== undefined) q.progress = input.progress;
          if (patch.suggestedTags !== undefined) q.suggestedTags = patch.suggestedTags;
          await repo.update(id, q);
          return publicOf((await repo.byIdUnscoped(id))!);
        }
        await repo.update(id, patch);
        const updated = (await repo.byIdUnscoped(id))!;
        const after = await publicOf(updated);
        await events.record(actor, "source.updated", after, before);
        await indexedFieldsChanged(row, updated);
        // A cleared user title falls back to the extracted one on the next fetch.
        if (input.title === null && row.status === "ready") {
          await jobs.enqueue(
            INGEST_JOB,
            { source_id: id, depth: actor.depth ?? 0 },
            { idempotencyKey: `${id}:${after.updated_at}` },
          );
        }
        return after;
      });
    },

    /** Sources whose title or address contains the text, newest first: the pickers' search. */
    async find(
      actor: Actor,
      text: string,
      limit: number,
    ): Promise<{ id: string; title: string | null; url: string }[]> {
      const q = text.trim();
      return q ? repo.findByText(actor.userId, q.slice(0, 200), limit) : [];
    },

    /** Title and address of the owner's sources among these ids (unknown ids are left out). */
    async titlesOf(actor: Actor, ids: string[]): Promise<{ id: string; title: string | null; url: string }[]> {
      return (await repo.byIds(actor.userId, ids)).map((r) => ({ id: r.id, title: r.title, url: r.url }));
    },

    async delete(actor: Actor, id: string): Promise<SourcePublic> {
      return db.tx(async () => {
        const before = await publicOf(await get(actor, id));
        const media = deps.media;
        const keys = media ? await media.repo.keys(id) : [];
        await repo.delete(actor.userId, id);
        await events.record(actor, "source.deleted", before);
        // The archived copy's images go with it, once the deletion has committed.
        if (media && keys.length > 0)
          db.afterCommit(() => {
            void Promise.all(keys.map((k) => media.blobs.delete(k).catch(() => undefined)));
          });
        return before;
      });
    },

    async refetch(actor: Actor, id: string): Promise<SourcePublic> {
      return db.tx(async () => {
        const row = await get(actor, id);
        if (row.status === "pending") throw new AppError("conflict", "This source is already being fetched");
        const before = await publicOf(row);
        const at = nowIso();
        await repo.update(id, { status: "pending", error: null, errorDetail: null, updatedAt: at });
        const after = await publicOf((await repo.byIdUnscoped(id))!);
        await events.record(actor, "source.updated", after, before);
        await jobs.enqueue(INGEST_JOB, { source_id: id, depth: actor.depth ?? 0 }, { idempotencyKey: `${id}:${at}` });
        return after;
      });
    },
  };
}
export type SourcesService = ReturnType<typeof createSourcesService>;
