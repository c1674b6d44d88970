// Settings → Search quality: start a self-test of the library's search, follow it (the live script
// swaps in the run's region on each progress note; without script the page reloads itself while it
// runs), read its recall per search mode and kind of query, and compare it with earlier runs.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { QualityRunPublic } from "../features/search-quality/schema.ts";
import { DEFAULT_SAMPLE, MAX_SAMPLE, MAX_SEED, MIN_READY_SOURCES } from "../features/search-quality/schema.ts";
import { html, layout, pageResponse, type LayoutUser, type SafeHtml } from "../http/html/html.ts";
import type { WebDeps } from "./deps.ts";
import { formField, redirect, signInFirst } from "./http.ts";
import { fragmentResponse, fragmentSignedOut, liveAttrs } from "./live.ts";
import type { WebHelpers } from "./oauth-routes.ts";
import { field, type FieldErrors } from "./pages.ts";

const PATH = "/settings/search-quality";
const MODE_NAMES = { text: "Words (text)", vector: "Meaning (vector)", hybrid: "Both (hybrid)" } as const;
const KIND_NAMES = { title: "Titles", heading: "Headings", paraphrase: "Paraphrased first sentences" } as const;

const active = (r: QualityRunPublic | undefined) => r?.status === "queued" || r?.status === "running";
const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
const day = (iso: string | null) => (iso ?? "").replace("T", " ").slice(0, 16);

function reportTables(r: QualityRunPublic): SafeHtml {
  const rep = r.report!;
  const modes = html`<h3 id="quality-modes">All ${String(rep.queries.total)} queries</h3>
<table aria-labelledby="quality-modes">
<thead><tr><th scope="col">Search</th><th scope="col">Found first (recall@1)</th><th scope="col">In the top five (recall@5)</th><th scope="col">Failed</th></tr></thead>
<tbody>${rep.modes.map(
    (m) =>
      html`<tr><td data-label="Search">${MODE_NAMES[m.mode]}</td><td data-label="Found first">${pct(m.recall_at_1)}</td><td data-label="In the top five">${pct(m.recall_at_5)}</td><td data-label="Failed">${m.errors ? html`${String(m.errors)} <span class="muted">(${m.error ?? ""})</span>` : "0"}</td></tr>`,
  )}</tbody></table>`;
  const cell = (m: (typeof rep.modes)[number], kind: keyof typeof KIND_NAMES) => {
    const k = m.kinds.find((x) => x.kind === kind)!;
    return `${pct(k.recall_at_1)} · ${pct(k.recall_at_5)}`;
  };
  const kinds = html`<h3 id="quality-kinds">By kind of query</h3>
<p class="muted">Each cell: found first · in the top five.</p>
<table aria-labelledby="quality-kinds">
<thead><tr><th scope="col">Query</th><th scope="col">Queries</th>${rep.modes.map((m) => html`<th scope="col">${MODE_NAMES[m.mode]}</th>`)}</tr></thead>
<tbody>${(Object.keys(KIND_NAMES) as (keyof typeof KIND_NAMES)[]).map(
    (kind) =>
      html`<tr><td data-label="Query">${KIND_NAMES[kind]}</td><td data-label="Queries">${String(rep.queries[kind])}</td>${rep.modes.map(
        (m) => html`<td data-label="${MODE_NAMES[m.mode]}">${cell(m, kind)}</td>`,
      )}</tr>`,
  )}</tbody></table>`;
  const embedded =
    rep.embedded < rep.sampled
      ? html` <strong>${String(rep.sampled - rep.embedded)} of them were not fully embedded yet</strong>, which lowers the meaning and hybrid figures; run again once embedding has finished.`
      : "";
  const model = rep.embedder
    ? html`Meaning search used the embedding model <code>${rep.embedder}</code>${rep.configured_embedder !== rep.embedder ? html` (the library is being re-embedded with <code>${rep.configured_embedder}</code>; search switches when that is done)` : ""}.`
    : html`Nothing was embedded yet, so meaning search found nothing.`;
  const misses = rep.misses.length
    ? html`<details><summary>Queries hybrid search missed (${String(rep.misses.length)}${rep.misses.length === 10 ? " or more" : ""})</summary>
<ul>${rep.misses.map((m) => html`<li>“${m.query}” <span class="muted">(${KIND_NAMES[m.kind].toLowerCase()} of <a href="/library/sources/${m.source_id}">${m.title ?? m.source_id}</a>; words: ${m.ranks.text === null ? "not in the top five" : `#${m.ranks.text}`}, meaning: ${m.ranks.vector === null ? "not in the top five" : `#${m.ranks.vector}`})</span></li>`)}</ul></details>`
    : "";
  return html`<p>Measured on ${String(rep.sampled)} of your ${String(rep.ready_sources)} ready sources (seed ${String(rep.seed)}), finished ${day(r.finished_at)}.${embedded}</p>
<p>${model}</p>
${modes}
${kinds}
${misses}`;
}

interface RegionInput {
  user: LayoutUser;
  runs: QualityRunPublic[];
  since?: number;
  error?: string;
  fieldErrors?: FieldErrors;
  values?: { sample?: string; seed?: string };
}

function runStatus(r: QualityRunPublic): SafeHtml {
  const { done, total } = r.progress;
  const where = total
    ? `${done} of ${total} searches made.`
    : r.status === "queued"
      ? "Waiting for its turn…"
      : "Drawing the sample…";
  return html`<p>Status: <strong>${r.status}</strong>. ${where}</p>
<progress max="${String(Math.max(1, total))}" value="${String(done)}" aria-label="Searches made"></progress>
<p class="muted">Search works as usual meanwhile: this runs in the background, after other work. <noscript>This page reloads itself every few seconds until the run is done.</noscript></p>`;
}

function startForm(p: RegionInput): SafeHtml {
  const fe = p.fieldErrors ?? {};
  const lastSeed = p.runs.find((r) => r.status === "done")?.seed;
  return html`<h2>${p.runs.length ? "Run again" : "Start"}</h2>
<form method="post" action="${PATH}" novalidate>
  <input type="hidden" name="csrf" value="${p.user.csrfToken}">
  ${field({ name: "sample", label: "Sources to sample", type: "text", value: p.values?.sample ?? String(DEFAULT_SAMPLE), autocomplete: "off", error: fe["sample"], hint: `${MIN_READY_SOURCES} to ${MAX_SAMPLE}; fewer when your library has fewer.` })}
  ${field({ name: "seed", label: "Seed (optional)", type: "text", value: p.values?.seed ?? (lastSeed === undefined ? "" : String(lastSeed)), autocomplete: "off", error: fe["seed"], hint: "The same seed draws the same sources and queries: keep it to compare like for like. Empty: a new sample." })}
  <div class="actions"><button type="submit">Start the test</button></div>
</form>`;
}

/**
 * What changes while a run goes on: its status and progress, then its report, the start form (hidden
 * while a run is going) and the runs compared. The live script re-renders it whole on each progress note.
 */
function runRegion(p: RegionInput): SafeHtml {
  const r = p.runs[0];
  const live = r
    ? liveAttrs({
        kind: "search_quality",
        id: r.id,
        fragment: `${PATH}/live`,
        since: p.since,
        announce:
          r.status === "done" ? "Search quality measured: the report is shown." : `Search quality run ${r.status}.`,
      })
    : "";
  const state = !r
    ? html`<p class="muted">No run yet.</p>`
    : active(r)
      ? runStatus(r)
      : r.status === "failed"
        ? html`<p class="form-error" role="alert">The run started ${day(r.created_at)} failed: ${r.error ?? "unknown error"}</p>`
        : reportTables(r);
  return html`<div id="quality-run"${live}>
${p.error ? html`<p class="form-error" role="alert">${p.error}</p>` : ""}
${state}
${active(r) ? "" : startForm(p)}
${history(p.runs)}
</div>`;
}

function history(runs: QualityRunPublic[]): SafeHtml {
  const done = runs.filter((r) => r.status === "done" && r.report);
  if (done.length < 2) return html``;
  const at5 = (r: QualityRunPublic, mode: string) =>
    pct(r.report!.modes.find((m) => m.mode === mode)?.recall_at_5 ?? null);
  return html`<h2>Runs compared</h2>
<table><thead><tr><th scope="col">Finished</th><th scope="col">Embedding model</th><th scope="col">Sources (seed)</th><th scope="col">Words @5</th><th scope="col">Meaning @5</th><th scope="col">Both @5</th></tr></thead>
<tbody>${done.map(
    (r) =>
      html`<tr><td data-label="Finished">${day(r.finished_at)}</td><td data-label="Embedding model"><code>${r.report!.embedder ?? "none"}</code></td><td data-label="Sources (seed)">${String(r.report!.sampled)} (${String(r.seed)})</td><td data-label="Words @5">${at5(r, "text")}</td><td data-label="Meaning @5">${at5(r, "vector")}</td><td data-label="Both @5">${at5(r, "hybrid")}</td></tr>`,
  )}</tbody></table>`;
}

function qualityPage(p: RegionInput): SafeHtml {
  const body = html`<h1>Search quality</h1>
<p>How well does search find things in <em>your</em> library? This test draws sources of yours at random and,
for each, searches for it the way you might look for it again: by its <strong>title</strong>, by one of its
<strong>headings</strong>, and by a <strong>paraphrase of its first sentence</strong> (its rarest words left out,
the small words shuffled, as when you remember the gist but not the wording). Each query is run with search by
words, by meaning and by both, and the report says how often the source came first (recall@1) and how often it
was among the first five (recall@5).</p>
${runRegion(p)}
<h2>Trying another embedding model</h2>
<p>Search by meaning depends on the embedding model. The built-in one works offline; a larger model served by
an OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenAI…) usually finds paraphrases better. The server's
administrator sets <code>AI_BASE_URL</code> to the server and <code>AI_EMBEDDING_MODEL</code> to the model, and
restarts: your library is re-embedded in the background, and search keeps using the current model until that is
done. Then run this test again with the same seed: the words row stays as it is (it uses no model), and the
meaning and both rows show what the new model changes.</p>`;
  const head = active(p.runs[0]) ? html`<noscript><meta http-equiv="refresh" content="3"></noscript>` : undefined;
  return layout({ title: "Search quality", user: p.user, body, head });
}

/** The form's numbers, or the errors naming the fields. */
function readForm(body: unknown): { sample?: number; seed?: number; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const num = (name: string, min: number, max: number) => {
    const raw = formField(body, name).trim();
    if (!raw) return undefined;
    const n = /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(n >= min && n <= max)) errors[name] = `Enter a whole number from ${min} to ${max}.`;
    return n;
  };
  const sample = num("sample", MIN_READY_SOURCES, MAX_SAMPLE);
  const seed = num("seed", 0, MAX_SEED);
  return { sample, seed, errors };
}

export function searchQualityWebRoutes(s: Pick<WebDeps, "searchQuality" | "live">, h: WebHelpers) {
  const render = async (
    me: NonNullable<Awaited<ReturnType<WebHelpers["signedIn"]>>>,
    extra: Partial<RegionInput> = {},
  ) => {
    const since = await s.live.events.latestSeq(); // before reading: a change after it reaches the page live
    return qualityPage({ user: h.layoutUser(me), runs: await s.searchQuality.recent(me.actor, 10), since, ...extra });
  };
  return (
    new Elysia()
      // GET /settings/search-quality
      .get(
        PATH,
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(PATH);
          return pageResponse(await render(me));
        }),
      )
      // POST /settings/search-quality (form: csrf, sample, seed)
      .post(
        PATH,
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(PATH);
          const values = { sample: formField(body, "sample"), seed: formField(body, "seed") };
          const form = readForm(body);
          if (Object.keys(form.errors).length)
            return pageResponse(await render(me, { fieldErrors: form.errors, values }), { status: 422 });
          try {
            await s.searchQuality.start(me.actor, { sample: form.sample, seed: form.seed });
            return redirect(PATH);
          } catch (e) {
            if (!(e instanceof AppError) || e.status >= 500) throw e;
            return pageResponse(await render(me, { error: e.detail ?? e.message, values }), { status: e.status });
          }
        }),
      )
      // GET /settings/search-quality/live — the run's region, for the live script
      .get(
        `${PATH}/live`,
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          if (!me) return fragmentSignedOut();
          const runs = await s.searchQuality.recent(me.actor, 10);
          return fragmentResponse(runRegion({ user: h.layoutUser(me), runs }));
        }),
      )
  );
}
