// The workflow editor's form, action type by action type: each field's kind, label and help, and what
// each action leaves in steps.<id> for later templates. Parsing and rendering are both driven by this table.
import { EVENT_TYPES } from "../../features/events/service.ts";
import { PODCAST_FORMATS } from "../../podcast-formats.ts";
import { HTTP_METHODS } from "../../features/workflows/actions/http-request.ts";

/**
 * text / textarea: a string ("" is kept for required fields, dropped for optional ones);
 * int: digits become a number, anything else goes to the API as typed (so its message applies);
 * bool: a checkbox, written only when ticked; list: comma-separated values (one template stays a string);
 * json: a JSON value; headers: "Name: value" lines; select: one of `options`.
 */
export type FieldKind = "text" | "textarea" | "int" | "bool" | "list" | "json" | "headers" | "select";

export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  hint?: string;
  options?: readonly string[];
  /** Suggestions for a free text field (podcast formats, the user's workflows). */
  suggest?: "formats" | "workflows";
  placeholder?: string;
  /** A select value that is the API's default is left out of the definition. */
  omitDefault?: string;
  /** Laid out two to a row on wide screens. */
  half?: boolean;
}

export interface ActionType {
  type: string;
  title: string;
  /** Base of the id a new action of this type gets (`save`, `save_2`, …). */
  idBase: string;
  fields: FieldSpec[];
  /** Paths under steps.<id> that later actions can use. */
  outputs: string[];
}

const notebookIds: FieldSpec = {
  key: "notebook_ids",
  label: "Notebook ids",
  kind: "list",
  hint: "Optional. nb_… ids separated by commas, one template that gives a list, or a JSON list.",
};

export const ACTION_TYPES: ActionType[] = [
  {
    type: "http_request",
    title: "HTTP request",
    idBase: "request",
    fields: [
      { key: "method", label: "Method", kind: "select", options: HTTP_METHODS, half: true },
      {
        key: "body_type",
        label: "Body type",
        kind: "select",
        options: ["json", "form"],
        omitDefault: "json",
        hint: "json (default) or form fields.",
        half: true,
      },
      {
        key: "url",
        label: "URL",
        kind: "text",
        required: true,
        placeholder: "https://example.com/hooks/{{ channel | urlencode }}",
      },
      {
        key: "headers",
        label: "Headers",
        kind: "headers",
        hint: "One per line, as Name: value. Authorization values are sent but not kept in the run history.",
      },
      {
        key: "body",
        label: "Body (JSON)",
        kind: "json",
        hint: "A JSON value; strings may hold templates. Leave empty for no body (GET and DELETE have none).",
      },
      { key: "timeout_ms", label: "Timeout (ms)", kind: "int", hint: "Default 10000, at most 120000.", half: true },
      {
        key: "retries",
        label: "Retries",
        kind: "int",
        hint: "Default 3, at most 10. Network errors, 408, 429 and 5xx are retried.",
        half: true,
      },
      { key: "store_response", label: "Keep the response (status, headers, body) for later steps", kind: "bool" },
      { key: "sign", label: "Sign the request with this workflow's secret (Standard Webhooks)", kind: "bool" },
    ],
    outputs: ["status", "response.status", "response.headers", "response.body"],
  },
  {
    type: "create_source",
    title: "Save a link",
    idBase: "save",
    fields: [
      { key: "url", label: "URL", kind: "text", required: true, placeholder: "{{ url }}" },
      { key: "title", label: "Title", kind: "text", hint: "Optional; the page's own title otherwise." },
      notebookIds,
    ],
    outputs: ["source.id", "source.url", "source.title", "source.status", "created"],
  },
  {
    type: "create_notebook",
    title: "Create a notebook",
    idBase: "notebook",
    fields: [
      { key: "name", label: "Name", kind: "text", required: true },
      { key: "description", label: "Description", kind: "textarea" },
    ],
    outputs: ["notebook.id", "notebook.name"],
  },
  {
    type: "add_source_to_notebook",
    title: "Add a source to a notebook",
    idBase: "add_to_notebook",
    fields: [
      {
        key: "source_id",
        label: "Source id",
        kind: "text",
        required: true,
        placeholder: "{{ steps.save.source.id }}",
        half: true,
      },
      { key: "notebook_id", label: "Notebook id", kind: "text", required: true, placeholder: "nb_…", half: true },
    ],
    outputs: ["source.id", "source.notebook_ids"],
  },
  {
    type: "watch_feed",
    title: "Watch a feed",
    idBase: "watch",
    fields: [
      {
        key: "feed_url",
        label: "Feed URL",
        kind: "text",
        required: true,
        hint: "RSS, Atom, JSON Feed, a page that advertises a feed, or a video channel.",
      },
      {
        key: "schedule",
        label: "Schedule (cron)",
        kind: "text",
        placeholder: "*/30 * * * *",
        hint: "Default every 30 minutes; polls are at least 5 minutes apart.",
        half: true,
      },
      {
        key: "backfill",
        label: "Backfill",
        kind: "int",
        hint: "How many of the newest entries the first poll saves (default 0).",
        half: true,
      },
      notebookIds,
    ],
    outputs: ["feed_id", "feed_url", "title", "new_entries", "sources"],
  },
  {
    type: "create_podcast",
    title: "Make a podcast",
    idBase: "podcast",
    fields: [
      {
        key: "format",
        label: "Format",
        kind: "text",
        suggest: "formats",
        hint: `One of ${PODCAST_FORMATS.join(", ")} (default deep_dive).`,
        half: true,
      },
      { key: "language", label: "Language", kind: "text", placeholder: "en", half: true },
      {
        key: "source_ids",
        label: "Source ids",
        kind: "list",
        hint: "src_… ids separated by commas, a template or a JSON list; or give a notebook instead.",
      },
      { key: "notebook_id", label: "Notebook id", kind: "text" },
      { key: "title", label: "Title", kind: "text" },
    ],
    outputs: ["podcast.id", "podcast.status", "podcast.title"],
  },
  {
    type: "send_email",
    title: "Send an email",
    idBase: "email",
    fields: [
      {
        key: "to",
        label: "To",
        kind: "list",
        required: true,
        hint: "An address, several separated by commas, a template, or a JSON list.",
      },
      { key: "subject", label: "Subject", kind: "text", required: true },
      { key: "text", label: "Text", kind: "textarea", required: true },
      { key: "html", label: "HTML (optional)", kind: "textarea" },
    ],
    outputs: ["message_id", "accepted", "file"],
  },
  {
    type: "condition",
    title: "Condition",
    idBase: "check",
    fields: [],
    outputs: ["result", "branch"],
  },
  {
    type: "run_workflow",
    title: "Run another workflow",
    idBase: "run",
    fields: [
      {
        key: "workflow_id",
        label: "Workflow id",
        kind: "text",
        required: true,
        suggest: "workflows",
        placeholder: "wf_…",
      },
      {
        key: "input",
        label: "Input (JSON)",
        kind: "json",
        hint: "Becomes the other run's trigger; an object's fields are its variables.",
      },
    ],
    outputs: ["run_id", "workflow_id"],
  },
];

export const ACTION_TYPE = new Map(ACTION_TYPES.map((a) => [a.type, a]));
export const OPS = [
  "eq",
  "ne",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "gt",
  "gte",
  "lt",
  "lte",
  "exists",
  "not_exists",
  "in",
] as const;
export const TRIGGER_EVENTS = EVENT_TYPES;
export { PODCAST_FORMATS };

/** A fresh action of a type, with its required fields empty. */
export function newAction(type: string, id: string): Record<string, unknown> {
  const spec = ACTION_TYPE.get(type)!;
  const action: Record<string, unknown> = { id, type };
  if (type === "http_request") action.method = "POST";
  for (const f of spec.fields) if (f.required) action[f.key] = "";
  if (type === "condition") action.if = { all: [{ left: "", op: "eq" }] };
  return action;
}
