// The chunks repository on its own (either engine): BM25 ranking with IDF and column weights,
// stemming and accent folding as FTS5's porter + unicode61 remove_diacritics do, scopes.
import { expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";
import type { ChunksRepo } from "./chunks-repo.ts";
import { createChunksRepo } from "../../stores.ts";
import { ftsExpression } from "./query.ts";

async function library(docs: { id: string; title?: string; text: string; userId?: string; type?: "note" }[]) {
  const db = openTestDatabase();
  const chunks = createChunksRepo(db);
  for (const d of docs) {
    await chunks.replace({ type: d.type ?? "source", id: d.id, userId: d.userId ?? "usr_a", title: d.title ?? "" }, [
      { index: 0, text: d.text, start: 0, end: d.text.length, heading: null, tokenCount: d.text.split(" ").length },
    ]);
  }
  return { db, chunks };
}

async function ranked(chunks: ChunksRepo, query: string, opts: { sourceIds?: string[]; docType?: "note" } = {}) {
  const hits = await chunks.fts("usr_a", ftsExpression(query)!, { limit: 10, ...opts });
  const rows = await chunks.byRowids(hits.map((h) => h.rowid));
  return hits.map((h) => rows.get(h.rowid)!.docId);
}

const filler = (n: number) => Array.from({ length: n }, (_, i) => `common words about gardens number ${i}`);

test("a rare word outweighs a common one (IDF), and more matching words rank higher", async () => {
  const { chunks } = await library([
    ...filler(20).map((text, i) => ({ id: `fill_${i}`, text })),
    { id: "rare", text: "the garden has a sundial near the gate" },
    { id: "both", text: "common sundial in the garden" },
  ]);
  const got = await ranked(chunks, "common sundial");
  expect(got.slice(0, 2)).toEqual(["both", "rare"]);
  expect(got).toHaveLength(10);
  // Scores come back as FTS5's: negative, best (lowest) first.
  const hits = await chunks.fts("usr_a", ftsExpression("sundial")!, { limit: 5 });
  expect(hits.every((h, i) => h.rank < 0 && (i === 0 || h.rank >= hits[i - 1]!.rank))).toBe(true);
});

test("a match in the title outranks the same match in the text", async () => {
  const { chunks } = await library([
    { id: "in_text", text: "notes on lighthouses and the keepers who tended them" },
    { id: "in_title", title: "Lighthouses", text: "notes on the keepers who tended them and their lamps" },
    { id: "other", text: "nothing here" },
  ]);
  expect(await ranked(chunks, "lighthouses")).toEqual(["in_title", "in_text"]);
});

test("other forms of a word and accented spellings match", async () => {
  const { chunks } = await library([
    { id: "runs", text: "she runs every morning" },
    { id: "cafe", text: "coffee at the Café Noir" },
  ]);
  expect(await ranked(chunks, "running")).toEqual(["runs"]);
  expect(await ranked(chunks, "cafe")).toEqual(["cafe"]);
  expect(await ranked(chunks, "CAFÉ")).toEqual(["cafe"]);
});

test("scopes: another owner's chunks never match; sources and types narrow the set", async () => {
  const { chunks } = await library([
    { id: "mine_1", text: "tide pools at low water" },
    { id: "mine_2", text: "tide tables for the harbour" },
    { id: "note_1", text: "a tide note", type: "note" },
    { id: "theirs", text: "tide tide tide", userId: "usr_b" },
  ]);
  expect((await ranked(chunks, "tide")).sort()).toEqual(["mine_1", "mine_2", "note_1"]);
  expect(await ranked(chunks, "tide", { sourceIds: ["mine_2"] })).toEqual(["mine_2"]);
  expect(await ranked(chunks, "tide", { docType: "note" })).toEqual(["note_1"]);
  expect(await ranked(chunks, "nothing matches")).toEqual([]);
});

test("a query of only stopwords still finds passages (they are indexed, as in FTS5)", async () => {
  const { chunks } = await library([
    { id: "hamlet", text: "to be or not to be" },
    { id: "other", text: "sundials and gardens" },
  ]);
  expect(await ranked(chunks, "to be or not to be")).toEqual(["hamlet"]);
});

test("replace swaps a document's chunks; remove drops them", async () => {
  const { chunks } = await library([{ id: "doc", text: "first version about owls" }]);
  await chunks.replace({ type: "source", id: "doc", userId: "usr_a", title: "" }, [
    { index: 0, text: "second version about bats", start: 0, end: 25, heading: "Bats", tokenCount: 4 },
    { index: 1, text: "more on bats", start: 25, end: 37, heading: null, tokenCount: 3 },
  ]);
  expect(await ranked(chunks, "owls")).toEqual([]);
  const rows = await chunks.forDoc("source", "doc");
  expect(rows.map((r) => [r.idx, r.heading, r.start, r.end])).toEqual([
    [0, "Bats", 0, 25],
    [1, null, 25, 37],
  ]);
  expect(await chunks.count()).toBe(2);
  await chunks.remove("source", "doc");
  expect(await chunks.count()).toBe(0);
});
