// DATA_DIR and what is written in it are private to the user running the server or the CLI: directories
// 0700, database files (with -wal and -shm) and blobs 0600, and a warning for a DATA_DIR others can enter.
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFsBlobStore } from "./blobs/fs.ts";
import { runCli } from "./cli.ts";
import { databaseUrl } from "./config.ts";
import { openDatabase, testSchemaName } from "./db/client.ts";
import { dataDirExposure, ensureWritableDataDir } from "./startup.ts";
import { startServer, tempDir } from "../test/server-process.ts";

const modeOf = (path: string) => statSync(path).mode & 0o777;
const dirs: { remove(): void }[] = [];
const temp = () => {
  const d = tempDir("commonplace-modes-");
  dirs.push(d);
  return d.path;
};
afterAll(() => dirs.forEach((d) => d.remove()));

// The usual umask, which would make 0755 directories and 0644 files if nothing asked for less.
let umask = 0;
beforeEach(() => {
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
});

describe("file modes", () => {
  test("a new DATA_DIR is 0700, parents it creates too", () => {
    const dir = join(temp(), "a", "data");
    ensureWritableDataDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, ".."))).toBe(0o700);
    expect(dataDirExposure(dir)).toBeUndefined();
  });

  test("an existing DATA_DIR open to the group or others is reported, and left as it is", () => {
    const dir = temp();
    chmodSync(dir, 0o750);
    ensureWritableDataDir(dir);
    expect(modeOf(dir)).toBe(0o750);
    expect(dataDirExposure(dir)).toBe(
      `DATA_DIR ${dir} is accessible to other users of this machine (mode 750); it holds the database and password hashes: run chmod 700 ${dir}`,
    );
    chmodSync(dir, 0o755);
    expect(dataDirExposure(dir)).toContain("(mode 755)");
  });

  test("a new SQLite database and its -wal and -shm files are 0600", () => {
    const path = join(temp(), "sub", "commonplace.db");
    const db = openDatabase(path);
    try {
      expect(modeOf(join(path, ".."))).toBe(0o700);
      for (const f of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(f)).toBe(true);
        expect([f, modeOf(f)]).toEqual([f, 0o600]);
      }
    } finally {
      db.close();
    }
  });

  test("blobs written or moved in are 0600 in 0700 directories", async () => {
    const root = join(temp(), "blobs");
    const store = createFsBlobStore(root);
    await store.put("podcasts/a/episode.mp3", new Uint8Array([1, 2, 3]));
    expect(modeOf(join(root, "podcasts/a/episode.mp3"))).toBe(0o600);
    expect(modeOf(join(root, "podcasts/a"))).toBe(0o700);
    const part = join(temp(), "render.part");
    writeFileSync(part, "audio", { mode: 0o644 });
    await store.moveIn("podcasts/b/episode.mp3", part);
    expect(modeOf(join(root, "podcasts/b/episode.mp3"))).toBe(0o600);
  });

  test("the CLI creates DATA_DIR 0700 and the database 0600", async () => {
    const dataDir = join(temp(), "cli-data");
    const out: string[] = [];
    const code = await runCli(
      ["user:create", "--email", "ada@example.com", "--password", "correct horse battery"],
      {
        DATA_DIR: dataDir,
        ...(databaseUrl() ? { DATABASE_URL: databaseUrl(), DATABASE_SCHEMA: testSchemaName() } : {}),
      },
      (l) => out.push(l),
    );
    expect([code, out[0]]).toEqual([0, expect.stringContaining("created user")]);
    expect(modeOf(dataDir)).toBe(0o700);
    if (!databaseUrl()) expect(modeOf(join(dataDir, "commonplace.db"))).toBe(0o600);
  }, 30_000);
});

describe("the server at start", () => {
  test("warns about an existing DATA_DIR others can enter; its new database files are 0600", async () => {
    const dataDir = temp();
    chmodSync(dataDir, 0o755);
    const server = await startServer([process.execPath, "run", "src/main.ts"], { DATA_DIR: dataDir });
    try {
      const warning = server
        .output()
        .split("\n")
        .find((l) => l.includes("is accessible to other users"));
      expect(JSON.parse(warning!)).toMatchObject({ level: "warn", msg: expect.stringContaining("chmod 700") });
      if (!databaseUrl())
        for (const f of ["commonplace.db", "commonplace.db-wal", "commonplace.db-shm"])
          expect([f, modeOf(join(dataDir, f))]).toEqual([f, 0o600]);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("creates a missing DATA_DIR 0700 and does not warn", async () => {
    const dataDir = join(temp(), "new-data");
    const server = await startServer([process.execPath, "run", "src/main.ts"], { DATA_DIR: dataDir });
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      expect(server.output()).not.toContain("is accessible to other users");
    } finally {
      await server.stop();
    }
  }, 60_000);
});
