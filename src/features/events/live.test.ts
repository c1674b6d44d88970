// The live hub: fed after commit (rolled-back events never reach a stream), and, while streams are
// open, it also sees events committed by another connection to the same database file.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testConfig } from "../../config.ts";
import { openTestDatabase } from "../../db/client.ts";
import { openSharedDatabase, sharedTestDatabase } from "../../jobs/testing.ts";
import { sqlRows } from "../../db/inspect.ts";
import { newId } from "../../ids.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import type { LiveEvent } from "./live.ts";

async function insertUser(s: ReturnType<typeof createServices>): Promise<string> {
  const id = newId("user");
  const at = new Date().toISOString();
  await sqlRows(
    s.db,
    "INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES (?, ?, 'n', 'x', 'free', ?, ?)",
    id,
    `${id.toLowerCase()}@example.com`,
    at,
    at,
  );
  return id;
}

/** Collects what the hub delivers to one sink and resolves when `n` stored events have arrived. */
function collector() {
  const got: LiveEvent[] = [];
  let wake: (() => void) | undefined;
  return {
    got,
    sink: { deliver: (e: LiveEvent) => (got.push(e), wake?.()), end: () => {} },
    async stored(n: number, timeoutMs = 5000): Promise<string[]> {
      const deadline = Date.now() + timeoutMs;
      const ids = () => got.flatMap((e) => ("stored" in e ? [(e.stored.data as { id: string }).id] : []));
      while (ids().length < n) {
        if (Date.now() > deadline) throw new Error(`only ${ids().length} of ${n} events arrived`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      return ids();
    },
  };
}

describe("live hub", () => {
  test("events reach streams after commit; a rolled-back event never does", async () => {
    const s = createServices({ config: testConfig(), db: openTestDatabase(), logger: silentLogger });
    const user = await insertUser(s);
    const actor = { userId: user, auth: { type: "system" as const, reason: "test" } };
    const c = collector();
    await s.live.hub.subscribe(user, c.sink);
    await expect(
      s.db.tx(async () => {
        await s.events.record(actor, "notebook.created", { id: "nb_rolled_back" });
        throw new Error("abort the change");
      }),
    ).rejects.toThrow("abort the change");
    const nb = await s.notebooks.create(actor, { name: "kept" });
    expect(await c.stored(1)).toEqual([nb.id]);
    s.live.hub.close();
  });

  const dir = mkdtempSync(join(tmpdir(), "commonplace-live-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("an event committed by another connection (another process) reaches open streams", async () => {
    // One SQLite file opened twice, or one PostgreSQL schema through two pools: two processes.
    const shared = sharedTestDatabase();
    const config = testConfig({ DATA_DIR: dir });
    const server = createServices({ config, db: openSharedDatabase(shared.location), logger: silentLogger });
    const other = createServices({ config, db: openSharedDatabase(shared.location), logger: silentLogger });
    const user = await insertUser(server);
    const c = collector();
    await server.live.hub.subscribe(user, c.sink);
    const nb = await other.notebooks.create(
      { userId: user, auth: { type: "system", reason: "cli" } },
      { name: "from elsewhere" },
    );
    expect(await c.stored(1, 10_000)).toEqual([nb.id]);
    server.live.hub.close();
    other.live.hub.close();
    server.db.close();
    other.db.close();
    shared.cleanup();
  }, 30_000);
});
