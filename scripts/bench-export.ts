// bench:export — a notebook with N sources and N notes (default 10,000 each, ~4.5 KB of Markdown
// apiece) exported as a Markdown zip: time to the first and last byte, and peak RSS over the RSS
// before the export (entries are read in pages and zipped as the client reads, so it stays flat).
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { newId } from "../src/ids.ts";
import { createServices } from "../src/services.ts";
import { fmt, trackPeakRss } from "./lib/measure.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const N = Number(process.argv[2] ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), "cp-bench-export-"));
const db = openDatabase(join(dir, "commonplace.db"));
const services = createServices({
  config: loadConfig({ EMBEDDER: process.env.EMBEDDER ?? "hashed", DATA_DIR: dir, LOG_LEVEL: "warn" }),
  db,
});
const app = createApp(services);
const user = await services.accounts.createUser({ email: "bench@example.com", password: "benchmark-password" });
const { key } = await services.keys.create(user.id, "bench");
const nb = await services.notebooks.create(
  { userId: user.id, auth: { type: "system", reason: "bench" } },
  { name: "Bench notebook" },
);

const body = (i: number) =>
  `## Section ${i}\n\n${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(80)}`;
const now = new Date().toISOString();
db.sqlite.transaction(() => {
  const src = db.sqlite.prepare(
    "INSERT INTO sources (id, user_id, url, normalized_url, title, status, content, byline, site_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'ready', ?, 'Author', 'Site', ?, ?)",
  );
  const link = db.sqlite.prepare("INSERT INTO notebook_sources (notebook_id, source_id, added_at) VALUES (?, ?, ?)");
  const note = db.sqlite.prepare(
    "INSERT INTO notes (id, user_id, notebook_id, title, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (let i = 0; i < N; i++) {
    const id = newId("source");
    src.run(
      id,
      user.id,
      `https://example.com/a/${i}`,
      `https://example.com/a/${i}`,
      `Article number ${i}`,
      body(i),
      now,
      now,
    );
    link.run(nb.id, id, now);
    note.run(newId("note"), user.id, nb.id, `Note ${i % 50}`, body(i), now, now);
  }
})();

Bun.gc(true);
const rssBefore = Math.round(process.memoryUsage.rss() / 1024 / 1024);
const rss = trackPeakRss();
const t0 = performance.now();
const res = await app.handle(
  new Request(`http://localhost/api/v1/notebooks/${nb.id}/export/markdown`, {
    headers: { authorization: `Bearer ${key}` },
  }),
);
let bytes = 0;
let firstByte = 0;
for await (const chunk of res.body!) {
  if (!firstByte) firstByte = performance.now();
  bytes += chunk.length;
}
const t1 = performance.now();
const peak = rss.stop();
db.close();
rmSync(dir, { recursive: true, force: true });
console.log(`bench:export  sources=${N} notes=${N} status=${res.status}`);
const textMb = (N * 2 * body(0).length) / 1024 / 1024;
console.log(
  `first byte ${fmt(firstByte - t0, 0)} ms, complete ${fmt((t1 - t0) / 1000)} s, zip ${fmt(bytes / 1024 / 1024)} MB of ${fmt(textMb, 1)} MB Markdown`,
);
console.log(`RSS before ${rssBefore} MB, peak during export ${peak} MB (+${fmt(peak - rssBefore, 1)} MB)`);
process.exit(0);
