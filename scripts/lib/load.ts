// Load generation shared by the HTTP benchmarks: servers in child processes, wrk when installed,
// otherwise a closed-loop Bun fetch client in its own child, and one result shape for both.
export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

export interface LoadRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Status that counts as success (default: any 2xx). */
  okStatus?: number;
}

export interface LoadShape {
  connections: number;
  duration: number;
  threads?: number;
}

/** Starts `script --serve kind` and resolves with the JSON line it prints once listening. */
export async function startChild<T>(
  script: string,
  kind: string,
  env: Record<string, string>,
): Promise<{ proc: ReturnType<typeof Bun.spawn> } & T> {
  const proc = Bun.spawn([process.execPath, script, "--serve", kind], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${kind} server exited before it was ready`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, ...(JSON.parse(text.slice(0, text.indexOf("\n"))) as T) };
}

const toMs = (v: string, unit: string) =>
  unit === "us" ? Number(v) / 1000 : unit === "s" ? Number(v) * 1000 : Number(v);

/** Runs wrk (with a Lua script for methods and bodies when needed) and parses its report. */
export async function runWrk(
  name: string,
  req: LoadRequest,
  shape: LoadShape,
  luaScript?: string,
): Promise<LoadResult> {
  const args = [
    "wrk",
    "-t",
    String(shape.threads ?? 1),
    "-c",
    String(shape.connections),
    "-d",
    `${shape.duration}s`,
    "--latency",
  ];
  for (const [k, v] of Object.entries(req.headers ?? {})) args.push("-H", `${k}: ${v}`);
  if (luaScript) args.push("-s", luaScript);
  const proc = Bun.spawn([...args, req.url], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`wrk failed: ${await new Response(proc.stderr).text()}`);
  const lat = (pct: string) => {
    const m = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m").exec(out);
    if (!m) throw new Error(`no ${pct}% latency in wrk output:\n${out}`);
    return toMs(m[1]!, m[2]!);
  };
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const errors =
    Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) +
    Number(/Socket errors:.*?timeout (\d+)/.exec(out)?.[1] ?? 0);
  const span = /requests in ([\d.]+)(us|ms|s)/.exec(out);
  const seconds = span ? toMs(span[1]!, span[2]!) / 1000 : shape.duration;
  return { name, rps: (requests - errors) / seconds, p50: lat("50"), p99: lat("99"), requests, errors };
}

/** The fallback client (run it in a child process): closed-loop keep-alive fetches; prints JSON. */
export async function closedLoop(req: LoadRequest, shape: LoadShape): Promise<void> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + shape.duration * 1000;
  await Promise.all(
    Array.from({ length: shape.connections }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await fetch(req.url, { method: req.method ?? "GET", headers: req.headers, body: req.body });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (req.okStatus ? res.status !== req.okStatus : !res.ok) errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  console.log(
    JSON.stringify({
      rps: (latencies.length - errors) / shape.duration,
      p50: pct(50),
      p99: pct(99),
      requests: latencies.length,
      errors,
    }),
  );
}

/** Runs `script --load <url> …extraArgs` (which calls closedLoop) and reads its JSON line. */
export async function runBunLoad(
  script: string,
  name: string,
  url: string,
  shape: LoadShape,
  extraArgs: string[] = [],
): Promise<LoadResult> {
  const proc = Bun.spawn(
    [
      process.execPath,
      script,
      "--load",
      url,
      "--connections",
      String(shape.connections),
      "--duration",
      String(shape.duration),
      ...extraArgs,
    ],
    {
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("load loop failed");
  return { name, ...(JSON.parse(out) as Omit<LoadResult, "name">) };
}
