// Pieces shared by the library pages: the page frame, small views (times, status, pager) and form parsing.
import { encodeCursor } from "../../paging.ts";
import { html, layout, pageResponse, raw, type Flash, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { LIBRARY_STYLE, libraryCsp } from "./style.ts";

export const PAGE_SIZE = 20;
/** Pickers (notebook checkboxes and selects) show this many notebooks, newest first. */
export const PICKER_LIMIT = 500;
/** Tags offered as completions in the tag fields (the most used). */
export const TAG_SUGGESTIONS = 500;

export const ID_RE = {
  source: /^src_[0-9A-Z]{26}$/,
  notebook: /^nb_[0-9A-Z]{26}$/,
  note: /^note_[0-9A-Z]{26}$/,
};

export const csrfInput = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

export function when(iso: string | null | undefined): SafeHtml {
  if (!iso) return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

export function day(iso: string | null | undefined): SafeHtml {
  return iso ? html`<time datetime="${iso}">${iso.slice(0, 10)}</time>` : html``;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

export interface Frame {
  title: string;
  user: LayoutUser;
  body: SafeHtml;
  flash?: Flash;
  status?: number;
  /** The page plays audio from this site. */
  media?: boolean;
  headers?: Record<string, string>;
}

/** A library page: the app layout, the library stylesheet and a CSP admitting both. */
export function libraryPage(f: Frame): Response {
  const body = html`<style>${raw(LIBRARY_STYLE)}</style>
${f.body}`;
  const markup = layout({ title: f.title, user: f.user, body, flash: f.flash });
  return pageResponse(markup, {
    status: f.status,
    headers: { ...f.headers, "content-security-policy": libraryCsp({ media: f.media }) },
  });
}

export { signInFirst } from "../http.ts";

/** The path and query of a GET request: where to come back to after signing in. */
export function here(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** Every value of a repeated form field (checkboxes). */
export function formFields(body: unknown, name: string): string[] {
  if (!body || typeof body !== "object") return [];
  const v = (body as Record<string, unknown>)[name];
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  return [];
}

/** Browsers send textarea lines with CRLF; Markdown is kept with LF. */
export const lf = (text: string) => text.replace(/\r\n?/g, "\n");

export function flashOf(notices: Record<string, Flash>, key: string | undefined): Flash | undefined {
  return key && Object.hasOwn(notices, key) ? notices[key] : undefined;
}

/** "Older →" link keeping the page's other query parameters. */
export function pager(path: string, params: Record<string, string | undefined>, before: string | null): SafeHtml {
  if (!before) return html``;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  q.set("before", before);
  return html`<p><a href="${path}?${q.toString()}" rel="next">More →</a></p>`;
}

/**
 * The service cursor of a page's raw `before=<key>` parameter (web links stay readable; see nextKey for the
 * way back). A key of the wrong shape is ignored, giving the first page, as a mistyped link should.
 */
export function cursorOf(before: string | undefined, valid: RegExp): string | undefined {
  return before !== undefined && valid.test(before) ? encodeCursor(before) : undefined;
}

export interface Option {
  value: string;
  label: string;
}

export function select(name: string, id: string, options: Option[], selected: string | undefined): SafeHtml {
  return html`<select id="${id}" name="${name}">${options.map(
    (o) => html`<option value="${o.value}"${o.value === (selected ?? "") ? raw(" selected") : ""}>${o.label}</option>`,
  )}</select>`;
}

export function fieldError(id: string, error: string | undefined): SafeHtml {
  return error ? html`<p class="field-error" id="${id}-error">${error}</p>` : html``;
}

/** A confirmation page for deleting something: the POST form is the confirmation, no script needed. */
export function confirmDeletePage(p: {
  user: LayoutUser;
  what: string;
  name: string;
  action: string;
  cancel: string;
  note?: string;
}): Response {
  const body = html`<h1>Delete this ${p.what}?</h1>
<section class="card">
  <p><strong>${p.name}</strong></p>
  ${p.note ? html`<p class="muted">${p.note}</p>` : ""}
  <form method="post" action="${p.action}">
    ${csrfInput(p.user.csrfToken)}
    <div class="actions"><button type="submit" class="danger">Delete</button> <a href="${p.cancel}">Cancel</a></div>
  </form>
</section>`;
  return libraryPage({ title: `Delete ${p.what}`, user: p.user, body });
}
