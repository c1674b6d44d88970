// Switching EMBEDDER from hashed to builtin: the library re-embeds in the background, a source's
// embedding progress starts again from 0 for the new model, and search keeps working throughout.
import { sqlRow } from "../../db/inspect.ts";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../app.ts";
import { testConfig } from "../../config.ts";
import { silentLogger } from "../../log.ts";
import { createServices } from "../../services.ts";
import { call, userWithKey, type TestContext } from "../../../test/helpers.ts";
import type { NeuralEmbedder } from "../../ai/embedder/neural.ts";
import { reopenable, saveSource, search, startMarkdownSite, TEXTS } from "./library.fixture.ts";

const site = startMarkdownSite();
const dir = mkdtempSync(join(tmpdir(), "commonplace-reembed-builtin-"));
afterAll(() => {
  void site.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("hashed → builtin re-embeds in the background with visible progress", async () => {
  const reopen = reopenable(join(dir, "db.sqlite"));
  const open = (env: Record<string, string>) => {
    const db = reopen();
    const services = createServices({ config: testConfig(env), db, logger: silentLogger });
    return { db, services, app: createApp(services), runner: services.runner };
  };
  const first = open({ EMBEDDER: "hashed" });
  const a = await userWithKey(first as unknown as TestContext);
  const bread = await saveSource(first as unknown as TestContext, a.key, site, "/bread", TEXTS.bread);
  await first.runner.drain();
  first.db.close();

  const second = open({ EMBEDDER: "builtin" });
  const ctx = second as unknown as TestContext;
  try {
    expect(await second.services.indexer.ensureCurrent()).toBe(true);
    const progress = async () => (await call(ctx, "GET", `/api/v1/sources/${bread}`, { key: a.key })).body.embedding;
    expect(await progress()).toMatchObject({ status: "pending", chunks_done: 0 });
    // Before the job runs, text and vector search answer with the hashed vectors.
    for (const mode of ["text", "vector"]) {
      const r = await search(ctx, a.key, { query: "sourdough starter flour", mode });
      expect(r.body.data[0]?.id).toBe(bread);
    }
    await second.runner.drain({ timeoutMs: 100_000 });
    const p = await progress();
    expect(p.status).toBe("done");
    expect(p.chunks_done).toBe(p.chunks_total);
    const active = (await sqlRow<{ model: string }>(
      ctx.db,
      "SELECT model FROM embedding_models WHERE state = 'active'",
    ))!.model;
    expect(active).toBe(second.services.ai.embedder.id);
    const r = await search(ctx, a.key, { query: "letting a loaf rest before cutting it", mode: "vector" });
    expect(r.body.data[0]?.id).toBe(bread);
  } finally {
    await (second.services.ai.embedder as NeuralEmbedder).release();
    second.db.close();
  }
}, 120_000);
