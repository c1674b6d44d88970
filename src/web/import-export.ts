// Settings → Import and export: upload a file, follow each import's progress (the live script swaps in
// fresh counts as they change; without script the page refreshes itself while one runs) and its
// per-item problems, and download the whole account.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { WebDeps } from "./deps.ts";
import { toPublicUser } from "../features/accounts/service.ts";
import { type ExportDeps, exportJson, exportNetscape } from "../features/imports/export.ts";
import { IMPORT_FORMATS, type ImportFormat } from "../features/imports/formats/types.ts";
import type { ImportPublic } from "../features/imports/schema.ts";
import { html, layout, pageResponse, type LayoutUser, type SafeHtml } from "../http/html/html.ts";
import { formField, redirect, signInFirst } from "./http.ts";
import { fragmentResponse, fragmentSignedOut, liveAttrs } from "./live.ts";
import type { WebHelpers } from "./oauth-routes.ts";

const PATH = "/settings/import-export";
const FORMAT_LABELS: Record<ImportFormat | "auto", string> = {
  auto: "Detect from the file",
  netscape: "Browser bookmarks (HTML: Chrome, Firefox, Safari, Edge, Karakeep, Linkding)",
  pocket_csv: "Pocket (CSV export)",
  pocket_html: "Pocket (older HTML export)",
  omnivore: "Omnivore (export zip)",
  karakeep: "Karakeep (JSON export)",
  opml: "Feed subscriptions (OPML)",
  urls: "A list of URLs (one a line)",
  commonplace: "Commonplace (JSON export)",
};

const active = (i: ImportPublic) => i.status === "queued" || i.status === "running" || i.fetching.pending > 0;

function progress(i: ImportPublic): SafeHtml {
  const c = i.counts;
  return html`<progress max="${String(Math.max(1, c.total))}" value="${String(c.processed)}" aria-label="Entries imported"></progress>
<span>${String(c.processed)} of ${String(c.total)}: ${String(c.created)} new, ${String(c.already_saved)} already saved, ${String(c.invalid)} invalid, ${String(c.failed)} failed${c.notebooks_created ? `, ${c.notebooks_created} notebooks made` : ""}.
Pages fetched: ${String(i.fetching.ready)} ready, ${String(i.fetching.failed)} failed, ${String(i.fetching.pending)} waiting.</span>`;
}

/** Live marks for an import: its own progress notes, and its sources' events while pages are fetched. */
const importLive = (i: ImportPublic, fragment: string, since?: number) =>
  liveAttrs({
    kind: "import",
    id: i.id,
    fragment,
    since,
    also: active(i) ? "source" : undefined,
    announce: `Import ${i.status}: ${i.counts.processed} of ${i.counts.total} entries${i.fetching.pending ? `, ${i.fetching.pending} pages waiting` : ""}.`,
  });

function importRow(i: ImportPublic): SafeHtml {
  return html`<tr${importLive(i, `${PATH}/${i.id}/live?part=row`)}><td data-label="File"><a href="${PATH}/${i.id}">${i.filename ?? i.id}</a></td><td data-label="Format">${i.format}</td>
<td data-label="Status">${i.status}</td><td data-label="Progress"><div>${progress(i)}</div></td><td data-label="Started">${i.created_at.replace("T", " ").slice(0, 16)}</td></tr>`;
}

/** Without script, a page following a running import reloads itself every few seconds. */
const noScriptRefresh = (list: ImportPublic[]) =>
  list.some(active) ? html`<noscript><meta http-equiv="refresh" content="3"></noscript>` : undefined;

function mainPage(user: LayoutUser, imports: ImportPublic[], error?: string, since?: number): SafeHtml {
  const options = (["auto", ...IMPORT_FORMATS] as const).map(
    (f) => html`<option value="${f}">${FORMAT_LABELS[f]}</option>`,
  );
  const list = imports.length
    ? html`<table><thead><tr><th>File</th><th>Format</th><th>Status</th><th>Progress</th><th>Started</th></tr></thead><tbody${since === undefined ? "" : html` data-live-since="${since}"`}>${imports.map(importRow)}</tbody></table>`
    : html`<p class="muted">Nothing imported yet.</p>`;
  const body = html`<h1>Import and export</h1>
${error ? html`<p class="flash error" role="alert">${error}</p>` : html``}
<h2>Import</h2>
<p class="muted">Links already in your library are not added twice; folders become notebooks; saved dates, tags and read state are kept. Pages are fetched in the background, gently, after your own saves.</p>
<form method="post" action="${PATH}" enctype="multipart/form-data">
  <input type="hidden" name="csrf" value="${user.csrfToken}">
  <label>File <input type="file" name="file" required></label>
  <label>Format <select name="format">${options}</select></label>
  <button type="submit">Import</button>
</form>
<h2>Imports</h2>
${list}
<h2>Export</h2>
<p><a href="${PATH}/export.json" download>Download everything (JSON)</a> — sources with their text, notebooks, notes, tags, podcasts, workflows (without secrets) and feeds; it can be imported here again.</p>
<p><a href="${PATH}/export.html" download>Download bookmarks (HTML)</a> — for a browser: notebooks as folders.</p>`;
  return layout({ title: "Import and export", user, body, head: noScriptRefresh(imports) });
}

/** What changes on an import's page while it runs: status, counts and problems. */
function importDetail(i: ImportPublic, since?: number): SafeHtml {
  const problems = i.problems.length
    ? html`<table><thead><tr><th>Entry</th><th>Line</th><th>URL</th><th>Problem</th></tr></thead><tbody>${i.problems.map(
        (p) =>
          html`<tr><td data-label="Entry">${String(p.entry)}</td><td data-label="Line">${p.line === null ? "" : String(p.line)}</td><td data-label="URL">${p.url ?? ""}</td><td data-label="Problem">${p.reason}</td></tr>`,
      )}</tbody></table>${i.problems_total > i.problems.length ? html`<p class="muted">…and ${String(i.problems_total - i.problems.length)} more.</p>` : html``}`
    : html`<p class="muted">No problems${active(i) ? " so far" : ""}.</p>`;
  return html`<div class="import-live"${importLive(i, `${PATH}/${i.id}/live`, since)}>
<p>Format: ${i.format}. Status: <strong>${i.status}</strong>${i.error ? html` — ${i.error}` : html``}.</p>
<p class="import-progress">${progress(i)}</p>
${active(i) ? html`<p class="muted">This page shows the counts as they change while the import runs.</p>` : html``}
<h2>Problems</h2>
${problems}
</div>`;
}

function detailPage(user: LayoutUser, i: ImportPublic, since?: number): SafeHtml {
  const body = html`<p><a href="${PATH}">← Import and export</a></p>
<h1>${i.filename ?? i.id}</h1>
${importDetail(i, since)}`;
  return layout({ title: `Import ${i.filename ?? i.id}`, user, body, head: noScriptRefresh([i]) });
}

export function importExportWebRoutes(
  s: Pick<
    WebDeps,
    "clock" | "feeds" | "highlights" | "imports" | "live" | "notebooks" | "notes" | "podcasts" | "sources" | "workflows"
  >,
  h: WebHelpers,
) {
  const exportDeps: ExportDeps = { ...s, workflows: s.workflows.service };
  return (
    new Elysia()
      // GET /settings/import-export
      .get(
        PATH,
        h.page(async ({ request }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(PATH);
          const since = await s.live.events.latestSeq(); // before reading: a change after it reaches the page live
          const list = (await s.imports.list(me.actor, { limit: 50 })).data;
          return pageResponse(mainPage(h.layoutUser(me), list, undefined, since));
        }),
      )
      // POST /settings/import-export (multipart: csrf, file, format)
      .post(
        PATH,
        h.page(async ({ request, body }) => {
          const me = await h.checkSessionPost(request, body);
          if (!me) return signInFirst(PATH);
          const file = (body as Record<string, unknown> | undefined)?.["file"];
          const format = formField(body, "format") || "auto";
          try {
            if (!(file instanceof Blob) || file.size === 0)
              throw new AppError("validation_failed", "Choose a file to import.");
            if (format !== "auto" && !(IMPORT_FORMATS as readonly string[]).includes(format))
              throw new AppError("validation_failed", "Choose a format from the list.");
            const imp = await s.imports.create(me.actor, {
              bytes: new Uint8Array(await file.arrayBuffer()),
              filename: (file as File).name || null,
              format: format as ImportFormat | "auto",
            });
            return redirect(`${PATH}/${imp.id}`);
          } catch (e) {
            if (!(e instanceof AppError) || e.status >= 500) throw e;
            const list = (await s.imports.list(me.actor, { limit: 50 })).data;
            return pageResponse(mainPage(h.layoutUser(me), list, e.detail ?? e.message), { status: e.status });
          }
        }),
      )
      // GET /settings/import-export/export.json and export.html
      .get(
        `${PATH}/export.:kind`,
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(PATH);
          const day = new Date(s.clock.now()).toISOString().slice(0, 10);
          if (params.kind === "html") {
            return new Response(exportNetscape(exportDeps, me.actor), {
              headers: {
                "content-type": "text/html; charset=utf-8",
                "content-disposition": `attachment; filename="commonplace-bookmarks-${day}.html"`,
                "cache-control": "no-store",
              },
            });
          }
          if (params.kind !== "json") throw new AppError("not_found", "No such export");
          return new Response(
            exportJson(exportDeps, me.actor, toPublicUser(me.user) as unknown as Record<string, unknown>),
            {
              headers: {
                "content-type": "application/json; charset=utf-8",
                "content-disposition": `attachment; filename="commonplace-export-${day}.json"`,
                "cache-control": "no-store",
              },
            },
          );
        }),
      )
      // GET /settings/import-export/:id
      .get(
        `${PATH}/:id`,
        h.page(async ({ request, params }) => {
          const me = await h.signedIn(request);
          if (!me) return signInFirst(PATH);
          const since = await s.live.events.latestSeq();
          const imp = await s.imports.get(me.actor, params.id ?? "");
          return pageResponse(detailPage(h.layoutUser(me), imp, since));
        }),
      )
      // GET /settings/import-export/:id/live[?part=row] — the changing part of an import's page (or its row)
      .get(
        `${PATH}/:id/live`,
        h.page(async ({ request, params, query }) => {
          const me = await h.signedIn(request);
          if (!me) return fragmentSignedOut();
          const imp = await s.imports.get(me.actor, params.id ?? "");
          return fragmentResponse(query.part === "row" ? importRow(imp) : importDetail(imp));
        }),
      )
  );
}
