// Pages for saving from elsewhere: the share target (/share, a phone's share sheet) and the bookmarklet's
// small window (/save), each followed by the saved source's status, which turns Ready by itself.
import type { NotebookPublic } from "../../features/library/notebooks/schema.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { contentSecurityPolicy } from "../../http/html/assets.ts";
import { html, layout, pageResponse, raw, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, fieldError, hostOf, select } from "../library/common.ts";
import { failureWords, statusBadge } from "../library/source-pages.ts";
import { LIBRARY_STYLE } from "../library/style.ts";
import { liveAttrs } from "../live.ts";

export type CaptureKind = "share" | "save";

const CAPTURE_STYLE = `
.card > :first-child, .card > input[type=hidden] + :not(input) { margin-top: 0; }
p.label { font-weight: 600; margin: .9rem 0 .3rem; }
.shared { overflow-wrap: anywhere; margin: 0 0 .35rem; }
.shared .title { display: block; font-weight: 600; }
.shared .url { font-size: .9rem; color: var(--muted); }
.saved .meta { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; color: var(--muted); font-size: .9rem; margin: .35rem 0; }
a.button { display: inline-block; padding: .5rem 1rem; border-radius: 6px; background: var(--accent); color: #fff; text-decoration: none; }
@media (prefers-color-scheme: dark) { a.button { color: #15171b; } }
.status.pending { border-style: dashed; }
`;

const sha256 = (text: string) => `'sha256-${new Bun.CryptoHasher("sha256").update(text).digest("base64")}'`;
let csp: string | undefined;
const captureCsp = () =>
  (csp ??= contentSecurityPolicy().replace(
    "style-src ",
    `style-src ${sha256(LIBRARY_STYLE)} ${sha256(CAPTURE_STYLE)} `,
  ));

/** The frame: the app layout (bare in the bookmarklet's window) with the library's and these styles. */
export function capturePage(p: {
  kind: CaptureKind;
  title: string;
  user: LayoutUser | null;
  body: SafeHtml;
  status?: number;
}): Response {
  const body = html`<style>${raw(LIBRARY_STYLE)}</style><style>${raw(CAPTURE_STYLE)}</style>
${p.body}`;
  const markup = layout({ title: p.title, user: p.user, body, bare: p.kind === "save", narrow: true });
  return pageResponse(markup, { status: p.status, headers: { "content-security-policy": captureCsp() } });
}

/** Close for the bookmarklet's window (shown by the page script), with words for when there is no script. */
const closeButton = (kind: CaptureKind) =>
  kind === "save" ? html`<button type="button" class="secondary" data-close hidden>Close</button>` : html``;

function sharedLink(url: string, title: string): SafeHtml {
  return html`<p class="shared">${title ? html`<span class="title">${title}</span>` : ""}<span class="url">${url}</span></p>`;
}

/** Where a problem with the link is shown: what is wrong, and a way on. */
export function problemPage(p: { kind: CaptureKind; user: LayoutUser | null; message: string; url?: string }) {
  const body = html`<h1>${p.url ? "This link cannot be saved" : "No link to save"}</h1>
<section class="card">
  ${p.url ? sharedLink(p.url, "") : ""}
  <p class="field-error" role="alert">${p.message}</p>
  <div class="actions">${p.kind === "save" ? closeButton("save") : html`<a href="/library">Go to your library</a>`}</div>
</section>`;
  return capturePage({ kind: p.kind, title: "Cannot save", user: p.user, body, status: 422 });
}

/**
 * The share target's confirmation: one Save button posting with the session's token. `auto` (the
 * request came from the share sheet or this site, never from another site) lets the page script send
 * it at once, so sharing is one step.
 */
export function sharePage(p: { user: LayoutUser; url: string; title: string; auto: boolean; error?: string }) {
  const body = html`<h1>Save to your library</h1>
<form method="post" action="/share" class="card"${p.auto && !p.error ? html` data-autosubmit` : ""}>
  ${csrfInput(p.user.csrfToken)}
  <input type="hidden" name="url" value="${p.url}">
  <input type="hidden" name="title" value="${p.title}">
  ${sharedLink(p.url, p.title)}
  ${p.error ? html`<p class="field-error" role="alert">${p.error}</p>` : ""}
  <div class="actions"><button type="submit">Save</button> <a href="/library">Cancel</a></div>
</form>`;
  return capturePage({ kind: "share", title: "Save a link", user: p.user, body, status: p.error ? 422 : 200 });
}

export interface SaveForm {
  url: string;
  title: string;
  notebookId: string;
  errors?: { title?: string; notebook_id?: string; url?: string };
}

/** The bookmarklet's window: the page's link, its title to edit, a notebook if there are any. */
export function saveWindowPage(p: { user: LayoutUser; form: SaveForm; notebooks: NotebookPublic[] }) {
  const e = p.form.errors ?? {};
  const notebooks = p.notebooks.length
    ? html`<label for="s-notebook">Notebook <span class="muted">(optional)</span></label>
  ${select("notebook_id", "s-notebook", [{ value: "", label: "None" }, ...p.notebooks.map((nb) => ({ value: nb.id, label: nb.name }))], p.form.notebookId)}
  ${fieldError("s-notebook", e.notebook_id)}`
    : html``;
  const body = html`<h1>Save this page</h1>
<form method="post" action="/save" class="card" novalidate>
  ${csrfInput(p.user.csrfToken)}
  <input type="hidden" name="url" value="${p.form.url}">
  <p class="label">Link</p>
  ${sharedLink(p.form.url, "")}
  ${e.url ? html`<p class="field-error" role="alert">${e.url}</p>` : ""}
  <label for="s-title">Title</label>
  <input id="s-title" name="title" type="text" value="${p.form.title}" maxlength="500" autocomplete="off"${e.title ? html` aria-invalid="true" aria-describedby="s-title-error"` : ""}>
  ${fieldError("s-title", e.title)}
  ${notebooks}
  <div class="actions"><button type="submit">Save</button> ${closeButton("save")}</div>
</form>`;
  const status = Object.keys(e).length ? 422 : 200;
  return capturePage({ kind: "save", title: "Save this page", user: p.user, body, status });
}

/** The saved source as it is now; live: re-rendered from its fragment when the source changes. */
export function savedCard(s: SourcePublic, kind: CaptureKind, since?: number): SafeHtml {
  const words =
    s.status === "pending"
      ? "Fetching its text. This updates by itself."
      : s.status === "ready"
        ? "Ready to read."
        : `It could not be fetched: ${failureWords(s.error)}.`;
  // In the bookmarklet's window the source opens in a tab of its own.
  const target = kind === "save" ? html` target="_blank" rel="noopener"` : "";
  return html`<section class="card saved"${liveAttrs({ kind: "source", id: s.id, fragment: `/${kind}/sources/${s.id}/card`, since })} aria-live="polite">
  <p class="shared"><span class="title">${s.title || s.url}</span><span class="url">${s.site_name || hostOf(s.url)}</span></p>
  <p class="meta">${statusBadge(s)} <span>${words}</span></p>
  <div class="actions"><a class="button" href="/library/sources/${s.id}"${target}>Open it</a>${kind === "share" ? html` <a href="/library">Go to your library</a>` : closeButton("save")}</div>
</section>`;
}

/** After saving (or finding it saved already): the source's card, pending until it turns ready. */
export function savedPage(p: {
  kind: CaptureKind;
  user: LayoutUser;
  source: SourcePublic;
  already: boolean;
  since: number;
}) {
  const heading = p.already ? "Already in your library" : "Saved to your library";
  const body = html`<h1>${heading}</h1>
${savedCard(p.source, p.kind, p.since)}
${p.kind === "save" ? html`<noscript><p class="muted">You can close this window.</p></noscript>` : ""}`;
  return capturePage({ kind: p.kind, title: heading, user: p.user, body });
}
