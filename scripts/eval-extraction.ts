// Scores article extraction on the public article-extraction benchmark (181 news and blog pages with
// ground truth), for our extractor and for Readability alone in the same run, with its own metric.
//
//   bun run eval:extraction [--verbose] [--lowercase] [--only <page id prefix>]
//
// The pages are read from ../shared/fixtures/extraction beside the repository (see its SOURCE.md);
// they are never copied into the repository, and the script skips (exit 0) when they are absent.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { marked } from "marked";
import { extract } from "../src/features/library/sources/extract/index.ts";
import { exactMatch, shingleMatch, summarize, type TpFpFn } from "./lib/shingle-score.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "shared", "fixtures", "extraction");

interface Page {
  id: string;
  url: string;
  html: Uint8Array;
  truth: string;
}

function gunzipText(path: string): string {
  return new TextDecoder().decode(Bun.gunzipSync(readFileSync(path)));
}

function loadPages(only: string | undefined): Page[] {
  const truth = JSON.parse(gunzipText(join(FIXTURES, "ground-truth.json.gz"))) as Record<
    string,
    { url: string; articleBody: string }
  >;
  return readdirSync(join(FIXTURES, "html"))
    .filter((f) => f.endsWith(".html.gz") && (!only || f.startsWith(only)))
    .sort()
    .map((f) => {
      const id = f.replace(/\.html\.gz$/, "");
      const entry = truth[id];
      if (!entry) throw new Error(`no ground truth for ${id}`);
      return {
        id,
        url: entry.url,
        html: Bun.gunzipSync(readFileSync(join(FIXTURES, "html", f))),
        truth: entry.articleBody ?? "",
      };
    });
}

/** The text a reader sees in our Markdown: rendered, so link targets, image URLs and escapes are not words. */
function markdownText(markdown: string): string {
  const html = marked.parse(markdown, { async: false }) as string;
  const { document } = parseHTML(`<!DOCTYPE html><html><body>${html}</body></html>`);
  return document.body.textContent ?? "";
}

interface Run {
  text: string;
  /** Time spent extracting, without rendering our Markdown back to text for scoring. */
  ms: number;
}

async function ours(page: Page): Promise<Run> {
  const started = performance.now();
  try {
    const r = await extract({ body: page.html, contentType: "text/html", charset: "utf-8", url: page.url });
    const ms = performance.now() - started;
    return { text: markdownText(r.markdown), ms };
  } catch {
    return { text: "", ms: performance.now() - started };
  }
}

/** Readability as the benchmark runs it (parse, `textContent`), with linkedom standing in for jsdom. */
function readabilityAlone(page: Page): Run {
  const started = performance.now();
  let text = "";
  try {
    const { document } = parseHTML(new TextDecoder().decode(page.html));
    text = new Readability(document as unknown as Document).parse()?.textContent ?? "";
  } catch {
    // A page Readability cannot read scores as empty, as in the benchmark.
  }
  return { text, ms: performance.now() - started };
}

interface Scored {
  name: string;
  pages: TpFpFn[];
  exact: number;
  ms: number;
}

async function score(
  name: string,
  pages: Page[],
  run: (page: Page) => Run | Promise<Run>,
  lowercase: boolean,
): Promise<Scored> {
  const scored: Scored = { name, pages: [], exact: 0, ms: 0 };
  for (const page of pages) {
    const { text, ms } = await run(page);
    scored.ms += ms;
    scored.pages.push(shingleMatch(page.truth, text, lowercase));
    if (exactMatch(page.truth, text, lowercase)) scored.exact++;
  }
  return scored;
}

function line(s: Scored): string {
  const m = summarize(s.pages);
  const accuracy = s.exact / s.pages.length;
  return `${s.name.padEnd(18)} precision=${m.precision.toFixed(3)}  recall=${m.recall.toFixed(3)}  F1=${m.f1.toFixed(3)}  accuracy=${accuracy.toFixed(3)}  (${(s.ms / s.pages.length).toFixed(1)} ms/page)`;
}

/** Pages where ours and Readability differ most, for looking at by hand. */
function report(pages: Page[], a: Scored, b: Scored): void {
  const f1 = ([tp, fp, fn]: TpFpFn) => (tp + fp + fn === 0 ? 1 : (2 * tp) / (2 * tp + fp + fn));
  const rows = pages.map((p, i) => ({ id: p.id.slice(0, 12), url: p.url, a: a.pages[i]!, b: b.pages[i]! }));
  rows.sort((x, y) => f1(x.a) - f1(y.a));
  console.log(`\nworst pages for ${a.name} (tp fp fn scaled; ${b.name} F1 beside):`);
  const show = (r: (typeof rows)[number]) =>
    console.log(
      `${r.id}  F1=${f1(r.a).toFixed(3)}  fp=${r.a[1].toFixed(2)} fn=${r.a[2].toFixed(2)}  ${b.name}=${f1(r.b).toFixed(3)}  ${r.url}`,
    );
  rows.slice(0, 25).forEach(show);
  console.log(`\npages where ${a.name} trails ${b.name} by more than 0.01 F1:`);
  rows.filter((r) => f1(r.a) < f1(r.b) - 0.01).forEach(show);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      verbose: { type: "boolean", default: false },
      lowercase: { type: "boolean", default: false },
      only: { type: "string" },
    },
  });
  if (!existsSync(join(FIXTURES, "ground-truth.json.gz"))) {
    console.log(
      "eval:extraction skipped: the benchmark pages are not at ../shared/fixtures/extraction beside the repository.",
    );
    return;
  }
  const pages = loadPages(values.only);
  const casing = values.lowercase ? ", tokens lowercased" : "";
  console.log(
    `article-extraction benchmark: ${pages.length} pages, 4-token shingle precision/recall/F1 (its evaluate.py${casing})\n`,
  );
  const lowercase = values.lowercase ?? false;
  const mine = await score("commonplace", pages, ours, lowercase);
  const readability = await score("readability alone", pages, readabilityAlone, lowercase);
  console.log(line(mine));
  console.log(line(readability));
  const delta = summarize(mine.pages).f1 - summarize(readability.pages).f1;
  console.log(`\nF1 difference (commonplace − readability alone): ${delta >= 0 ? "+" : ""}${delta.toFixed(3)}`);
  console.log("(ms/page is extraction time alone, on whatever else the machine is doing.)");
  if (values.verbose) report(pages, mine, readability);
}

await main();
