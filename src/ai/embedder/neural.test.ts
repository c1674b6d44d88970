// The builtin neural embedder for real: the USE-lite worker ranks paraphrases, is released when
// idle, and a crash during an embedding job is retried by the job runner.
import { sqlRow } from "../../db/inspect.ts";
import { describe, expect, test } from "bun:test";
import { createTestContext } from "../../../test/helpers.ts";
import { systemActor } from "../../actor.ts";
import { EMBED_JOB } from "../../features/search/indexer.ts";
import { clipWords, createNeuralEmbedder, type NeuralEmbedder } from "./neural.ts";
import { dot } from "./port.ts";

const DOCS = [
  "The automobile would not start on cold mornings until the mechanic replaced its battery.",
  "Physicians prescribed medication to lower the patient's blood pressure.",
  "The youngsters spent the afternoon kicking a ball around the park.",
  "Heavy rainfall caused the river to overflow and flood nearby homes.",
  "The chef sliced the onions and sautéed them in butter.",
];
// Each query shares (almost) no word with its document.
const QUERIES: [string, number][] = [
  ["my car won't turn on when it is freezing", 0],
  ["doctors gave drugs for hypertension", 1],
  ["kids playing football outdoors", 2],
  ["storm water inundated houses", 3],
  ["cooking vegetables in a pan", 4],
];

describe("builtin neural embedder", () => {
  test("ranks the paraphrased document first (few or no shared words)", async () => {
    const e = createNeuralEmbedder({ idleMs: 60_000 });
    try {
      const docs = await e.embed(DOCS, "document");
      const queries = await e.embed(
        QUERIES.map(([q]) => q),
        "query",
      );
      expect(docs[0]!.length).toBe(e.dimensions);
      QUERIES.forEach(([q, want], i) => {
        const scores = docs.map((d) => dot(queries[i]!, d));
        const best = scores.indexOf(Math.max(...scores));
        expect({ q, best }).toEqual({ q, best: want });
      });
    } finally {
      await e.release();
    }
  }, 120_000);

  test("the worker starts on first use and is released after the idle period", async () => {
    let released!: () => void;
    const gone = new Promise<void>((r) => (released = r));
    const e = createNeuralEmbedder({ idleMs: 300, onRelease: () => released() });
    expect(e.loaded).toBe(false);
    await e.embed(["a short text"]);
    expect(e.loaded).toBe(true);
    await gone;
    expect(e.loaded).toBe(false);
    // and it comes back on demand
    const [v] = await e.embed(["another text"]);
    expect(v!.some((x) => x !== 0)).toBe(true);
    await e.release();
  }, 120_000);

  test("a worker crash fails the embedding job, which is retried and fills the vectors", async () => {
    let now = Date.now();
    const ctx = createTestContext({ EMBEDDER: "builtin" }, { clock: { now: () => now } });
    const { services } = ctx;
    const embedder = services.ai.embedder as NeuralEmbedder;
    try {
      const user = await services.accounts.createUser(
        { email: "n@example.com", password: "neural-password" },
        { bypassSignupPolicy: true },
      );
      embedder.crashNextCall();
      await services.notes.create(systemActor(user.id, "test"), {
        content: "# Bees\n\nHoneybee scouts dance to choose a nest.",
      });
      const first = await services.runner.drain({ timeoutMs: 100_000 });
      expect(first.retried).toBe(1);
      const vectors = async () => (await sqlRow<{ n: number }>(services.db, "SELECT count(*) n FROM chunk_vectors"))!.n;
      expect(await vectors()).toBe(0);
      now += 3_600_000; // past the retry backoff
      await services.runner.drain({ timeoutMs: 100_000 });
      const job = await sqlRow(services.db, "SELECT status, attempts FROM jobs WHERE type = ?", EMBED_JOB.type);
      expect(job).toEqual({ status: "succeeded", attempts: 2 });
      expect(await vectors()).toBeGreaterThan(0);
    } finally {
      await embedder.release();
      ctx.db.close();
    }
  }, 120_000);
});

test("clipWords keeps the first words of a text", () => {
  expect(clipWords("one two  three four", 3)).toBe("one two  three");
  expect(clipWords("short", 3)).toBe("short");
});
