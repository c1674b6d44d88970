// bench:library — the server time of the Library page's first page (GET /library through app.handle
// with a session cookie, no network) over one person's library of N sources (default 10,000), for
// each triage view and the filter combinations people use. p50/p95 over --runs (default 50) each.
//
//   bun run bench:library [--sources 10000] [--runs 50] [--words 0]
//
// --words gives every source a text of that many words (a real library's rows hold their article), which
// is what makes a query that reads whole rows slow. The last rows time single queries: the tab counts, the
// tag list, a page of inbox rows with and without their text, and the hourly link check's due query.
//
// SQLite by default; with DATABASE_URL set to PostgreSQL, on a fresh schema there (dropped after).
// Rows go in through the sources repository in transactions of 500, with tags (one in 20 carries the
// rare tag), a third archived, one in 12 favorite, a quarter read, and one in 8 in one of 5 notebooks.
import { parseArgs } from "node:util";
import { systemActor } from "../src/actor.ts";
import { createApp } from "../src/app.ts";
import { newId } from "../src/ids.ts";
import { createLinkCheckRepo } from "../src/features/library/sources/link-check-repo.ts";
import { createSourcesRepo } from "../src/features/library/sources/repo.ts";
import { benchOwner } from "./lib/bench-owner.ts";
import { fmt, summarize, table } from "./lib/measure.ts";

const TARGET_MS = 100;
const { values: args } = parseArgs({
  options: {
    sources: { type: "string", default: "10000" },
    runs: { type: "string", default: "50" },
    words: { type: "string", default: "0" },
  },
});
const CONTENT = Number(args.words) > 0 ? "word ".repeat(Number(args.words)).trimEnd() : null;
const N = Number(args.sources);
const RUNS = Number(args.runs);

const { db, services, user, close } = await benchOwner("library");
const app = createApp(services);
const actor = systemActor(user.id, "bench");
const notebooks: { id: string }[] = [];
for (let i = 0; i < 5; i++) notebooks.push(await services.notebooks.create(actor, { name: `Notebook ${i}` }));

const repo = createSourcesRepo(db);
const t0 = performance.now();
const base = Date.UTC(2020, 0, 1);
const TAGS = ["reading", "work", "later", "science", "design", "history", "music", "travel"];
for (let start = 0; start < N; start += 500) {
  await db.tx(async () => {
    for (let i = start; i < Math.min(N, start + 500); i++) {
      const id = newId("source");
      const at = new Date(base + i * 60_000).toISOString();
      const tags = [TAGS[i % TAGS.length]!, ...(i % 20 === 0 ? ["rare"] : [])];
      await repo.insert({
        id,
        userId: user.id,
        url: `https://site${i % 300}.example/post/${i}`,
        normalizedUrl: `https://site${i % 300}.example/post/${i}`,
        title: `Article ${i}: ${"a title of some length ".repeat(1 + (i % 4))}`,
        status: i % 50 === 0 ? "failed" : "ready",
        siteName: `Site ${i % 300}`,
        excerpt: "An excerpt of the article, as its page described it, long enough to be clamped on a card. ".repeat(2),
        wordCount: 300 + (i % 40) * 100,
        content: CONTENT,
        tags: JSON.stringify(tags),
        archived: i % 3 === 0,
        favorite: i % 12 === 0,
        readAt: i % 4 === 1 ? at : null,
        progress: i % 4 === 1 ? 1 : (i % 7) / 10,
        imageKey: i % 2 === 0 ? `img/${id}` : null,
        originalStatus: i % 97 === 0 ? "gone" : null,
        // Imported in an order unlike the ids': saved times run backwards in blocks.
        savedAt: new Date(base - ((i * 7919) % N) * 3_600_000).toISOString(),
        createdAt: at,
        updatedAt: at,
      });
      if (i % 8 === 0) await repo.link(notebooks[i % 5]!.id, id, at);
    }
  });
}
const loadS = (performance.now() - t0) / 1000;

const { token } = await services.accounts.createSession(user.id);
const cookie = `cp_session=${token}`;
const nb = notebooks[0]!.id;
const CASES: [string, string][] = [
  ["inbox (default)", "/library"],
  ["favorites", "/library?view=favorites"],
  ["archive", "/library?view=archive"],
  ["all", "/library?view=all"],
  ["archive + tag (common)", "/library?view=archive&tag=work"],
  ["archive + tag (rare)", "/library?view=archive&tag=rare"],
  ["inbox + notebook", `/library?notebook=${nb}`],
  ["inbox, saved-time sort", "/library?sort=saved_at"],
  ["all, original gone", "/library?view=all&original=gone"],
];

async function once(path: string): Promise<number> {
  const start = performance.now();
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: { cookie } }));
  const text = await res.text();
  const ms = performance.now() - start;
  if (res.status !== 200 || !text.includes("data-card")) throw new Error(`${path}: ${res.status}, no cards`);
  return ms;
}

const rows: Record<string, string | number>[] = [];
for (const [name, path] of CASES) {
  for (let i = 0; i < 5; i++) await once(path);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await once(path));
  const s = summarize(samples);
  rows.push({ case: name, p50_ms: fmt(s.p50, 1), p95_ms: fmt(s.p95, 1), ok: s.p95 <= TARGET_MS ? "yes" : "NO" });
}

/** One query on its own, RUNS times: a row of the table without a target. */
async function alone(name: string, query: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await query();
    samples.push(performance.now() - start);
  }
  const s = summarize(samples);
  rows.push({ case: name, p50_ms: fmt(s.p50, 1), p95_ms: fmt(s.p95, 1), ok: "" });
}

// The tab counts (one pass over the owner's rows), part of every unfiltered page above.
await alone("(tab counts alone)", () => services.sources.viewCounts(actor));
// The owner's tag names with counts (the tag field's suggestions), part of every Library and reader page.
await alone("(tag list alone)", () => services.sources.tagCounts(actor));
// One Library page's rows (the first 50 of the inbox): whole rows against rows without their text,
// the way the Library and the API's list read them.
const page = { limit: 50, archived: false, read: false };
await alone("(inbox rows, with text)", () => repo.list(user.id, page));
await alone("(inbox rows, without text)", () => repo.list(user.id, { ...page, withoutText: true }));
// The hourly link check's query: the 1,000 ready sources waiting longest for a check (all are due here).
const checks = createLinkCheckRepo(db);
const dueNow = Math.min(1000, N - Math.ceil(N / 50));
await alone("(link check: next 1000 due)", async () => {
  const due = await checks.due("9999-12-31T00:00:00.000Z", 1000);
  if (due.length !== dueNow) throw new Error(`link check: ${due.length} due, expected ${dueNow}`);
});

console.log(
  `bench:library  engine=${db.engine} sources=${N} words=${Number(args.words)} runs=${RUNS} (loaded in ${fmt(loadS, 1)} s)  target: first page p95 ≤ ${TARGET_MS} ms`,
);
console.log(table(rows));
await close();
process.exit(0);
