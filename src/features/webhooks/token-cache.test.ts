// The token cache of incoming webhooks notices a regeneration committed by another connection (the
// CLI, a second process) through the change watch, so the old URL stops there too.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemActor } from "../../actor.ts";
import { testConfig } from "../../config.ts";
import { openDatabase, type Db } from "../../db/client.ts";
import { waitFor } from "../../jobs/testing.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import { userWithKey, type TestContext } from "../../../test/helpers.ts";

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  dbs.splice(0).forEach((d) => d.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

test("a token regenerated on another connection stops resolving here", async () => {
  const dir = mkdtempSync(join(tmpdir(), "commonplace-tokens-"));
  dirs.push(dir);
  const path = join(dir, "test.db");
  const open = () => {
    const db = openDatabase(path);
    dbs.push(db);
    return createServices({ config: testConfig({ EMBEDDER: "hashed" }), db, logger: silentLogger });
  };
  const server = open();
  const cli = open();
  const { userId } = await userWithKey({ db: dbs[0], services: server } as unknown as TestContext);
  const actor = systemActor(userId, "test");
  const created = await server.webhookTokens.create(actor);
  const token = created.url.split("/").pop()!;
  expect((await server.webhookTokens.resolve(token))?.id).toBe(created.id);
  // Cached now; the regeneration below happens on the other connection.
  const again = await cli.webhookTokens.regenerate(actor, created.id);
  await waitFor(
    async () => (await server.webhookTokens.resolve(token)) === undefined,
    "the old token to stop resolving",
    5_000,
  );
  expect((await server.webhookTokens.resolve(again.url.split("/").pop()!))?.id).toBe(created.id);
  await Promise.all([server.extractor.close(), cli.extractor.close()]);
}, 30_000);
