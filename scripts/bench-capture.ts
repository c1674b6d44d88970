// bench:capture — what the browser extension's user waits for: from POST /api/v1/sources with a
// captured page's HTML (~100 KB, the `html` field of the capture contract) to the source being
// ready, p50/p95 over 50 saves, one at a time, against the real service over loopback HTTP. No
// outside fetch is involved: the URLs are under .invalid, so a server that fetched them would fail.
// Usage: bun run bench:capture [saves]   (target p95 ≤ 1 s)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { createServices } from "../src/services.ts";
import { fmt, summarize } from "./lib/measure.ts";

const SAVES = Number(process.argv[2] ?? 50);
const TARGET_BYTES = 100 * 1024;

/** A news-like page of about 100 KB: navigation, an article of varied paragraphs, comments, footer. */
export function capturedPage(n: number): string {
  const words = "tide kelp otter urchin reef current harbour gull limpet anemone storm shore pool rock swell".split(
    " ",
  );
  const paragraph = (i: number) =>
    `<p>${Array.from({ length: 60 }, (_, j) => words[(i * 7 + j * 3 + n) % words.length]).join(" ")}.</p>`;
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Field notes ${n}</title>
<meta property="og:site_name" content="Coast Weekly"></head><body><nav>${Array.from({ length: 40 }, (_, i) => `<a href="/s/${i}">Section ${i}</a>`).join(" ")}</nav>
<main><article><h1>Field notes ${n}</h1>`;
  const tail = `</article></main><section id="comments"><p>First!</p></section><footer>Copyright Coast Weekly.</footer></body></html>`;
  let body = "";
  for (let i = 0; head.length + body.length + tail.length < TARGET_BYTES; i++) body += paragraph(i);
  return head + body + tail;
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), "cp-bench-capture-"));
  const config = loadConfig({
    EMBEDDER: process.env.EMBEDDER ?? "hashed",
    DATA_DIR: dir,
    LOG_LEVEL: "warn",
    JOB_POLL_MS: "20",
    RATE_LIMIT_PER_MINUTE: "1000000",
  });
  const db = openDatabase(join(dir, "commonplace.db"));
  const services = createServices({ config, db });
  const app = createApp(services);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => app.handle(r) });
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const user = await services.accounts.createUser({ email: "bench@example.com", password: "benchmark-password" });
  const { key } = await services.keys.create(user.id, "bench");
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  services.runner.start();

  const cleanup = async () => {
    await services.runner.stop({ graceMs: 1000 });
    await services.extractor.close();
    await server.stop(true);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };

  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < SAVES; i++) {
    const html = capturedPage(i);
    bytes += html.length;
    const t0 = performance.now();
    const res = await fetch(`${base}/sources`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: `https://capture-bench.invalid/notes/${i}`, html }),
    });
    if (res.status !== 201) {
      const text = await res.text();
      await cleanup();
      console.error(
        res.status === 422 && text.includes("html")
          ? "bench:capture: this server does not accept the `html` field of POST /api/v1/sources yet (capture contract, server part)."
          : `bench:capture: POST failed: ${res.status} ${text}`,
      );
      process.exit(2);
    }
    const { id } = (await res.json()) as { id: string };
    for (;;) {
      const s = (await (await fetch(`${base}/sources/${id}`, { headers })).json()) as {
        status: string;
        error: string | null;
      };
      if (s.status === "ready") break;
      if (s.status === "failed") {
        await cleanup();
        console.error(`bench:capture: source ${i} failed (${s.error}); was the URL fetched instead of the HTML used?`);
        process.exit(1);
      }
      await Bun.sleep(5);
    }
    samples.push(performance.now() - t0);
  }
  await cleanup();
  const { p50, p95, mean } = summarize(samples);
  console.log(`bench:capture  saves=${SAVES} html≈${fmt(bytes / SAVES / 1024, 0)} KB each`);
  console.log(
    `save → ready   p50 ${fmt(p50, 0)} ms  p95 ${fmt(p95, 0)} ms  mean ${fmt(mean, 0)} ms  (target p95 ≤ 1000 ms)`,
  );
  process.exit(0);
}
