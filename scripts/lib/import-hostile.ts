// The hostile half of bench:import: the real server (src/main.ts in a child process) is sent each
// hostile import file, at the size that stalled it before and at 20 MB, one at a time, while /healthz is
// probed every 20 ms: probe latency while the file is read, the server's RSS growth, the answer.
import { join } from "node:path";
import {
  commaRow,
  deepFolders,
  lineFlood,
  omnivoreFallback,
  unclosedA,
  unclosedH3,
  unclosedOutlines,
} from "../../test/fixtures/imports/hostile.ts";
import { startServer, tempDir, type ServerProcess } from "../../test/server-process.ts";
import { cli, rssMb, startProbes } from "./probes.ts";
import { fmt, percentile } from "./measure.ts";

const ROOT = join(import.meta.dir, "../..");
const PROBE_EVERY_MS = 20;
const MB = 1024 * 1024;
// Just under IMPORT_MAX_BYTES (20 MiB), so each is read rather than refused for its size.
const FULL = 20 * MB - 4096;

interface HostileFile {
  name: string;
  format: string;
  bytes: () => Promise<Uint8Array> | Uint8Array;
}

const text = (s: string) => () => new TextEncoder().encode(s);

/** Each case of the issue at the size it was reported, and a 20 MB version of each, and a few more. */
export function hostileImportFiles(): HostileFile[] {
  return [
    { name: "unclosed <H3>, 12.6 KB", format: "netscape", bytes: text(unclosedH3(12_600)) },
    { name: "unclosed <H3>, 20 MB", format: "netscape", bytes: text(unclosedH3(FULL)) },
    { name: "unclosed <A>, 620 KB", format: "netscape", bytes: text(unclosedA(620 * 1024)) },
    { name: "unclosed <A>, 20 MB", format: "netscape", bytes: text(unclosedA(FULL)) },
    { name: "folders 12,000 deep, 384 KB", format: "netscape", bytes: text(deepFolders(12_000)) },
    { name: "folders nested, 20 MB", format: "netscape", bytes: text(deepFolders(Math.floor(FULL / 23))) },
    { name: "Omnivore fallback, 466 KB", format: "omnivore", bytes: () => omnivoreFallback(2_300) },
    { name: "Omnivore fallback, 20 MB", format: "omnivore", bytes: () => omnivoreFallback(80_000) },
    { name: "OPML unclosed, 20 MB", format: "opml", bytes: text(unclosedOutlines(FULL)) },
    { name: "CSV of commas, 20 MB", format: "pocket_csv", bytes: text(commaRow(FULL)) },
    { name: "URL flood, 20 MB", format: "urls", bytes: text(lineFlood(FULL)) },
    {
      name: "JSON of empty objects, 20 MB",
      format: "karakeep",
      bytes: text(`{"bookmarks":[${"{},".repeat(Math.floor(FULL / 3))}{}]}`),
    },
  ];
}

export async function runHostileImports(): Promise<Record<string, string | number>[]> {
  const dir = tempDir("cp-bench-import-hostile-");
  await cli(dir.path, "user:create", "--email", "bench@example.com", "--password", "benchmark-password");
  const key = (await cli(dir.path, "key:create", "--email", "bench@example.com", "--name", "bench"))
    .split("\n")
    .find((l) => l.startsWith("cpk_"))!;
  const server = await startServer([process.execPath, join(ROOT, "src/main.ts")], {
    DATA_DIR: dir.path,
    // startServer waits for the "listening" line, logged at info.
    LOG_LEVEL: "info",
    RATE_LIMIT_PER_MINUTE: "1000000",
  });
  const rows: Record<string, string | number>[] = [];
  try {
    // Warm up the parsing thread with a small good file, so thread start is not charged to the first case.
    await send(server, key, "urls", new TextEncoder().encode("https://example.com/warm\n"));
    // The machine's own noise: the same probes against the idle server.
    const idle = startProbes(server, PROBE_EVERY_MS);
    await Bun.sleep(3_000);
    const quiet = await idle.stop();
    rows.push({
      file: "(no file: the idle server)",
      "answer s": "",
      "healthz p99 ms": fmt(percentile(quiet, 99), 1),
      "healthz max ms": fmt(quiet[quiet.length - 1] ?? NaN, 1),
      probes: quiet.length,
      "RSS growth MB": "",
      answer: "",
    });
    for (const file of hostileImportFiles()) {
      const bytes = await file.bytes();
      Bun.gc(true);
      await Bun.sleep(300);
      const before = rssMb(server.proc.pid);
      const probes = startProbes(server, PROBE_EVERY_MS);
      const t0 = performance.now();
      const answer = await send(server, key, file.format, bytes);
      const secs = (performance.now() - t0) / 1000;
      const latencies = await probes.stop();
      rows.push({
        file: file.name,
        "answer s": fmt(secs, 2),
        "healthz p99 ms": fmt(percentile(latencies, 99), 1),
        "healthz max ms": fmt(latencies[latencies.length - 1] ?? NaN, 1),
        probes: latencies.length,
        "RSS growth MB": `+${Math.round(Math.max(before, probes.peakRss()) - before)}`,
        answer,
      });
      console.error(`  ${file.name}: ${answer}`);
    }
  } finally {
    await server.stop();
    dir.remove();
  }
  return rows;
}

async function send(server: ServerProcess, key: string, format: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.set("file", new File([bytes as Uint8Array<ArrayBuffer>], "hostile"));
  form.set("format", format);
  const res = await fetch(`${server.url}/api/v1/imports`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const body = (await res.json()) as { detail?: string; status?: string };
  return `${res.status} ${(body.detail ?? body.status ?? "").replace(/^file: /, "").slice(0, 70)}`;
}
