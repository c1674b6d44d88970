// The podcasts repository on whichever engine the run uses: JSON columns round-trip, credits on hold are a number.
import { expect, test } from "bun:test";
import { openTestDatabase } from "../../db/client.ts";
import { insertSource, insertUser, T0 } from "../library/sources/test-rows.ts";
import { createPodcastsRepo, type PodcastInsert } from "./repo.ts";

test("podcasts: scoped reads, status filter, credits on hold, one quick podcast per source", async () => {
  const db = openTestDatabase();
  await insertUser(db, "usr_a");
  await insertUser(db, "usr_b");
  await insertSource(db, "src_1", "usr_a");
  const repo = createPodcastsRepo(db);
  expect(await repo.creditsOnHold("usr_a")).toBe(0);
  const pod = (id: string, o: Partial<PodcastInsert> = {}) =>
    repo.insert({
      id,
      userId: "usr_a",
      title: `Episode ${id}`,
      format: "deep_dive",
      language: "en",
      sourceIds: ["src_1"],
      origin: "api",
      creditsQuoted: 3,
      createdAt: T0,
      updatedAt: T0,
      ...o,
    });
  await pod("pod_1");
  await pod("pod_2", { status: "generating", creditsQuoted: 4 });
  await pod("pod_3", { status: "ready", creditsQuoted: 100 });
  await pod("pod_9", { userId: "usr_b" });
  expect(await repo.creditsOnHold("usr_a")).toBe(7);
  await repo.update("pod_3", {
    transcript: [{ speaker: "A", text: "Hi" }],
    durationSeconds: 12.5,
    audioBytes: 2048,
  });
  expect(await repo.byId("usr_a", "pod_3")).toMatchObject({
    sourceIds: ["src_1"],
    transcript: [{ speaker: "A", text: "Hi" }],
    durationSeconds: 12.5,
    audioBytes: 2048,
    status: "ready",
    origin: "api",
  });
  expect(await repo.byId("usr_b", "pod_3")).toBeUndefined();
  expect((await repo.byIdUnscoped("pod_9"))?.userId).toBe("usr_b");
  expect((await repo.list("usr_a", { limit: 2 })).map((p) => p.id)).toEqual(["pod_3", "pod_2"]);
  expect((await repo.list("usr_a", { limit: 5, before: "pod_2" })).map((p) => p.id)).toEqual(["pod_1"]);
  expect((await repo.list("usr_a", { limit: 5, status: "generating" })).map((p) => p.id)).toEqual(["pod_2"]);
  expect(await repo.markQuick("src_1", "pod_1", T0)).toBe(true);
  expect(await repo.markQuick("src_1", "pod_2", T0)).toBe(false);
  await repo.setQuickPodcast("src_1", "pod_2");
  await repo.delete("usr_b", "pod_1");
  expect(await repo.byIdUnscoped("pod_1")).toBeDefined();
  await repo.delete("usr_a", "pod_1");
  expect(await repo.byIdUnscoped("pod_1")).toBeUndefined();
  db.close();
});
