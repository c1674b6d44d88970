// The six-format picker (name and one-line description of each preset, from the presets' data),
// shared by the podcast form and the save-link form's quick-podcast option.
import { FORMATS, PODCAST_FORMATS, type PodcastFormat } from "../../features/podcasts/formats.ts";
import type { PodcastQuote } from "../../features/podcasts/service.ts";
import { html, type SafeHtml } from "../../http/html/html.ts";
import { fieldError } from "../library/common.ts";

export const formatLabel = (f: string): string =>
  (FORMATS as Record<string, { label: string } | undefined>)[f]?.label ?? f;

export const isFormat = (f: string): f is PodcastFormat => (PODCAST_FORMATS as readonly string[]).includes(f);

/** "about 8 min · 16 credits", or how unabridged is priced before the sources are known. */
function costLine(quote: PodcastQuote, f: PodcastFormat): string {
  const c = quote.formats[f];
  if (!c) return `as long as the text · ${quote.perMinute} credits a minute`;
  return `about ${c.minutes} min · ${c.credits} credits`;
}

export interface PickerInput {
  /** The form field: `format` for the podcast form, `podcast_format` for the save-link form. */
  name: string;
  legend: string;
  selected: string | undefined;
  error?: string;
  /** Shown beside each format when known. */
  quote?: PodcastQuote;
}

export function formatPicker(p: PickerInput): SafeHtml {
  const id = `f-${p.name}`;
  return html`<fieldset class="formats" id="${id}"${p.error ? html` aria-describedby="${id}-error"` : ""}>
  <legend>${p.legend}</legend>
  ${PODCAST_FORMATS.map((f) => {
    const spec = FORMATS[f];
    return html`<label class="format"><input type="radio" name="${p.name}" value="${f}"${f === p.selected ? html` checked` : ""}>
    <span><span class="name">${spec.label}</span>${p.quote ? html` <span class="muted cost">${costLine(p.quote, f)}</span>` : ""}<br><span class="muted">${spec.description}</span></span></label>`;
  })}
  ${fieldError(id, p.error)}
</fieldset>`;
}
