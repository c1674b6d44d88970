// BM25 on PostgreSQL (PostgreSQL lane only): the per-owner statistics kept as chunk_stats deltas equal
// counting the owner's chunks through inserts, replaces, removes and folds, also with two pools writing
// one owner's chunks at once; and the term frequency read with ts_rank_cd equals counting positions.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../../config.ts";
import type { EngineDb } from "../../db/client.ts";
import { closeDatabase, openSharedDatabase, sharedTestDatabase } from "../../jobs/testing.ts";
import { createChunksPgRepo, STATS_FOLD_AT } from "./chunks-pg-repo.ts";
import { ftsExpression } from "./query.ts";
import { asPostgres } from "../../db/client.ts";

const url = databaseUrl();
const opened: EngineDb[] = [];
afterAll(async () => {
  await Promise.all(opened.splice(0).map((d) => closeDatabase(d).catch(() => {})));
});

async function pools(n: number): Promise<EngineDb[]> {
  const { location } = sharedTestDatabase();
  const first = openSharedDatabase(location, { poolSize: 4 });
  await first.ready;
  const dbs = [first, ...Array.from({ length: n - 1 }, () => openSharedDatabase(location, { poolSize: 4 }))];
  opened.push(...dbs);
  return dbs;
}

const chunk = (text: string, index = 0, heading: string | null = null) => ({
  index,
  text,
  start: 0,
  end: text.length,
  heading,
  tokenCount: text.split(" ").length,
});

/** The owner's statistics as the deltas say, and as counting the chunks says. */
async function stats(db: EngineDb, userId: string) {
  const sql = asPostgres(db).sql;
  const [deltas] = await sql<{ n: number; tokens: number; rows: number }[]>`
    SELECT coalesce(sum(chunks), 0)::int n, coalesce(sum(tokens), 0)::int tokens, count(*)::int "rows"
    FROM chunk_stats WHERE user_id = ${userId}`;
  const [counted] = await sql<{ n: number; tokens: number }[]>`
    SELECT count(*)::int n, coalesce(sum(doc_len), 0)::int tokens FROM chunks WHERE user_id = ${userId}`;
  return { deltas: { n: deltas!.n, tokens: deltas!.tokens }, counted: counted!, rows: deltas!.rows };
}

describe.skipIf(!url)("BM25 statistics on PostgreSQL", () => {
  test("the deltas equal counting the owner's chunks through inserts, replaces and removes; other owners apart", async () => {
    const [db] = await pools(1);
    const repo = createChunksPgRepo(asPostgres(db!));
    const doc = (id: string, userId = "usr_a") => ({ type: "source" as const, id, userId, title: `Title of ${id}` });
    await repo.replace(doc("one"), [chunk("tide pools at low water", 0, "Shore"), chunk("more about tides", 1)]);
    await repo.replace(doc("two"), [chunk("harbour tide tables")]);
    await repo.replace(doc("theirs", "usr_b"), [chunk("someone else's tide notes and more words")]);
    let a = await stats(db!, "usr_a");
    expect(a.deltas).toEqual(a.counted);
    expect(a.counted.n).toBe(3);
    await repo.replace(doc("one"), [chunk("a shorter first document")]);
    await repo.remove("source", "two");
    a = await stats(db!, "usr_a");
    expect(a.deltas).toEqual(a.counted);
    expect(a.counted.n).toBe(1);
    const b = await stats(db!, "usr_b");
    expect(b.deltas).toEqual(b.counted);
    expect(b.counted.n).toBe(1);
    // Folding leaves one row with the same sums.
    await repo.foldStats("usr_a");
    a = await stats(db!, "usr_a");
    expect(a.rows).toBe(1);
    expect(a.deltas).toEqual(a.counted);
  });

  test("a search folds an owner's deltas once they pile up, and ranks the same before and after", async () => {
    const [db] = await pools(1);
    const repo = createChunksPgRepo(asPostgres(db!));
    for (let i = 0; i <= STATS_FOLD_AT; i++) {
      await repo.replace({ type: "source", id: `d${i}`, userId: "usr_a", title: "" }, [
        chunk(i % 7 === 0 ? `lighthouse keeper log ${i}` : `garden notes number ${i}`),
      ]);
    }
    const before = await stats(db!, "usr_a");
    expect(before.rows).toBeGreaterThan(STATS_FOLD_AT);
    const match = ftsExpression("lighthouse keeper")!;
    const first = await repo.fts("usr_a", match, { limit: 10 });
    expect(first.length).toBe(10);
    await repo.foldsSettled(); // the fold runs beside the search
    const after = await stats(db!, "usr_a");
    expect(after.rows).toBe(1);
    expect(after.deltas).toEqual(after.counted);
    expect(await repo.fts("usr_a", match, { limit: 10 })).toEqual(first);
  });

  test("two pools writing one owner's chunks at once: every write commits and the sums stay exact", async () => {
    const dbs = await pools(2);
    const repos = dbs.map((d) => createChunksPgRepo(asPostgres(d)));
    await Promise.all(
      repos.map((repo, p) =>
        Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            dbs[p]!.tx(() =>
              repo.replace({ type: "source", id: `p${p}_${i}`, userId: "usr_a", title: "t" }, [
                chunk(`words of pool ${p} document ${i}`),
                chunk("and a second chunk", 1),
              ]),
            ),
          ),
        ),
      ),
    );
    await repos[0]!.foldStats("usr_a");
    const a = await stats(dbs[0]!, "usr_a");
    expect(a.counted.n).toBe(80);
    expect(a.deltas).toEqual(a.counted);
  });

  test("ts_rank_cd with one lexeme and label weights equals the weighted count of its positions", async () => {
    const [db] = await pools(1);
    const repo = createChunksPgRepo(asPostgres(db!));
    await repo.replace({ type: "source", id: "d", userId: "usr_a", title: "Owls and owl pellets" }, [
      chunk("owls hunt at night; an owl hunts mice, owls nest in barns", 0, "Owls of the barn"),
      chunk("nothing about birds here, only barns and barn doors and a barn roof", 1, "Barns"),
    ]);
    const rows = await asPostgres(db!).sql<{ lexeme: string; counted: number; ranked: number }[]>`
      SELECT u.lexeme,
        (SELECT sum(CASE w WHEN 'A' THEN 4 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(u.weights) w)::float8 counted,
        4 * ts_rank_cd('{0.1, 0.25, 0.5, 1}', c.tsv, quote_literal(u.lexeme)::tsquery, 0)::float8 ranked
      FROM chunks c, unnest(c.tsv) u`;
    expect(rows.length).toBeGreaterThan(15);
    expect(rows.some((r) => r.counted >= 7)).toBe(true); // "owl": title, heading and text occurrences
    for (const r of rows) expect({ lexeme: r.lexeme, f: r.ranked }).toEqual({ lexeme: r.lexeme, f: r.counted });
  });
});
