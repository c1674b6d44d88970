// Reading the "Make a podcast" form: the API's rules (one of sources or a notebook, at most 20
// sources, a known format, title and language limits) with messages written for people.
import { AppError } from "../../errors.ts";
import { DEFAULT_PODCAST_FORMAT } from "../../features/podcasts/formats.ts";
import { MAX_SOURCES } from "../../features/podcasts/schema.ts";
import { formField } from "../http.ts";
import { formFields, ID_RE } from "../library/common.ts";
import type { CreateForm } from "./form-page.ts";
import { isFormat } from "./format-picker.ts";

const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function readCreateForm(body: unknown): CreateForm {
  const sourceIds = [...new Set(formFields(body, "source_ids"))];
  const notebookId = formField(body, "notebook_id");
  const format = formField(body, "format") || DEFAULT_PODCAST_FORMAT;
  const title = formField(body, "title").trim();
  const language = formField(body, "language").trim();
  const errors: CreateForm["errors"] = {};
  if (sourceIds.some((id) => !ID_RE.source.test(id))) errors.sources = "Choose sources from the list.";
  else if (sourceIds.length > MAX_SOURCES) errors.sources = `Choose at most ${MAX_SOURCES} sources, or a notebook.`;
  if (notebookId && !ID_RE.notebook.test(notebookId)) errors.notebook = "Choose a notebook from the list.";
  else if (notebookId && sourceIds.length) errors.notebook = "Choose sources or a notebook, not both.";
  if (!notebookId && !sourceIds.length) errors.sources = "Choose at least one source, or a notebook.";
  if (!isFormat(format)) errors.format = "Choose one of the six formats.";
  if (title.length > 500) errors.title = "The title is longer than 500 characters.";
  if (language && (language.length > 35 || !LANGUAGE.test(language)))
    errors.language = "Use a language code such as en, fr or pt-BR.";
  return { sourceIds, notebookId, format, title, language, errors };
}

/** The API input for a form without errors. */
export const selectionOf = (f: CreateForm) =>
  f.notebookId ? { notebook_id: f.notebookId } : { source_ids: f.sourceIds };

const sentence = (m: string) => `${m.charAt(0).toUpperCase()}${m.slice(1)}${/[.!?]$/.test(m) ? "" : "."}`;

/** The service's validation problem (the API's message) beside the field it concerns; anything else is rethrown. */
export function serviceFieldError(e: unknown): CreateForm["errors"] {
  if (!(e instanceof AppError) || e.code !== "validation_failed") throw e;
  const first = e.extra.errors?.[0];
  const message = sentence(first?.message ?? e.detail ?? e.message);
  return first?.path === "notebook_id" ? { notebook: message } : { sources: message };
}
