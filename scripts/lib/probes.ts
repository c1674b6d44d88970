// What the hostile-input benchmarks share: the server's RSS from /proc, the admin CLI against a data
// directory, and /healthz probed open-loop while something hostile is being read.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerProcess } from "../../test/server-process.ts";

const ROOT = join(import.meta.dir, "../..");

/** The server's resident memory in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Runs the admin CLI on a data directory; its standard output, trimmed. */
export async function cli(dataDir: string, ...args: string[]): Promise<string> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli.ts"), ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`cli ${args[0]} failed`);
  return out.trim();
}

/** /healthz probed every `everyMs`, open-loop, each timed from when it was due; RSS sampled alongside. */
export function startProbes(server: ServerProcess, everyMs: number) {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let peak = 0;
  let running = true;
  const loop = (async () => {
    for (let next = performance.now(); running; next += everyMs) {
      const due = next;
      pending.push(
        fetch(`${server.url}/healthz`).then(async (r) => {
          await r.arrayBuffer();
          latencies.push(performance.now() - due);
        }),
      );
      peak = Math.max(peak, rssMb(server.proc.pid));
      await Bun.sleep(Math.max(0, next + everyMs - performance.now()));
    }
  })();
  return {
    peakRss: () => peak,
    async stop(): Promise<number[]> {
      running = false;
      await loop;
      await Promise.all(pending);
      return latencies.sort((a, b) => a - b);
    },
  };
}
