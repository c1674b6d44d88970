// SQL for the events outbox.
import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { Orm } from "../../db/client.ts";
import { events, type EventRow } from "../../db/schema/index.ts";

export function createEventsRepo(orm: Orm) {
  const latest = orm.select({ seq: sql<number | null>`max(${events.seq})` }).from(events).prepare();
  const afterForUser = orm
    .select()
    .from(events)
    .where(and(eq(events.userId, sql.placeholder("userId")), gt(events.seq, sql.placeholder("seq"))))
    .orderBy(asc(events.seq))
    .limit(sql.placeholder("limit"))
    .prepare();
  // Prepared once: every change records an event, and an import records thousands in a row.
  const ph = (name: string) => sql.placeholder(name);
  const insertStmt = orm
    .insert(events)
    .values({ id: ph("id"), userId: ph("userId"), type: ph("type"), occurredAt: ph("occurredAt"), data: ph("data"), previous: ph("previous"), depth: ph("depth") })
    .returning({ seq: events.seq })
    .prepare();
  return {
    insert(row: Omit<EventRow, "seq">): number {
      const r = insertStmt.get(row);
      return r!.seq;
    },
    after(seq: number, limit: number): EventRow[] {
      return orm.select().from(events).where(gt(events.seq, seq)).orderBy(asc(events.seq)).limit(limit).all();
    },
    /** Uses the (user_id, seq) index: a resume reads only this user's rows. */
    afterForUser(userId: string, seq: number, limit: number): EventRow[] {
      return afterForUser.all({ userId, seq, limit });
    },
    latestSeq(): number {
      return latest.get()?.seq ?? 0;
    },
    forUser(userId: string, opts: { limit: number; beforeSeq?: number; type?: string }): EventRow[] {
      const conds = [eq(events.userId, userId)];
      if (opts.beforeSeq !== undefined) conds.push(lt(events.seq, opts.beforeSeq));
      if (opts.type) conds.push(eq(events.type, opts.type));
      return orm.select().from(events).where(and(...conds)).orderBy(desc(events.seq)).limit(opts.limit).all();
    },
  };
}
export type EventsRepo = ReturnType<typeof createEventsRepo>;
