// Hostile import files over HTTP: refused at once with the reason (422 naming the file), nothing queued
// or kept, and the job that re-reads a stored file fails the import with the same reason.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../test/helpers.ts";
import { deepFolders, unclosedA } from "../../../test/fixtures/imports/hostile.ts";
import { runImports, upload } from "./test-support.ts";

describe("hostile import files", () => {
  test("the issue's unclosed folders, 12,000-deep folders and a flood of unclosed links: 422, nothing queued", async () => {
    const ctx = createTestContext({ IMPORT_MAX_ITEMS: "1000" });
    const a = await userWithKey(ctx);
    const h3 = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL>${"<H3>a<DL>".repeat(1400)}`;
    for (const [file, reason] of [
      [h3, "folders are nested more than 64 deep (line 2)"],
      [deepFolders(12_000), "folders are nested more than 64 deep (line 2)"],
      [unclosedA(620 * 1024), "the file has more than 1000 entries; one import takes at most 1000"],
    ] as const) {
      const r = await upload(ctx, a.key, file, { format: "netscape" });
      expect(r.status).toBe(422);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
      expect(r.body.errors).toEqual([{ path: "file", message: reason }]);
    }
    expect((await ctx.queue.counts("import.run")).queued).toBe(0);
    expect((await call(ctx, "GET", "/api/v1/imports", { key: a.key })).body.data).toEqual([]);
  });

  test("OPML listing one feed twice creates one watch and counts it once", async () => {
    const ctx = createTestContext({ ALLOW_PRIVATE_NETWORK: "true" });
    const a = await userWithKey(ctx);
    const feeds = Array.from({ length: 13 }, (_, i) => `https://feeds.example.com/${i}.xml`);
    const outlines = [...feeds, feeds[4], feeds[9]].map((u) => `<outline text="f" xmlUrl="${u}"/>`).join("\n");
    const r = await upload(ctx, a.key, `<?xml version="1.0"?><opml version="2.0"><body>\n${outlines}\n</body></opml>`);
    expect(r.status).toBe(202);
    await runImports(ctx);
    const imp = (await call(ctx, "GET", `/api/v1/imports/${r.body.id}`, { key: a.key })).body;
    expect(imp.counts).toMatchObject({ total: 13, created: 13, feeds_watched: 13, invalid: 0, failed: 0 });
    const watches = (await call(ctx, "GET", "/api/v1/feeds?limit=100", { key: a.key })).body.data;
    expect(watches).toHaveLength(13);
  });
});
