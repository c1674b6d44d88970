// The blob sweep on a real database (either engine) and the fs blob store: blobs no row names are
// deleted once older than the grace period; blobs a podcast, a source image or a thumbnail uses stay,
// and so do young ones and anything outside the swept folders. The daily job runs it through the queue.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestContext } from "../../../test/helpers.ts";
import { createFsBlobStore } from "../../blobs/fs.ts";
import type { BlobStore } from "../../blobs/port.ts";
import { openTestDatabase } from "../../db/client.ts";
import { queryPlan, sqlRows } from "../../db/inspect.ts";
import { createScheduler } from "../../jobs/scheduler.ts";
import { silentLogger } from "../../log.ts";
import { systemClock } from "../../time.ts";
import { createSourceImagesRepo } from "../library/sources/images-repo.ts";
import { insertSource, insertUser, T0 } from "../library/sources/test-rows.ts";
import { createPodcastsRepo } from "../podcasts/repo.ts";
import { createBlobReferencesRepo, referenceQueries } from "./repo.ts";
import { BLOB_SWEEP_JOB, createBlobSweeper, SWEEP_GRACE_MS } from "./sweep.ts";

const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempStore = (): BlobStore => {
  const d = mkdtempSync(join(tmpdir(), "commonplace-sweep-"));
  dirs.push(d);
  return createFsBlobStore(d);
};
async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const b of store.list(prefix)) out.push(b.key);
  return out.sort();
}

describe("the blob sweep", () => {
  test("deletes old blobs no row names; keeps used, young and unswept ones", async () => {
    const db = openTestDatabase();
    await insertUser(db, "usr_a");
    await insertSource(db, "src_1", "usr_a", { imageKey: "sources/src_1/thumb.webp" });
    await createSourceImagesRepo(db).replace(
      "src_1",
      [
        {
          name: "a.webp",
          blobKey: "sources/src_1/a.webp",
          contentType: "image/webp",
          bytes: 1,
          width: 1,
          height: 1,
          url: "u",
        },
      ],
      T0,
    );
    await createPodcastsRepo(db).insert({
      id: "pod_1",
      userId: "usr_a",
      title: "Episode",
      format: "brief",
      language: "en",
      sourceIds: ["src_1"],
      origin: "api",
      creditsQuoted: 1,
      status: "ready",
      audioPath: "podcasts/pod_1.mp3",
      createdAt: T0,
      updatedAt: T0,
    });
    const blobs = tempStore();
    const used = ["podcasts/pod_1.mp3", "sources/src_1/a.webp", "sources/src_1/thumb.webp"];
    // An episode whose row is gone, a part file a crash left, the image of a deleted source, and a file
    // outside the swept folders.
    const orphans = ["podcasts/pod_gone.mp3", "podcasts/pod_2.mp3.part", "sources/src_gone/b.webp"];
    for (const k of [...used, ...orphans, "other/keep.bin"]) await blobs.put(k, new Uint8Array([1]));

    const refs = createBlobReferencesRepo(db);
    const scheduler = createScheduler();
    // Now: every blob is younger than the grace period, so nothing is judged.
    const today = createBlobSweeper({ blobs, refs, scheduler, clock: systemClock, logger: silentLogger });
    expect(await today.sweep()).toEqual({ listed: 6, deleted: 0 });
    // Two days on: the orphans go, the rest stay.
    const later = { now: () => Date.now() + 2 * DAY };
    const sweeper = createBlobSweeper({ blobs, refs, scheduler, clock: later, logger: silentLogger });
    expect(await sweeper.sweep()).toEqual({ listed: 6, deleted: 3 });
    expect([...(await keysOf(blobs, "podcasts/")), ...(await keysOf(blobs, "sources/"))].sort()).toEqual(used);
    expect(await keysOf(blobs, "other/")).toEqual(["other/keep.bin"]);
    // A second pass finds nothing more to do.
    expect(await sweeper.sweep()).toEqual({ listed: 3, deleted: 0 });
    await db.close();
  });

  test("the daily schedule enqueues the sweep, which the job runner carries out", async () => {
    const ctx = createTestContext();
    const blobs = ctx.services.blobs;
    await blobs.put("podcasts/pod_lost.mp3", new Uint8Array([1]));
    await blobs.put("podcasts/pod_new.mp3", new Uint8Array([1]));
    // The lost one was written before the grace period (a crash long ago); the new one just now.
    const old = (Date.now() - SWEEP_GRACE_MS - DAY) / 1000;
    utimesSync(join(ctx.config.dataDir, "podcasts/pod_lost.mp3"), old, old);
    ctx.services.blobSweep.start();
    expect(ctx.services.scheduler.has("blobs.sweep")).toBe(true);
    await ctx.queue.enqueue(BLOB_SWEEP_JOB, { slot: Date.now() });
    await ctx.runner.drain();
    expect(await keysOf(blobs, "podcasts/")).toEqual(["podcasts/pod_new.mp3"]);
    ctx.services.blobSweep.stop();
    expect(ctx.services.scheduler.has("blobs.sweep")).toBe(false);
    const [failed] = await sqlRows<{ n: number }>(ctx.db, "SELECT count(*) AS n FROM jobs WHERE status = 'failed'");
    expect(Number(failed!.n)).toBe(0);
    await ctx.services.podcasts.close();
  });

  test("each reference lookup probes an index on its column, not a scan of the table per batch", async () => {
    const db = openTestDatabase();
    const [audio, images, thumbnails] = referenceQueries(db.shared, ["podcasts/a.mp3", "sources/b.webp"]);
    expect(await queryPlan(db, audio.toSQL())).toContain("podcasts_audio_path");
    expect(await queryPlan(db, images.toSQL())).toContain("source_images_blob_key");
    expect(await queryPlan(db, thumbnails.toSQL())).toContain("sources_image_key");
    await db.close();
  });
});
