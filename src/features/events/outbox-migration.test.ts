// Migration 0011 turns the dispatch cursor into per-event state: what the cursor passed (and what can
// never trigger) counts as dispatched, what came after it stays pending for the next claim.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { migrations } from "../../../db/migrations/index.ts";

test("events after the old cursor stay pending; those at or before it, and run events, are dispatched", () => {
  const sqlite = new Database(":memory:", { strict: true });
  const upTo = migrations.findIndex((m) => m.name === "0011_events_outbox_claims");
  expect(upTo).toBeGreaterThan(0);
  for (const m of migrations.slice(0, upTo)) sqlite.exec(m.sql);
  const add = sqlite.query(
    "INSERT INTO events (id, user_id, type, occurred_at, data, depth) VALUES (?, 'usr_1', ?, '2030-01-01T00:00:00.000Z', '{}', 0)",
  );
  for (const [id, type] of [
    ["e1", "source.created"],
    ["e2", "note.created"],
    ["e3", "source.updated"],
    ["e4", "run.started"],
    ["e5", "podcast.deleted"],
  ])
    add.run(id!, type!);
  sqlite.exec("UPDATE workflow_dispatch SET last_seq = 2");
  sqlite.exec(migrations[upTo]!.sql);
  const rows = sqlite
    .query<{ id: string; pending: number }, []>("SELECT id, dispatched_at IS NULL AS pending FROM events ORDER BY seq")
    .all();
  expect(rows).toEqual([
    { id: "e1", pending: 0 },
    { id: "e2", pending: 0 },
    { id: "e3", pending: 1 },
    { id: "e4", pending: 0 },
    { id: "e5", pending: 1 },
  ]);
  expect(sqlite.query("SELECT name FROM sqlite_master WHERE name = 'workflow_dispatch'").get()).toBeNull();
  const plan = sqlite
    .query<{ detail: string }, []>(
      "EXPLAIN QUERY PLAN SELECT seq FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT 10",
    )
    .all();
  expect(plan.map((p) => p.detail).join(" ")).toContain("events_pending");
});
