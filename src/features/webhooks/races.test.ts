// A webhook URL replaced (regenerated) or deleted while a delivery is resolving it stops working.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChangeWatch } from "../../db/change-watch.ts";
import { openDatabase } from "../../db/client.ts";
import { newId } from "../../ids.ts";
import { systemClock } from "../../time.ts";
import { interleave } from "../../../test/races.ts";
import { createWebhooksRepo } from "./repo.ts";
import { createWebhookTokensService } from "./service.ts";

const dir = mkdtempSync(join(tmpdir(), "commonplace-races-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("webhook tokens: regenerate racing resolve", () => {
  test("on a file database (reads on the reader connection), the old URL is refused afterwards", async () => {
    // A file database: resolve reads committed rows on the reader while regenerate's transaction is open.
    const db = openDatabase(join(dir, "tokens.db"));
    const userId = newId("user");
    const at = new Date().toISOString();
    db.sqlite
      .query(
        "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'u', 'x', 'free', ?, ?)",
      )
      .run(userId, "race@example.com", at, at);
    const tokens = createWebhookTokensService({
      db,
      repo: createWebhooksRepo(db),
      workflows: { idsByToken: async (ids) => new Map(ids.map((id) => [id, []])) },
      changes: createChangeWatch(db.sqlite),
      clock: systemClock,
      baseUrl: "http://localhost",
    });
    const actor = { userId, auth: { type: "session" as const, session_id: "s" } };
    let old = { id: "", token: "" };
    try {
      await interleave(
        30,
        async () => {
          const created = await tokens.create(actor);
          // Not resolved yet, so not cached: the racing resolve reads the row.
          old = { id: created.id, token: created.url.split("/").at(-1)! };
          return { a: () => tokens.regenerate(actor, old.id), b: () => tokens.resolve(old.token) };
        },
        async (n) => {
          expect({ n, resolved: await tokens.resolve(old.token) }).toEqual({ n, resolved: undefined });
        },
      );
    } finally {
      db.close();
    }
  }, 60_000);
});
