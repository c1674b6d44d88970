// PostgreSQL runs requests in parallel, in several processes: ten saves of one address by one user at
// once must create it once (one 201, the rest 200) and never fail on the unique (user, address) key.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../../../config.ts";
import { testSchemaName } from "../../../db/client.ts";
import { pgAsDb } from "../../../db/pg/as-db.ts";
import { openPostgres } from "../../../db/pg/client.ts";
import type { PgDb } from "../../../db/pg/port.ts";
import type { JobDef } from "../../../jobs/types.ts";
import { sqlRows } from "../../../db/inspect.ts";
import { systemActor } from "../../../actor.ts";
import type { EventsService } from "../../events/service.ts";
import { createNotebooksRepo } from "../notebooks/repo.ts";
import { createSourcesRepo } from "./repo.ts";
import { createSourcesService } from "./service.ts";
import { insertUser } from "./test-rows.ts";

const url = databaseUrl();
const opened: PgDb[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
});

/** One process's worth of the service over its own pool. Events and jobs only count what commits. */
function processOn(schema: string, committed: string[]) {
  const pg = openPostgres(url!, { schema, max: 5, idleTimeout: 2 });
  opened.push(pg);
  const db = pgAsDb(pg);
  const events = {
    record: async (_actor: unknown, type: string) => db.afterCommit(() => committed.push(type)),
  } as unknown as EventsService;
  const jobs = {
    enqueue: async (job: JobDef) => {
      db.afterCommit(() => committed.push(job.type));
      return { id: "job", created: true };
    },
  };
  const sources = createSourcesService({
    db,
    repo: createSourcesRepo(db),
    notebooks: createNotebooksRepo(db),
    events,
    jobs,
    clock: { now: () => Date.now() },
  });
  return { db, sources };
}

describe.skipIf(!url)("sources on PostgreSQL: concurrent saves of one address", () => {
  test("ten creates through two pools on one schema: exactly one is created, all answer the same source", async () => {
    const schema = testSchemaName();
    const committed: string[] = [];
    const a = processOn(schema, committed);
    const b = processOn(schema, committed);
    await insertUser(a.db, "usr_a");
    const actor = systemActor("usr_a", "test");
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).sources.create(actor, { url: "https://example.com/Same?utm_source=x" }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.source.id)).size).toBe(1);
    expect(await sqlRows(a.db, "SELECT count(*) AS n FROM sources")).toEqual([{ n: 1 }]);
    // Transactions that lost ran again and found the winner: only the winner's event and job committed.
    expect(committed.sort()).toEqual(["source.created", "source.ingest"]);
  }, 30_000);
});
