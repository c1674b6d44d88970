// Imported pages are embedded in a background lane: a page saved by hand while thousands of imported
// pages wait gets its vectors first, and imported pages are still embedded in the end.
import { sqlRow, sqlRows } from "../../db/inspect.ts";
import { expect, test } from "bun:test";
import { createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { systemActor } from "../../actor.ts";
import { runImports, upload } from "../imports/test-support.ts";
import { EMBED_IMPORT_JOB, EMBED_JOB } from "./indexer.ts";

/** Marks a source ready with some text and runs the ready hooks, as ingestion does. */
async function makeReady(ctx: TestContext, userId: string, id: string): Promise<void> {
  const actor = systemActor(userId, "test");
  await sqlRows(
    ctx.db,
    "UPDATE sources SET status = 'ready', content = ? WHERE id = ?",
    "Bees dance to show where the flowers are.",
    id,
  );
  const row = await ctx.services.sources.get(actor, id);
  for (const h of ctx.services.hooks.onSourceReady) await h(actor, row);
}

const embedJobs = async (ctx: TestContext, id: string) =>
  (
    await sqlRows<{ type: string }>(
      ctx.db,
      "SELECT type FROM jobs WHERE type LIKE 'search.embed%' AND payload LIKE '%' || ? || '%'",
      id,
    )
  ).map((r) => r.type);

test("an imported page embeds in the background lane, a saved one interactively, and both get vectors", async () => {
  const ctx = createTestContext();
  const u = await userWithKey(ctx);
  const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://bees.example/dance" ADD_DATE="1500000000">Dance</A>\n</DL><p>\n`;
  expect((await upload(ctx, u.key, file, { format: "netscape" })).status).toBe(202);
  await runImports(ctx);
  const imported = (await sqlRow<{ id: string }>(ctx.db, "SELECT id FROM sources WHERE import_id IS NOT NULL"))!.id;
  const { source: saved } = await ctx.services.sources.create(systemActor(u.userId, "test"), {
    url: "https://bees.example/hive",
  });

  await makeReady(ctx, u.userId, imported);
  await makeReady(ctx, u.userId, saved.id);
  expect(await embedJobs(ctx, imported)).toEqual([EMBED_IMPORT_JOB.type]);
  expect(await embedJobs(ctx, saved.id)).toEqual([EMBED_JOB.type]);

  // Only the embedding is under test here: the saved link's fetch (to a host that does not exist) goes.
  await sqlRows(ctx.db, "DELETE FROM jobs WHERE type LIKE 'source.%'");
  await ctx.runner.drain({ timeoutMs: 30_000 });
  const progress = await ctx.services.indexer.progress([imported, saved.id]);
  for (const id of [imported, saved.id]) {
    const p = progress.get(id)!;
    expect(p.total).toBeGreaterThan(0);
    expect(p.done).toBe(p.total);
  }
}, 60_000);
