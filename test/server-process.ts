// Runs the service (from source or as the compiled binary) as a child process for end-to-end tests.
import type { Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { databaseUrl } from "../src/config.ts";
import type { EngineDb } from "../src/db/port.ts";
import { openSharedDatabase } from "../src/jobs/testing.ts";

export const ROOT = resolve(import.meta.dir, "..");

export function tempDir(prefix = "commonplace-e2e-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * The schema a child uses on the PostgreSQL lane: one per data directory, so a server and the CLI run
 * against the same DATA_DIR see the same rows, and every test's fresh directory gets a fresh schema.
 */
export function schemaForDataDir(dataDir: string | undefined): string {
  if (!dataDir) return `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
  return `t_${new Bun.CryptoHasher("sha256").update(resolve(dataDir)).digest("hex").slice(0, 24)}`;
}

/**
 * A clean environment for a child: only what it needs, never the test runner's own variables — except,
 * when the run has DATABASE_URL (the PostgreSQL lane), that server and a schema of the child's own.
 */
export function childEnv(vars: Record<string, string>): Record<string, string> {
  const url = databaseUrl();
  const db: Record<string, string> =
    url && vars.DATABASE_URL === undefined
      ? { DATABASE_URL: url, DATABASE_SCHEMA: vars.DATABASE_SCHEMA ?? schemaForDataDir(vars.DATA_DIR) }
      : {};
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? tmpdir(), ...db, ...vars };
}

/** The database a child started by childEnv with this DATA_DIR uses, for a test to seed or inspect rows. */
export function openChildDatabase(dataDir: string): EngineDb {
  return openSharedDatabase(databaseUrl() ? `pg:${schemaForDataDir(dataDir)}` : join(dataDir, "commonplace.db"), {
    poolSize: 2,
  });
}

export interface ServerProcess {
  url: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<number>;
}

/**
 * Starts `cmd` with PORT=0 and resolves once it logs "listening" (the log line carries the port),
 * or rejects with its output if it exits first.
 */
export async function startServer(
  cmd: string[],
  env: Record<string, string>,
  opts: { cwd?: string } = {},
): Promise<ServerProcess> {
  const proc = Bun.spawn(cmd, {
    cwd: opts.cwd ?? ROOT,
    // Servers in tests embed with the fast hashed features unless a test asks for the neural encoder.
    env: childEnv({ PORT: "0", HOST: "127.0.0.1", EMBEDDER: "hashed", ...env }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  let onLine: ((line: string) => void) | undefined;
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      out += text;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const l of lines) onLine?.(l);
    }
  };
  // Both pipes are drained for the life of the process so a chatty child never blocks on a full pipe.
  void pump(proc.stdout);
  void pump(proc.stderr);

  const url = await new Promise<string>((resolvePort, reject) => {
    onLine = (line) => {
      if (!line.includes('"msg":"listening"')) return;
      const port = new URL((JSON.parse(line) as { url: string }).url).port;
      resolvePort(`http://127.0.0.1:${port}`);
    };
    void proc.exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
  onLine = undefined;

  return {
    url,
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      return proc.exited;
    },
  };
}

/**
 * Polls a URL until it answers 200 or `withinMs` passes (readiness, not a timing assertion: a busy
 * machine may take many seconds to start a process, so the bound is generous).
 */
export async function waitForOk(url: string, withinMs = 45_000): Promise<Response> {
  let last: unknown;
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return res;
      last = `status ${res.status}`;
    } catch (e) {
      last = e;
    }
    await Bun.sleep(50);
  }
  throw new Error(`${url} did not answer 200 within ${withinMs} ms: ${String(last)}`);
}

/** Runs a command to completion and returns its exit code and output. */
export async function run(
  cmd: string[],
  env: Record<string, string>,
  opts: { cwd?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, {
    cwd: opts.cwd ?? ROOT,
    env: childEnv(env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}
