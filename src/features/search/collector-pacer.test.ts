// The collector pacer: a collection after every `every` searches when memory grew, off the search path.
import { describe, expect, test } from "bun:test";
import { createCollectorPacer } from "./collector-pacer.ts";

const turn = () => new Promise((r) => setTimeout(r, 0));

describe("collector pacer", () => {
  test("after enough searches with memory grown, one collection runs once the search is done", async () => {
    let rss = 100;
    let collections = 0;
    const pacer = createCollectorPacer({ every: 4, growthBytes: 50, rss: () => rss, collect: () => collections++ });
    rss = 200;
    for (let i = 0; i < 3; i++) pacer.searched();
    await turn();
    expect(collections).toBe(0);
    pacer.searched();
    // Scheduled, not run inside the search that triggered it.
    expect(collections).toBe(0);
    await turn();
    expect(collections).toBe(1);
  });

  test("no collection while memory stays near its size after the last one", async () => {
    let rss = 100;
    let collections = 0;
    const pacer = createCollectorPacer({ every: 2, growthBytes: 50, rss: () => rss, collect: () => collections++ });
    rss = 140;
    for (let i = 0; i < 10; i++) pacer.searched();
    await turn();
    expect(collections).toBe(0);
    rss = 151;
    pacer.searched();
    pacer.searched();
    await turn();
    expect(collections).toBe(1);
    // The baseline is now 151: growing by 40 more is not enough.
    rss = 191;
    for (let i = 0; i < 10; i++) pacer.searched();
    await turn();
    expect(collections).toBe(1);
  });
});
