// The source picker of the note editor and the notebook page: the linked sources as checked boxes, and a
// search over the whole library by title or address. Without script, "Find" posts the form back (the
// draft kept) and the page comes back with the matches; with script (/assets/picker.js) matches come as
// one types, from GET /library/source-choices, and a box checked among them joins the linked ones.
import { Elysia } from "elysia";
import { html, type SafeHtml } from "../../http/html/html.ts";
import type { WebDeps } from "../deps.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { ID_RE } from "./common.ts";

/** A source as a picker shows it. */
export interface SourceChoice {
  id: string;
  title: string;
}

export const PICKER_MATCHES = 20;
/** With no search yet, the newest few are offered. */
export const PICKER_RECENT = 8;

export const choiceOf = (r: { id: string; title: string | null; url: string }): SourceChoice => ({
  id: r.id,
  title: r.title || r.url,
});

function box(name: string, s: SourceChoice, checked: boolean): SafeHtml {
  return html`<label class="check"><input type="checkbox" name="${name}" value="${s.id}"${checked ? html` checked` : ""}> <span>${s.title}</span></label>`;
}

/** The matches (or recent sources) under the search field, leaving out those already linked. */
export function pickerResults(
  p: { query?: string; results: SourceChoice[]; linked: string[] },
  name = "source_ids",
): SafeHtml {
  const shown = p.results.filter((s) => !p.linked.includes(s.id));
  if (p.query && shown.length === 0)
    return html`<p class="muted">No other source has “${p.query}” in its title or address.</p>`;
  if (shown.length === 0) return html``;
  return html`<p class="muted picker-caption">${p.query ? `Matches for “${p.query}”` : "Recent sources"}</p>
<div class="picklist">${shown.map((s) => box(name, s, false))}</div>`;
}

export interface PickerInput {
  /** The sources already chosen (checked). */
  linked: SourceChoice[];
  /** Matches of the search, or the newest sources when there was none. */
  results: SourceChoice[];
  query?: string;
  error?: string;
  legend: SafeHtml;
  /** The field the checked ids are posted as. */
  name?: string;
}

export function sourcePicker(p: PickerInput): SafeHtml {
  const name = p.name ?? "source_ids";
  const linked = p.linked.map((s) => s.id);
  return html`<fieldset id="f-sources" class="picker" data-picker="${name}"${p.error ? html` aria-describedby="f-sources-error"` : ""}>
  <legend>${p.legend}</legend>
  <div class="picklist picked" data-picker-picked>${p.linked.length ? p.linked.map((s) => box(name, s, true)) : html`<p class="muted" data-picker-none>None chosen yet.</p>`}</div>
  <label for="f-source-q">Find a source <span class="muted">(title or address)</span></label>
  <div class="find">
    <input id="f-source-q" name="source_q" type="search" value="${p.query ?? ""}" maxlength="200" autocomplete="off" data-picker-query aria-controls="f-source-results">
    <button type="submit" name="find_sources" value="1" formnovalidate class="secondary">Find</button>
  </div>
  <div id="f-source-results" data-picker-results aria-live="polite">${pickerResults({ query: p.query, results: p.results, linked }, name)}</div>
  ${p.error ? html`<p class="field-error" id="f-sources-error">${p.error}</p>` : ""}
</fieldset>`;
}

/** The picker's script: matches as one types; a box checked among them moves up to the chosen ones. */
export const PICKER_SCRIPT = `(function () {
  var pickers = document.querySelectorAll("[data-picker]");
  for (var i = 0; i < pickers.length; i++) (function (picker) {
    var name = picker.getAttribute("data-picker");
    var query = picker.querySelector("[data-picker-query]");
    var results = picker.querySelector("[data-picker-results]");
    var picked = picker.querySelector("[data-picker-picked]");
    var timer = 0, asked = 0;
    function chosen() {
      var ids = [], boxes = picked.querySelectorAll("input[type=checkbox]");
      for (var j = 0; j < boxes.length; j++) ids.push(boxes[j].value);
      return ids;
    }
    function search() {
      var n = ++asked;
      var url = "/library/source-choices?name=" + encodeURIComponent(name) + "&q=" + encodeURIComponent(query.value.trim()) +
        "&linked=" + encodeURIComponent(chosen().join(","));
      fetch(url, { credentials: "same-origin", headers: { accept: "text/html" } }).then(function (r) {
        return r.ok ? r.text() : null;
      }).then(function (markup) {
        if (markup !== null && n === asked) results.innerHTML = markup;
      }).catch(function () {});
    }
    query.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(search, 180);
    });
    query.addEventListener("keydown", function (e) {
      if (e.key !== "Enter") return;
      e.preventDefault();
      clearTimeout(timer);
      search();
    });
    results.addEventListener("change", function (e) {
      var box = e.target;
      if (!box || box.type !== "checkbox" || !box.checked) return;
      var none = picked.querySelector("[data-picker-none]");
      if (none) none.remove();
      picked.appendChild(box.closest("label"));
      box.focus();
    });
  })(pickers[i]);
})();`;

export const PICKER_SCRIPT_PATH = `/assets/picker.js?v=${new Bun.CryptoHasher("sha256").update(PICKER_SCRIPT).digest("hex").slice(0, 12)}`;

export function pickerWebRoutes(s: Pick<WebDeps, "sources">, h: WebHelpers) {
  return (
    new Elysia()
      // GET /assets/picker.js — versioned by its path's ?v=, so it may be cached for good.
      .get(
        "/assets/picker.js",
        () =>
          new Response(PICKER_SCRIPT, {
            headers: {
              "content-type": "text/javascript; charset=utf-8",
              "cache-control": "public, max-age=31536000, immutable",
              "x-content-type-options": "nosniff",
            },
          }),
      )
      // GET /library/source-choices?q=&linked=&name= — the matches as the picker shows them (HTML fragment).
      .get(
        "/library/source-choices",
        h.page(async ({ request, query }) => {
          const me = await h.signedIn(request);
          if (!me) return new Response("Sign in first", { status: 401 });
          const q = String(query.q ?? "")
            .slice(0, 200)
            .trim();
          const linked = String(query.linked ?? "")
            .split(",")
            .filter((id) => ID_RE.source.test(id))
            .slice(0, 500);
          const name = query.name === "source_ids" || query.name === "add_source_ids" ? query.name : "source_ids";
          const results = await choices(s, me.actor, q, linked.length);
          return new Response(pickerResults({ query: q, results, linked }, name).value, {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "cache-control": "no-store",
              "x-content-type-options": "nosniff",
            },
          });
        }),
      )
  );
}

/** The matches of a search, or the newest sources without one (a few more than are linked, so some show). */
export async function choices(
  s: Pick<WebDeps, "sources">,
  actor: import("../../actor.ts").Actor,
  q: string,
  linkedCount = 0,
): Promise<SourceChoice[]> {
  if (q) return (await s.sources.find(actor, q, PICKER_MATCHES + linkedCount)).map(choiceOf);
  return (await s.sources.list(actor, { limit: Math.min(100, PICKER_RECENT + linkedCount) })).data.map(choiceOf);
}
