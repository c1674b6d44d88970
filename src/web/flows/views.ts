// Small views shared by the workflow, run, token and feed pages: JSON blocks, statuses, durations, one-time URLs.
import { html, raw, type SafeHtml } from "../../http/html/html.ts";

/** JSON longer than this is cut, with the whole of it one click away (a <details>, no script needed). */
export const JSON_PREVIEW_CHARS = 1500;
export const JSON_PREVIEW_LINES = 24;

/** Pretty-printed JSON as text: outside data (response bodies, feed titles) can never become markup. */
export function jsonBlock(value: unknown, label: string): SafeHtml {
  if (value === undefined) return html`<p class="muted">—</p>`;
  const text = JSON.stringify(value, null, 2) ?? String(value);
  const lines = text.split("\n");
  if (text.length <= JSON_PREVIEW_CHARS && lines.length <= JSON_PREVIEW_LINES)
    return html`<pre class="json" aria-label="${label}">${text}</pre>`;
  const kb = (new TextEncoder().encode(text).length / 1024).toFixed(1);
  const head = lines.slice(0, JSON_PREVIEW_LINES).join("\n").slice(0, JSON_PREVIEW_CHARS);
  return html`<pre class="json" aria-label="${label} (start)">${head}…</pre>
<details><summary>Show all of ${label} (${kb} KB)</summary><pre class="json">${text}</pre></details>`;
}

export function duration(from: string | null | undefined, to: string | null | undefined): string {
  if (!from || !to) return "—";
  const ms = Date.parse(to) - Date.parse(from);
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** A run's status, marked for the live-update script (which replaces the text and class). */
export function runStatus(run: { id: string; status: string }): SafeHtml {
  return html`<span class="status ${run.status}" data-live="run" data-live-id="${run.id}" data-live-field="status">${run.status}</span>`;
}

export function badge(text: string, kind = text): SafeHtml {
  return html`<span class="status ${kind}">${text}</span>`;
}

/** A secret URL shown this once: selectable text without script, a copy button with it. */
export function oneTimeUrl(p: {
  heading: string;
  url: string;
  note: SafeHtml | string;
  replaceWith: string;
}): SafeHtml {
  return html`<section class="card" data-replace-history="${p.replaceWith}">
  <h2>${p.heading}</h2>
  <p>${p.note} <strong>It is shown only this once.</strong></p>
  <div class="secret">
    <input type="text" id="webhook-url" value="${p.url}" readonly aria-label="Webhook URL" autocomplete="off" spellcheck="false">
    <button type="button" data-copy="webhook-url" hidden>Copy</button>
  </div>
  <p class="muted">Send it a JSON object: <code>curl -X POST -H 'Content-Type: application/json' -d '{"url": "https://…"}' &lt;URL&gt;</code></p>
</section>`;
}

export const checked = (on: boolean) => raw(on ? " checked" : "");
export const selected = (on: boolean) => raw(on ? " selected" : "");
