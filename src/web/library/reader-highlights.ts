// The reader's highlights column: every highlight of the source in text order with its note, forms to
// recolour, annotate and delete it (they work without script; with it they answer in place), and the
// orphaned ones (text gone after a refetch) flagged. The list also carries what the script needs to
// mark each quote inline: its position in the article text and its colour.
import { HIGHLIGHT_COLORS, type HighlightPublic } from "../../features/library/highlights/schema.ts";
import { html, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput } from "./common.ts";

const COLOR_NAMES: Record<(typeof HIGHLIGHT_COLORS)[number], string> = {
  yellow: "Yellow",
  green: "Green",
  blue: "Blue",
  pink: "Pink",
  purple: "Purple",
};

function colorChoice(name: string, selected: string, idPrefix: string): SafeHtml {
  return html`<fieldset class="hl-colors"><legend>Colour</legend>${HIGHLIGHT_COLORS.map(
    (c) =>
      html`<label class="hl-swatch-label" for="${idPrefix}-${c}"><input type="radio" id="${idPrefix}-${c}" name="${name}" value="${c}"${c === selected ? html` checked` : ""}><span class="hl-swatch hl-${c}" aria-hidden="true"></span><span class="sr-only">${COLOR_NAMES[c]}</span></label>`,
  )}</fieldset>`;
}

function item(user: LayoutUser, sourceId: string, h: HighlightPublic): SafeHtml {
  const base = `/library/sources/${sourceId}/reader/highlights/${h.id}`;
  const fid = `f-hl-${h.id}`;
  return html`<li class="hl-item hl-${h.color}" id="hl-${h.id}" data-highlight="${h.id}" data-start="${h.position.start}" data-end="${h.position.end}" data-color="${h.color}" data-exact="${h.exact}"${h.orphaned ? html` data-orphaned` : ""}>
  ${h.orphaned ? html`<p class="hl-orphan"><strong>Not in the current text</strong> — the page changed when it was fetched again.</p>` : ""}
  <blockquote class="hl-quote"><a href="#hl-${h.id}" data-goto="${h.id}">${h.exact}</a></blockquote>
  ${h.note ? html`<p class="hl-note">${h.note}</p>` : ""}
  <details class="hl-edit">
    <summary>Edit<span class="sr-only"> this highlight</span></summary>
    <form method="post" action="${base}" data-hl-form>
      ${csrfInput(user.csrfToken)}
      ${colorChoice("color", h.color, fid)}
      <label for="${fid}-note">Note</label>
      <textarea id="${fid}-note" name="note" class="short" maxlength="10000">${h.note ?? ""}</textarea>
      <div class="actions"><button type="submit">Save</button></div>
    </form>
    <form method="post" action="${base}/delete" data-hl-form>
      ${csrfInput(user.csrfToken)}
      <button type="submit" class="danger">Delete highlight</button>
    </form>
  </details>
</li>`;
}

/** The highlights column (also served alone, for the script to swap in after a change). */
export function highlightsColumn(user: LayoutUser, sourceId: string, list: HighlightPublic[]): SafeHtml {
  const inline = list.filter((h) => !h.orphaned);
  const orphaned = list.filter((h) => h.orphaned);
  return html`<aside class="r-side" id="r-highlights" aria-labelledby="r-highlights-title">
  <h2 id="r-highlights-title" class="r-col-title">Highlights <span class="hl-count">${list.length || ""}</span></h2>
  ${
    list.length
      ? html`<ol class="hl-list">${inline.map((h) => item(user, sourceId, h))}</ol>
  ${orphaned.length ? html`<h3 class="r-col-title">Not found in the text</h3><ol class="hl-list">${orphaned.map((h) => item(user, sourceId, h))}</ol>` : ""}`
      : html`<p class="muted hl-empty">Select text in the article to highlight it.</p>`
  }
</aside>`;
}

/** The popover the script shows over a selection: the five colours and a note. */
export function selectionPopover(): SafeHtml {
  return html`<div class="hl-pop" id="r-hl-pop" hidden>
  <div class="hl-pop-row">${HIGHLIGHT_COLORS.map(
    (c) =>
      html`<button type="button" class="hl-pick" data-color="${c}" title="Highlight ${COLOR_NAMES[c].toLowerCase()}"><span class="hl-swatch hl-${c}" aria-hidden="true"></span><span class="sr-only">Highlight ${COLOR_NAMES[c].toLowerCase()}</span></button>`,
  )}<button type="button" class="hl-pick hl-note-button" data-note>Note</button></div>
  <div class="hl-pop-note" hidden>
    <label for="f-hl-new-note">Note</label>
    <textarea id="f-hl-new-note" class="short" maxlength="10000"></textarea>
    <div class="actions"><button type="button" data-save-note>Save highlight</button></div>
  </div>
  <p class="hl-pop-error field-error" role="alert" hidden></p>
</div>`;
}
