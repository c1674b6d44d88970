// The fetch pass pages through an import's pending sources by id: the page must be an index range,
// not a sort of every pending source of the import (4 ms per page at 10,000, which made each
// 3 ms slice one entry long and the pass 20 s).
import { expect, test } from "bun:test";
import { createTestContext } from "../../../test/helpers.ts";

test("a page of an import's pending sources is read from the index in id order, without a sort", () => {
  const ctx = createTestContext();
  const plan = ctx.db.sqlite
    .query<{ detail: string }, [string, string]>(
      "EXPLAIN QUERY PLAN SELECT id, url FROM sources WHERE import_id = ? AND status = 'pending' AND id > ? ORDER BY id LIMIT 200",
    )
    .all("imp_1", "")
    .map((r) => r.detail)
    .join(" | ");
  expect(plan).toContain("USING INDEX sources_import (import_id=? AND status=? AND id>?)");
  expect(plan).not.toContain("TEMP B-TREE");
});
