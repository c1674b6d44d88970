// The reader's one compact toolbar: back to the Library, reading state (archive, favorite, read), tags,
// the source's other places (notebooks, podcast, ask, the original), refetch and delete, and the "Aa"
// panel of typography and theme. Every action is a link or a form, so all of it works without script.
import type { Preferences } from "../../features/accounts/preferences.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { html, raw, type LayoutUser, type SafeHtml } from "../../http/html/html.ts";
import { csrfInput, fieldError } from "./common.ts";
import { LINE_HEIGHTS, SIZES } from "./reader-style.ts";

// Icons after Feather's (MIT): 24-unit strokes, coloured by the text around them.
const PATHS = {
  back: `<path d="M19 12H5M12 19l-7-7 7-7"/>`,
  archive: `<path d="M21 8v13H3V8"/><path d="M1 3h22v5H1z"/><path d="M10 12h4"/>`,
  inbox: `<path d="M22 12h-6l-2 3h-4l-2-3H2"/><path d="M5.45 5.11L2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z"/>`,
  star: `<path d="M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01L12 2z"/>`,
  check: `<path d="M22 11.08V12a10 10 0 1 1-5.93-9.14"/><path d="M22 4L12 14.01l-3-3"/>`,
  tag: `<path d="M20.59 13.41l-7.17 7.17a2 2 0 0 1-2.83 0L2 12V2h10l8.59 8.59a2 2 0 0 1 0 2.82z"/><path d="M7 7h.01"/>`,
  book: `<path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20"/><path d="M6.5 2H20v20H6.5A2.5 2.5 0 0 1 4 19.5v-15A2.5 2.5 0 0 1 6.5 2z"/>`,
  headphones: `<path d="M3 18v-6a9 9 0 0 1 18 0v6"/><path d="M21 19a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3zM3 19a2 2 0 0 0 2 2h1a2 2 0 0 0 2-2v-3a2 2 0 0 0-2-2H3z"/>`,
  ask: `<path d="M21 11.5a8.38 8.38 0 0 1-.9 3.8 8.5 8.5 0 0 1-7.6 4.7 8.38 8.38 0 0 1-3.8-.9L3 21l1.9-5.7a8.38 8.38 0 0 1-.9-3.8 8.5 8.5 0 0 1 4.7-7.6 8.38 8.38 0 0 1 3.8-.9h.5a8.48 8.48 0 0 1 8 8v.5z"/>`,
  external: `<path d="M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6"/><path d="M15 3h6v6"/><path d="M10 14L21 3"/>`,
  refresh: `<path d="M23 4v6h-6"/><path d="M1 20v-6h6"/><path d="M3.51 9a9 9 0 0 1 14.85-3.36L23 10M1 14l4.64 4.36A9 9 0 0 0 20.49 15"/>`,
  trash: `<path d="M3 6h18"/><path d="M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6"/><path d="M10 11v6M14 11v6"/><path d="M9 6V4a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2"/>`,
  more: `<circle cx="5" cy="12" r="1.3"/><circle cx="12" cy="12" r="1.3"/><circle cx="19" cy="12" r="1.3"/>`,
} as const;
export type IconName = keyof typeof PATHS;

export const icon = (name: IconName): SafeHtml =>
  raw(`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${PATHS[name]}</svg>`);

/** An icon with its name for screen readers (and as a tooltip); `shown` keeps the name visible too. */
const named = (name: IconName, label: string, shown = false): SafeHtml =>
  html`${icon(name)}<span${shown ? "" : html` class="sr-only"`}>${label}</span>`;

const toolLink = (href: string, name: IconName, label: string, extra: SafeHtml = html``) =>
  html`<a class="tool" href="${href}" title="${label}"${extra}>${named(name, label)}</a>`;

/** A one-field POST to the reader's state route: archived, favorite or read set to true or false. */
function stateButton(user: LayoutUser, s: SourcePublic, field: "archived" | "favorite" | "read"): SafeHtml {
  const on = field === "read" ? s.read_at !== null : s[field];
  const [iconName, label] = {
    archived: on ? (["inbox", "Move back to the inbox"] as const) : (["archive", "Archive"] as const),
    favorite: on ? (["star", "Remove from favorites"] as const) : (["star", "Add to favorites"] as const),
    read: on ? (["check", "Mark as unread"] as const) : (["check", "Mark as read"] as const),
  }[field];
  return html`<form method="post" action="/library/sources/${s.id}/reader/state" data-state="${field}">${csrfInput(user.csrfToken)}<input type="hidden" name="${field}" value="${on ? "false" : "true"}"><button type="submit" class="tool${on ? " on" : ""}" title="${label}">${named(iconName, label)}</button></form>`;
}

/**
 * The tags panel. The field holds every tag of the source, comma-separated; its completions are the
 * library's other tags (the reader's script offers them for the part after the last comma).
 */
function tagsPanel(user: LayoutUser, s: SourcePublic, tagNames: string[]): SafeHtml {
  return html`<details class="r-pop" data-pop>
  <summary class="tool" title="Tags">${named("tag", "Tags")}</summary>
  <div class="panel">
    <form method="post" action="/library/sources/${s.id}/reader/tags" novalidate>
      ${csrfInput(user.csrfToken)}
      <label for="f-tags">Tags</label>
      <input id="f-tags" name="tags" type="text" value="${s.tags.join(", ")}" maxlength="2000" autocomplete="off" list="r-tag-names" aria-describedby="f-tags-hint">
      <datalist id="r-tag-names" data-tag-names>${tagNames.map((t) => html`<option value="${t}"></option>`)}</datalist>
      <p class="muted field-hint" id="f-tags-hint">Separate tags with commas. Leave empty to remove them all.</p>
      <div class="actions"><button type="submit">Save tags</button></div>
    </form>
    ${
      s.suggested_tags.length
        ? html`<p class="muted field-hint">Suggested:</p><div class="suggested">${s.suggested_tags.map(
            (t) =>
              html`<form method="post" action="/library/sources/${s.id}/reader/tags">${csrfInput(user.csrfToken)}<input type="hidden" name="tags" value="${[...s.tags, t].join(", ")}"><button type="submit" class="secondary" title="Add the suggested tag">+ ${t}</button></form>`,
          )}</div>`
        : ""
    }
  </div>
</details>`;
}

/** The source's other places and the heavier actions: inline on wide screens, under "More" on phones. */
function secondary(user: LayoutUser, s: SourcePublic): SafeHtml {
  const original = s.final_url ?? s.url;
  const ready = s.status === "ready";
  return html`${toolLink("#r-notebooks", "book", "Notebooks")}
${ready ? toolLink(`/podcasts/new?source=${s.id}`, "headphones", "Make a podcast") : ""}
${ready ? toolLink("#r-ask", "ask", "Ask about this source") : ""}
<a class="tool" href="${original}" rel="noopener noreferrer nofollow" title="Open the original">${named("external", "Open the original")}</a>
<form method="post" action="/library/sources/${s.id}/refetch">${csrfInput(user.csrfToken)}<button type="submit" class="tool" title="Refetch">${named("refresh", "Refetch")}</button></form>
${toolLink(`/library/sources/${s.id}/delete`, "trash", "Delete…", html` data-danger`)}`;
}

export interface SettingsState {
  error?: string;
}

function segment(name: string, legend: string, value: string, options: { value: string; label: SafeHtml }[]): SafeHtml {
  return html`<fieldset><legend>${legend}</legend><div class="seg">${options.map(
    (o) =>
      html`<label><input type="radio" name="${name}" value="${o.value}"${o.value === value ? html` checked` : ""}>${o.label}</label>`,
  )}</div></fieldset>`;
}

/** "Aa": font, size, line spacing, width and theme. Without script it is a form; with it, changes apply at once. */
function settingsPanel(user: LayoutUser, s: SourcePublic, p: Preferences, st: SettingsState | undefined): SafeHtml {
  const heights = LINE_HEIGHTS.filter((v) => Math.round(Number(v) * 100) % 10 === 0);
  const current = lineHeightKey(p.reader_line_height);
  if (!heights.includes(current)) {
    heights.push(current);
    heights.sort();
  }
  const swatch = (t: string, label: string) => html`<span class="swatch ${t}" aria-hidden="true"></span>${label}`;
  return html`<details class="r-pop" data-pop${st ? html` open` : ""}>
  <summary class="tool" title="Text and theme"><span class="aa" aria-hidden="true">Aa</span><span class="sr-only">Text and theme</span></summary>
  <div class="panel">
    <form method="post" action="/library/sources/${s.id}/reader/preferences" data-reader-settings novalidate>
      ${csrfInput(user.csrfToken)}
      ${fieldError("f-r-settings", st?.error)}
      ${segment("reader_font", "Font", p.reader_font, [
        { value: "serif", label: html`<span class="serif">Serif</span>` },
        { value: "sans", label: html`<span>Sans</span>` },
      ])}
      <label for="f-r-size">Text size</label>
      <select id="f-r-size" name="reader_size">${SIZES.map(
        (n) => html`<option value="${n}"${n === p.reader_size ? html` selected` : ""}>${n} px</option>`,
      )}</select>
      <label for="f-r-lh">Line spacing</label>
      <select id="f-r-lh" name="reader_line_height">${heights.map(
        (v) => html`<option value="${v}"${v === current ? html` selected` : ""}>${v}</option>`,
      )}</select>
      ${segment("reader_width", "Width", p.reader_width, [
        { value: "narrow", label: html`Narrow` },
        { value: "medium", label: html`Medium` },
        { value: "wide", label: html`Wide` },
      ])}
      ${segment("reader_theme", "Theme", p.reader_theme, [
        { value: "auto", label: swatch("auto", "Auto") },
        { value: "light", label: swatch("light", "Light") },
        { value: "sepia", label: swatch("sepia", "Sepia") },
        { value: "dark", label: swatch("dark", "Dark") },
      ])}
      <div class="actions"><button type="submit" data-settings-save>Save</button></div>
    </form>
  </div>
</details>`;
}

/** The stored line height as one the stylesheet knows: rounded to .05. */
export const lineHeightKey = (v: number): string => (Math.round(v * 20) / 20).toFixed(2);

export function toolbar(
  user: LayoutUser,
  s: SourcePublic,
  p: Preferences,
  settings?: SettingsState,
  tagNames: string[] = [],
): SafeHtml {
  const pct = Math.round(s.progress * 100);
  return html`<div class="r-toolbar">
  <div class="r-tools">
    <a class="tool" href="/library" title="Back to the Library">${named("back", "Library", true)}</a>
    <span class="spacer"></span>
    ${stateButton(user, s, "archived")}
    ${stateButton(user, s, "favorite")}
    ${stateButton(user, s, "read")}
    ${tagsPanel(user, s, tagNames)}
    <span class="r-sep" aria-hidden="true"></span>
    <span class="r-wide-tools">${secondary(user, s)}</span>
    <details class="r-pop r-more" data-pop>
      <summary class="tool" title="More">${named("more", "More actions")}</summary>
      <div class="panel r-menu">${secondary(user, s)}</div>
    </details>
    ${settingsPanel(user, s, p, settings)}
  </div>
  <progress id="r-progress" class="r-progress" max="100" value="${pct}" aria-label="Reading progress">${pct} %</progress>
</div>`;
}
