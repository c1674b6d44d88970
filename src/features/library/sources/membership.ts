// A source's place in notebooks: added (one or many in one transaction) and removed. Each change
// records `source.updated` with the source before and after.
import type { Actor } from "../../../actor.ts";
import type { Transactor } from "../../../db/port.ts";
import type { SourceRow } from "../../../db/schema/index.ts";
import { invalid, notFound } from "../../../errors.ts";
import type { EventsService } from "../../events/service.ts";
import type { NotebooksRepo } from "../notebooks/repo.ts";
import type { SourcesRepo } from "./repo.ts";
import type { SourcePublic } from "./schema.ts";

export interface MembershipDeps {
  db: Transactor;
  repo: SourcesRepo;
  notebooks: NotebooksRepo;
  events: EventsService;
  nowIso: () => string;
  get: (actor: Actor, id: string) => Promise<SourceRow>;
  publicOf: (row: SourceRow) => Promise<SourcePublic>;
}

export function createNotebookMembership(deps: MembershipDeps) {
  const { db, repo, notebooks, events, nowIso, get, publicOf } = deps;
  return {
    async addToNotebook(actor: Actor, notebookId: string, sourceId: string): Promise<SourcePublic> {
      return db.tx(async () => {
        if ((await notebooks.existingIds(actor.userId, [notebookId])).size === 0) throw notFound("Notebook");
        const row = await get(actor, sourceId);
        const before = await publicOf(row);
        if (!(await repo.link(notebookId, sourceId, nowIso()))) return before;
        await repo.update(sourceId, { updatedAt: nowIso() });
        const after = await publicOf((await repo.byIdUnscoped(sourceId))!);
        await events.record(actor, "source.updated", after, before);
        return after;
      });
    },

    /**
     * Adds many sources to a notebook in one transaction (those already there are left as they are).
     * An id that is not one of the owner's sources fails the whole call, naming its place in the list.
     * Returns the ids newly added.
     */
    async addManyToNotebook(
      actor: Actor,
      notebookId: string,
      sourceIds: string[],
      field = "source_ids",
    ): Promise<string[]> {
      return db.tx(async () => {
        if ((await notebooks.existingIds(actor.userId, [notebookId])).size === 0) throw notFound("Notebook");
        const ids = [...new Set(sourceIds)];
        const rows = new Map((await repo.byIds(actor.userId, ids)).map((r) => [r.id, r]));
        sourceIds.forEach((id, i) => {
          if (!rows.has(id)) throw invalid(`${field}[${i}]`, `source ${id} does not exist`);
        });
        const at = nowIso();
        const added: string[] = [];
        for (const id of ids) {
          const before = await publicOf(rows.get(id)!);
          if (!(await repo.link(notebookId, id, at))) continue;
          await repo.update(id, { updatedAt: at });
          await events.record(actor, "source.updated", await publicOf((await repo.byIdUnscoped(id))!), before);
          added.push(id);
        }
        return added;
      });
    },

    async removeFromNotebook(actor: Actor, notebookId: string, sourceId: string): Promise<SourcePublic> {
      return db.tx(async () => {
        if ((await notebooks.existingIds(actor.userId, [notebookId])).size === 0) throw notFound("Notebook");
        const row = await get(actor, sourceId);
        const before = await publicOf(row);
        if (!(await repo.unlink(notebookId, sourceId))) throw notFound("Source in this notebook");
        await repo.update(sourceId, { updatedAt: nowIso() });
        const after = await publicOf((await repo.byIdUnscoped(sourceId))!);
        await events.record(actor, "source.updated", after, before);
        return after;
      });
    },
  };
}
