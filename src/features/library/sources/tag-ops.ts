// The owner's tags across their sources: counted, renamed (merging onto an existing name) and
// deleted. Each source a change touches records `source.updated` and is indexed again, as an edit by hand.
import type { Actor } from "../../../actor.ts";
import type { Transactor } from "../../../db/port.ts";
import type { SourceRow } from "../../../db/schema/index.ts";
import { invalid, notFound } from "../../../errors.ts";
import type { EventsService } from "../../events/service.ts";
import { parseTags } from "./public.ts";
import type { SourcesRepo } from "./repo.ts";
import type { SourcePublic } from "./schema.ts";

export interface TagOpsDeps {
  db: Transactor;
  repo: SourcesRepo;
  events: EventsService;
  nowIso: () => string;
  publicOf: (row: SourceRow) => Promise<SourcePublic>;
  indexedFieldsChanged: (before: SourceRow, after: SourceRow) => Promise<void>;
}

export function createTagOps(deps: TagOpsDeps) {
  const { db, repo, events, nowIso, publicOf, indexedFieldsChanged } = deps;

  async function retag(actor: Actor, tag: string, change: (tags: string[]) => string[]): Promise<number> {
    return db.tx(async () => {
      const rows = await repo.taggedRows(actor.userId, tag);
      if (rows.length === 0) throw notFound("Tag");
      const at = nowIso();
      for (const r of rows) {
        const row = (await repo.byIdUnscoped(r.id))!;
        const before = await publicOf(row);
        await repo.update(r.id, { tags: JSON.stringify(change(parseTags(row.tags))), updatedAt: at });
        const updated = (await repo.byIdUnscoped(r.id))!;
        await events.record(actor, "source.updated", await publicOf(updated), before);
        await indexedFieldsChanged(row, updated);
      }
      return rows.length;
    });
  }

  return {
    /** Every tag of the owner's library with how many sources carry it, most used first. */
    async tagCounts(actor: Actor, prefix?: string): Promise<{ name: string; count: number }[]> {
      const counts = new Map<string, number>();
      for (const r of await repo.taggedRows(actor.userId)) {
        for (const tag of parseTags(r.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      }
      const p = prefix?.toLocaleLowerCase();
      return [...counts]
        .filter(([name]) => p === undefined || name.toLocaleLowerCase().includes(p))
        .map(([name, count]) => ({ name, count }))
        .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    },

    /**
     * Renames a tag on every source carrying it; a source that already carries the new name keeps it
     * once (so renaming onto an existing tag merges the two). Each changed source records
     * `source.updated` and is indexed again, like an edit by hand. Returns how many sources changed.
     */
    async renameTag(actor: Actor, from: string, to: string): Promise<number> {
      const next = to.trim();
      if (!next) throw invalid("name", "must not be blank");
      return retag(actor, from, (tags) => [...new Set(tags.map((t) => (t === from ? next : t)))]);
    },

    /** Takes a tag off every source carrying it (the sources stay). Returns how many changed. */
    async deleteTag(actor: Actor, name: string): Promise<number> {
      return retag(actor, name, (tags) => tags.filter((t) => t !== name));
    },
  };
}
