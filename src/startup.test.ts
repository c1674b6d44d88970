// Start-up problems a self-hoster can fix: the server exits non-zero with one line naming the problem.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, tempDir } from "../test/server-process.ts";

const dirs: { remove(): void }[] = [];
afterAll(() => dirs.forEach((d) => d.remove()));

/** Starts src/main.ts and waits for it to end; it must end by itself here. */
async function startAndExit(env: Record<string, string>) {
  const r = await run([process.execPath, "run", "src/main.ts"], { HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env });
  return { ...r, lines: r.stderr.trim().split("\n") };
}

describe("the server process refuses to start with one line", () => {
  test("when PORT is already in use", async () => {
    const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("taken") });
    const data = tempDir("commonplace-port-");
    dirs.push(data);
    try {
      const r = await startAndExit({ PORT: String(busy.port), DATA_DIR: data.path });
      expect(r.code).toBe(1);
      expect(r.lines).toEqual([expect.stringContaining(`PORT ${busy.port} is already in use`)]);
      expect(r.stderr).not.toContain("    at ");
    } finally {
      void busy.stop(true);
    }
  }, 60_000);

  test("when DATA_DIR cannot be written", async () => {
    const parent = tempDir("commonplace-datadir-");
    dirs.push(parent);
    // A file where a directory should be: refused even for root, unlike a chmod.
    const file = join(parent.path, "not-a-dir");
    writeFileSync(file, "x");
    const dataDir = join(file, "data");
    const r = await startAndExit({ PORT: "0", DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([expect.stringContaining(`DATA_DIR ${dataDir} is not writable: `)]);
    expect(r.lines[0]).toContain("ENOTDIR");
    expect(r.stderr).not.toContain("    at ");
  }, 60_000);
});
