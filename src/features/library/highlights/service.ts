// Highlights: quoted passages of a ready source, anchored in its article text, with a colour and a
// note. Every change records its event (and updates the search index) in the same transaction;
// a refetch re-anchors a source's highlights in the transaction that stores the new text.
import type { Actor } from "../../../actor.ts";
import type { Transactor } from "../../../db/port.ts";
import type { HighlightRow, SourceRow } from "../../../db/schema/index.ts";
import { AppError, invalid, notFound } from "../../../errors.ts";
import { newId } from "../../../ids.ts";
import { mapPage, paginate, walk, type Page, type PageQuery } from "../../../paging.ts";
import type { Clock } from "../../../time.ts";
import type { EventsService } from "../../events/service.ts";
import type { SourcesRepo } from "../sources/repo.ts";
import { anchor, articleText, contextOf, type Position } from "./anchor.ts";
import type { HighlightListFilter, HighlightsRepo, HighlightWithSource } from "./repo.ts";
import type { HighlightCreate, HighlightListQuery, HighlightPublic, HighlightUpdate } from "./schema.ts";

const collapse = (s: string) => s.replace(/\s+/g, " ");

export function toPublicHighlight(r: HighlightWithSource): HighlightPublic {
  const h = r.h;
  return {
    id: h.id,
    source_id: h.sourceId,
    exact: h.exact,
    prefix: h.prefix,
    suffix: h.suffix,
    position: { start: h.startPos, end: h.endPos },
    color: h.color,
    note: h.note,
    orphaned: h.orphaned,
    source: { title: r.title, url: r.url },
    created_at: h.createdAt,
    updated_at: h.updatedAt,
  };
}

/** A highlight with its source's byline, for exports that name the author. */
export type HighlightExportRow = HighlightPublic & { source: { byline: string | null } };

/** The filters of a list, as the service takes them. */
export type HighlightFilter = Omit<HighlightListFilter, "limit" | "before">;

/** The API's and MCP's list query (snake_case, any RFC 3339 offset) as the service takes it. */
export function highlightQuery(q: Omit<HighlightListQuery, "limit" | "cursor">): HighlightFilter {
  return {
    sourceId: q.source_id,
    notebookId: q.notebook_id,
    tag: q.tag,
    createdAfter: q.created_after ? new Date(q.created_after).toISOString() : undefined,
  };
}

/** Hooks run inside the highlight's transaction (the search index keeps itself in step). */
export interface HighlightHooks {
  onSaved: readonly ((row: HighlightRow) => void | Promise<void>)[];
}

export interface HighlightsDeps {
  db: Transactor;
  repo: HighlightsRepo;
  sources: Pick<SourcesRepo, "byId">;
  events: EventsService;
  clock: Clock;
  hooks?: HighlightHooks;
}

export function createHighlightsService(deps: HighlightsDeps) {
  const { db, repo, sources, events, clock } = deps;
  const hooks = deps.hooks ?? { onSaved: [] };
  const nowIso = () => new Date(clock.now()).toISOString();

  async function getRow(actor: Actor, id: string): Promise<HighlightWithSource> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Highlight");
    return row;
  }

  /** The ready source and its article text; refused with the reason a client can act on. */
  async function readySource(actor: Actor, sourceId: string): Promise<{ row: SourceRow; text: string }> {
    const row = await sources.byId(actor.userId, sourceId);
    if (!row) throw invalid("source_id", `source ${sourceId} does not exist`);
    if (row.status !== "ready" || row.content === null)
      throw new AppError("conflict", `source ${sourceId} is ${row.status}: highlights are made in ready sources`);
    return { row, text: articleText(row.content) };
  }

  function place(text: string, input: HighlightCreate): Position {
    const at = anchor(text, {
      exact: input.exact,
      prefix: input.prefix,
      suffix: input.suffix,
      position: input.position,
    });
    if (!at) throw invalid("exact", "is not in the source's article text");
    return at;
  }

  const service = {
    getRow,
    get: async (actor: Actor, id: string): Promise<HighlightPublic> => toPublicHighlight(await getRow(actor, id)),

    async create(actor: Actor, input: HighlightCreate): Promise<HighlightPublic> {
      // The article text is made outside the transaction (a long article takes a while); the
      // transaction checks the content is still the one anchored in.
      let found = await readySource(actor, input.source_id);
      let at = place(found.text, input);
      return db.tx(async () => {
        const current = await readySource(actor, input.source_id);
        if (current.row.content !== found.row.content) {
          found = current;
          at = place(found.text, input);
        }
        const context = contextOf(found.text, at);
        const created = nowIso();
        const row: HighlightRow = {
          id: newId("highlight"),
          userId: actor.userId,
          sourceId: input.source_id,
          exact: found.text.slice(at.start, at.end),
          // Given context is kept with its spaces collapsed (a space next to the quote is part of it).
          prefix: input.prefix ? collapse(input.prefix) : context.prefix,
          suffix: input.suffix ? collapse(input.suffix) : context.suffix,
          startPos: at.start,
          endPos: at.end,
          color: input.color ?? "yellow",
          note: input.note ?? null,
          orphaned: false,
          createdAt: created,
          updatedAt: created,
        };
        await repo.insert(row);
        for (const h of hooks.onSaved) await h(row);
        const out = toPublicHighlight({
          id: row.id,
          h: row,
          title: found.row.title,
          url: found.row.url,
          byline: found.row.byline,
        });
        await events.record(actor, "highlight.created", out);
        return out;
      });
    },

    async list(actor: Actor, q: PageQuery & HighlightFilter): Promise<Page<HighlightPublic>> {
      const { limit, cursor, ...filters } = q;
      const page = await paginate(limit, cursor, (o) => repo.list(actor.userId, { ...filters, ...o }));
      return mapPage(page, (rows) => rows.map(toPublicHighlight));
    },

    /** Every highlight matching the filters, newest first, with the source's byline (exports). */
    async *all(actor: Actor, filters: HighlightFilter = {}): AsyncGenerator<HighlightExportRow> {
      yield* walk(async (cursor) => {
        const page = await paginate(100, cursor, (o) => repo.list(actor.userId, { ...filters, ...o }));
        return mapPage(page, (rows) =>
          rows.map((r) => {
            const p = toPublicHighlight(r);
            return { ...p, source: { ...p.source, byline: r.byline } };
          }),
        );
      });
    },

    /** All highlights of one of the actor's sources, in text order (the reader marks them). */
    async forSource(actor: Actor, sourceId: string): Promise<HighlightPublic[]> {
      if (!(await sources.byId(actor.userId, sourceId))) throw notFound("Source");
      return (await repo.ofSource(actor.userId, sourceId)).map(toPublicHighlight);
    },

    async update(actor: Actor, id: string, input: HighlightUpdate): Promise<HighlightPublic> {
      return db.tx(async () => {
        const current = await getRow(actor, id);
        const before = toPublicHighlight(current);
        const patch: Partial<HighlightRow> = { updatedAt: nowIso() };
        if (input.color !== undefined) patch.color = input.color;
        if (input.note !== undefined) patch.note = input.note;
        await repo.update(actor.userId, id, patch);
        const after = await getRow(actor, id);
        if (input.note !== undefined) for (const h of hooks.onSaved) await h(after.h);
        const out = toPublicHighlight(after);
        await events.record(actor, "highlight.updated", out, before);
        return out;
      });
    },

    async delete(actor: Actor, id: string): Promise<HighlightPublic> {
      return db.tx(async () => {
        const before = toPublicHighlight(await getRow(actor, id));
        // The search index drops its chunks by trigger, in this transaction.
        await repo.delete(actor.userId, id);
        await events.record(actor, "highlight.deleted", before);
        return before;
      });
    },

    /**
     * Call inside the transaction that stored a source's new content: each highlight found again
     * takes its new position (and is no longer orphaned); one not found is kept, flagged orphaned.
     */
    async reanchor(source: SourceRow): Promise<void> {
      const list = await repo.ofSource(source.userId, source.id);
      if (list.length === 0) return;
      const text = articleText(source.content ?? "");
      for (const { h } of list) {
        const at = anchor(text, {
          exact: h.exact,
          prefix: h.prefix,
          suffix: h.suffix,
          position: { start: h.startPos, end: h.endPos },
        });
        const patch: Partial<HighlightRow> = at
          ? { startPos: at.start, endPos: at.end, orphaned: false }
          : { orphaned: true };
        const same = at ? at.start === h.startPos && at.end === h.endPos && !h.orphaned : h.orphaned;
        if (!same) await repo.update(source.userId, h.id, patch);
      }
    },
  };
  return service;
}
export type HighlightsService = ReturnType<typeof createHighlightsService>;
