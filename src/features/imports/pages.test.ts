// The fetch pass pages through an import's pending sources by id: the page must be an index range,
// not a sort of every pending source of the import (4 ms per page at 10,000, which made each
// 3 ms slice one entry long and the pass 20 s).
import { expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";

const PAGE =
  "SELECT id, url FROM sources WHERE import_id = 'imp_1' AND status = 'pending' AND id > '' ORDER BY id LIMIT 200";

test("a page of an import's pending sources is read from the index in id order, without a sort", async () => {
  const db = openTestDatabase();
  if (db.engine === "postgres") {
    // PostgreSQL: an empty table is cheapest to scan, so the planner is told to avoid that; the plan must
    // then be a range of the partial index, already in id order (no Sort node).
    const pg = db.pg;
    const plan = await pg.tx(() =>
      pg.query(async (c) => {
        await c.sql`SET LOCAL enable_seqscan = off`;
        const rows = await c.sql.unsafe(`EXPLAIN ${PAGE}`);
        return rows.map((r) => String(r["QUERY PLAN"])).join(" | ");
      }),
    );
    expect(plan).toContain("Index Scan using sources_import on sources");
    expect(plan).not.toContain("Sort");
  } else {
    const plan = db.sqlite
      .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${PAGE}`)
      .all()
      .map((r) => r.detail)
      .join(" | ");
    expect(plan).toContain("USING INDEX sources_import (import_id=? AND status=? AND id>?)");
    expect(plan).not.toContain("TEMP B-TREE");
  }
  db.close();
});
