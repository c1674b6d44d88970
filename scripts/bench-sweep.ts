// bench:sweep — the daily blob sweep over a library whose rows hold their text: N sources (default
// 10,000) of --words words (default 2,000), each with a thumbnail and two kept images in an fs blob store,
// plus one orphan blob in 20; all older than the grace period. Times one full sweep (listing, the
// reference lookups of every batch, the deletes) and, separately, the reference lookups alone.
//
//   bun run bench:sweep [--sources 10000] [--words 2000]
//
// SQLite by default; with DATABASE_URL set to PostgreSQL, on a fresh schema there (dropped after).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { createFsBlobStore } from "../src/blobs/fs.ts";
import { createBlobReferencesRepo } from "../src/features/blob-sweep/repo.ts";
import { createBlobSweeper } from "../src/features/blob-sweep/sweep.ts";
import { createSourceImagesRepo } from "../src/features/library/sources/images-repo.ts";
import { createSourcesRepo } from "../src/features/library/sources/repo.ts";
import { createScheduler } from "../src/jobs/scheduler.ts";
import { silentLogger } from "../src/log.ts";
import { benchOwner } from "./lib/bench-owner.ts";
import { fmt, table } from "./lib/measure.ts";

const { values: args } = parseArgs({
  options: { sources: { type: "string", default: "10000" }, words: { type: "string", default: "2000" } },
});
const N = Number(args.sources);
const CONTENT = "word ".repeat(Number(args.words)).trimEnd();

const { dir, db, user, close } = await benchOwner("sweep");

const blobDir = join(dir, "blobs");
const file = (key: string) => {
  const path = join(blobDir, key);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, "x");
};
const sourcesRepo = createSourcesRepo(db);
const images = createSourceImagesRepo(db);
const at = "2026-01-01T00:00:00.000Z";
let orphans = 0;
const t0 = performance.now();
for (let start = 0; start < N; start += 500) {
  await db.tx(async () => {
    for (let i = start; i < Math.min(N, start + 500); i++) {
      const id = `src_${String(i).padStart(8, "0")}`;
      const thumb = `sources/${id}/thumb.webp`;
      await sourcesRepo.insert({
        id,
        userId: user.id,
        url: `https://site${i % 300}.example/post/${i}`,
        normalizedUrl: `https://site${i % 300}.example/post/${i}`,
        title: `Article ${i}`,
        status: "ready",
        content: CONTENT,
        imageKey: thumb,
        createdAt: at,
        updatedAt: at,
      });
      const kept = ["a", "b"].map((n) => ({
        name: `${n}.webp`,
        blobKey: `sources/${id}/${n}.webp`,
        contentType: "image/webp",
        bytes: 1,
        width: 1,
        height: 1,
        url: `https://site${i % 300}.example/${n}.webp`,
      }));
      await images.replace(id, kept, at);
      for (const key of [thumb, ...kept.map((k) => k.blobKey)]) file(key);
      if (i % 20 === 0) {
        file(`sources/${id}/lost.webp`);
        orphans++;
      }
    }
  });
}
const loadS = (performance.now() - t0) / 1000;

const refs = createBlobReferencesRepo(db);
const blobs = createFsBlobStore(blobDir);
// Two days on: every blob is past the grace period and is judged.
const later = { now: () => Date.now() + 2 * 86_400_000 };
const sweeper = createBlobSweeper({ blobs, refs, scheduler: createScheduler(), clock: later, logger: silentLogger });

const keys: string[] = [];
for await (const b of blobs.list("sources/")) keys.push(b.key);
const lookupStart = performance.now();
for (let i = 0; i < keys.length; i += 500) await refs.referenced(keys.slice(i, i + 500));
const lookupS = (performance.now() - lookupStart) / 1000;

const sweepStart = performance.now();
const result = await sweeper.sweep();
const sweepS = (performance.now() - sweepStart) / 1000;
if (result.deleted !== orphans) throw new Error(`deleted ${result.deleted}, expected ${orphans}`);

console.log(`bench:sweep  engine=${db.engine} sources=${N} words=${Number(args.words)} (loaded in ${fmt(loadS, 1)} s)`);
console.log(
  table([
    { phase: "reference lookups alone", blobs: keys.length, seconds: fmt(lookupS, 2) },
    { phase: "whole sweep", blobs: result.listed, seconds: fmt(sweepS, 2) },
  ]),
);
await close();
process.exit(0);
