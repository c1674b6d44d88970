// The reader's extra sections: rename, ask about this source, and the notes about it.
import type { NotePublic } from "../../features/library/notes/schema.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { html, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, fieldError, when } from "./common.ts";
import { noteTitle } from "./note-pages.ts";
import { askResult, type AskState } from "./search-pages.ts";

export interface RenameState {
  title: string;
  error?: string;
}

export interface SourceAskState extends AskState {
  /** A problem with the question itself, shown beside the field. */
  fieldError?: string;
}

export function renameSection(user: LayoutUser, s: SourcePublic, r: RenameState | undefined): SafeHtml {
  const error = r?.error;
  return html`<details class="card"${r ? html` open` : ""}>
  <summary>Rename</summary>
  <form method="post" action="/library/sources/${s.id}/title" novalidate>
    ${csrfInput(user.csrfToken)}
    <label for="f-rename">Title</label>
    <input id="f-rename" name="title" type="text" value="${r ? r.title : (s.title ?? "")}" maxlength="500" autocomplete="off" aria-describedby="f-rename-hint${error ? " f-rename-error" : ""}"${error ? html` aria-invalid="true"` : ""}>
    <p class="muted" id="f-rename-hint">Leave it empty to go back to the page's own title (it is fetched again).</p>
    ${fieldError("f-rename", error)}
    <div class="actions"><button type="submit">Save title</button></div>
  </form>
</details>`;
}

export function askSection(user: LayoutUser, s: SourcePublic, a: SourceAskState | undefined): SafeHtml {
  if (s.status !== "ready") return html``;
  const error = a?.fieldError;
  return html`<details class="card"${a ? html` open` : ""}>
  <summary>Ask about this source</summary>
  <form method="post" action="/library/sources/${s.id}/ask" novalidate>
    ${csrfInput(user.csrfToken)}
    <label for="f-question">Question</label>
    <textarea id="f-question" name="question" class="short" maxlength="2000" required aria-describedby="f-question-hint${error ? " f-question-error" : ""}"${error ? html` aria-invalid="true"` : ""}>
${a?.question ?? ""}</textarea>
    <p class="muted" id="f-question-hint">Answered from this source only, with numbered citations. Each answer uses AI credits.</p>
    ${fieldError("f-question", error)}
    <div class="actions"><button type="submit">Ask</button></div>
  </form>
  ${a && !error ? askResult(a) : ""}
</details>`;
}

export function linkedNotes(s: SourcePublic, notes: NotePublic[], more: boolean): SafeHtml {
  const list = notes.length
    ? html`<ul class="items">${notes.map(
        (n) =>
          html`<li><a class="title" href="/notes/${n.id}">${noteTitle(n)}</a><div class="meta"><span>Updated ${when(n.updated_at)}</span></div></li>`,
      )}</ul>`
    : html`<p class="muted">No notes link to this source yet.</p>`;
  return html`${list}
${more ? html`<p class="muted">Showing the newest ${notes.length}.</p>` : ""}
<p><a href="/notes/new?source=${s.id}">Write a note about this source</a></p>`;
}
