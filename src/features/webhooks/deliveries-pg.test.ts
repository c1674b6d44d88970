// Webhook intake on PostgreSQL (runs when DATABASE_URL names a server): two pools on one schema stand for
// two processes receiving the same delivery (same webhook-id) at once; exactly one delivery and one set
// of runs is committed, and every request is answered with it.
import { afterAll, describe, expect, test } from "bun:test";
import { databaseUrl } from "../../config.ts";
import { testSchemaName } from "../../db/client.ts";
import { sqlRows } from "../../db/inspect.ts";
import { pgAsDb } from "../../db/pg/as-db.ts";
import { openPostgres } from "../../db/pg/client.ts";
import type { EngineDb } from "../../db/port.ts";
import { newId } from "../../ids.ts";
import { systemClock } from "../../time.ts";
import { createWorkflowsRepo } from "../workflows/repo.ts";
import { createRunsRepo } from "../../stores.ts";
import { createDeliveries } from "./deliveries.ts";
import { DEDUPE_WINDOW_MS } from "./feature.ts";
import { createWebhooksRepo } from "./repo.ts";

const url = databaseUrl();
const opened: EngineDb[] = [];
const open = (schema: string) => {
  const db = pgAsDb(openPostgres(url!, { schema, max: 4, idleTimeout: 2 }));
  opened.push(db);
  return db;
};
afterAll(async () => {
  await Promise.all(opened.map((d) => d.end()));
});

/** One process's intake: the real deliveries over its own pool, runs created from the workflows' rows. */
function intake(db: EngineDb) {
  const workflows = createWorkflowsRepo(db);
  const runs = createRunsRepo(db);
  return createDeliveries({
    db,
    repo: createWebhooksRepo(db),
    clock: systemClock,
    dedupeWindowMs: DEDUPE_WINDOW_MS,
    workflowsFor: (tokenId) => workflows.forToken(tokenId),
    async startRun(r) {
      const id = newId("run");
      const at = new Date().toISOString();
      const made = await runs.fromWorkflow({
        id,
        userId: r.userId,
        workflowId: r.workflowId,
        triggerType: "webhook",
        triggerJson: JSON.stringify(r.trigger),
        meta: JSON.stringify({ delivery_id: r.deliveryId }),
        depth: 0,
        chain: "[]",
        now: at,
      });
      return made ? id : null;
    },
    // The runner's jobs belong to the queue (not under test here): the runs themselves are counted.
    startJob: async () => {},
  });
}

describe.skipIf(!url)("webhook intake on PostgreSQL", () => {
  test("the same webhook-id delivered to two processes at once starts its runs once", async () => {
    const schema = testSchemaName();
    const [a, b] = [open(schema), open(schema)];
    await Promise.all([a.ready, b.ready]);
    const userId = newId("user");
    const at = new Date().toISOString();
    await sqlRows(
      a,
      "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, 'w@example.test', 'u', 'x', 'free', ?, ?)",
      userId,
      at,
      at,
    );
    const tokenId = newId("token");
    await sqlRows(
      a,
      "INSERT INTO webhook_tokens (id, user_id, token_hash, hint, created_at) VALUES (?, ?, 'h', '…h', ?)",
      tokenId,
      userId,
      at,
    );
    for (const name of ["one", "two"])
      await sqlRows(
        a,
        `INSERT INTO workflows (id, user_id, name, active, trigger_type, token_id, trigger_json, actions_json, signing_secret, created_at, updated_at)
         VALUES (?, ?, ?, TRUE, 'webhook', ?, '{}', '[{"id":"a","type":"create_notebook","name":"x"}]', 's', ?, ?)`,
        newId("workflow"),
        userId,
        name,
        tokenId,
        at,
        at,
      );
    const token = { id: tokenId, userId };
    const [inA, inB] = [intake(a), intake(b)];
    for (let round = 0; round < 5; round++) {
      const key = `evt-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? inA : inB).accept(token, { round }, key)),
      );
      const first = answers.find((x) => !x.replayed)!;
      expect(first.runs).toHaveLength(2);
      expect(answers.filter((x) => !x.replayed)).toHaveLength(1);
      for (const x of answers)
        expect({ delivery_id: x.delivery_id, runs: x.runs }).toEqual({
          delivery_id: first.delivery_id,
          runs: first.runs,
        });
    }
    const deliveries = await sqlRows<{ n: number }>(a, "SELECT count(*) AS n FROM webhook_deliveries");
    const runs = await sqlRows<{ n: number }>(a, "SELECT count(*) AS n FROM workflow_runs");
    expect(deliveries[0]!.n).toBe(5);
    expect(runs[0]!.n).toBe(10);
  }, 60_000);
});
