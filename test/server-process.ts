// Runs the service (from source or as the compiled binary) as a child process for end-to-end tests.
import type { Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");

export function tempDir(prefix = "commonplace-e2e-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A clean environment for a child: only what it needs, never the test runner's own variables. */
export function childEnv(vars: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? tmpdir(), ...vars };
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
