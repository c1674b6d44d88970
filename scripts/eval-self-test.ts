// The search quality self-test (Settings → Search quality) on a library nobody wrote for us: the real
// articles of the public extraction benchmark (../shared/fixtures/extraction beside the repository),
// saved as sources through the real ingestion (a local server hands each one out as Markdown, its
// title made from its address), then evaluated with the seeds given. Prints the CLI's table per seed.
//
//   bun run eval:self-test [--sample 50] [--seeds 1,2]          EMBEDDER=hashed for the small embedder
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { systemActor } from "../src/actor.ts";
import { formatQualityReport } from "../src/features/search-quality/cli.ts";
import { saveSource, startMarkdownSite } from "../src/features/search/library.fixture.ts";
import { createTestContext, userWithKey } from "../test/helpers.ts";

const FILE = join(import.meta.dir, "..", "..", "shared", "fixtures", "extraction", "ground-truth.json.gz");
const { values } = parseArgs({
  options: { sample: { type: "string", default: "50" }, seeds: { type: "string", default: "1,2" } },
});

if (!existsSync(FILE)) {
  console.log(
    "eval:self-test skipped: the benchmark pages are not at ../shared/fixtures/extraction beside the repository.",
  );
  process.exit(0);
}
const all = JSON.parse(gunzipSync(readFileSync(FILE)).toString("utf8")) as Record<
  string,
  { url: string; articleBody: string }
>;
// Articles of more than 150 words, in key order; the title is the address's last segment in words.
const articles = Object.entries(all)
  .sort(([x], [y]) => x.localeCompare(y))
  .filter(([, v]) => v.articleBody.split(/\s+/).length > 150);

const site = startMarkdownSite();
const ctx = createTestContext({ EMBEDDER: process.env.EMBEDDER ?? "builtin" });
const u = await userWithKey(ctx, "self-test@example.com");
for (const [key, v] of articles) {
  const slug = new URL(v.url).pathname.split("/").filter(Boolean).pop() ?? key;
  const title = slug
    .replace(/\.html?$/, "")
    .replace(/[-_]+/g, " ")
    .replace(/\b\d{6,}\b/g, "")
    .trim();
  await saveSource(ctx, u.key, site, `/article-${key.slice(0, 12)}`, `# ${title}\n\n${v.articleBody}`);
}
const started = performance.now();
await ctx.runner.drain({ timeoutMs: 3_600_000 });
console.log(
  `${articles.length} articles saved, fetched, indexed and embedded in ${Math.round(performance.now() - started)} ms\n`,
);
for (const seed of values.seeds.split(",").map(Number)) {
  const report = await ctx.services.searchQuality.evaluate(systemActor(u.userId, "eval"), {
    sample: Number(values.sample),
    seed,
  });
  for (const line of formatQualityReport(u.email, report)) console.log(line);
  console.log("");
}
await site.stop();
process.exit(0);
