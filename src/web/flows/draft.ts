// The workflow editor's state: a draft definition read from the posted form (field names are the API's
// error paths, `actions[1].then[0].url`), the text of fields that did not parse, and what each value shows.
import type { FieldError } from "../../errors.ts";
import { ID_KINDS, looksLikeId, type IdKind } from "../../features/workflows/actions/fields.ts";
import { lf } from "../library/common.ts";
import type { Catalog, FieldSpec } from "./action-fields.ts";

export type Action = Record<string, unknown> & { id: string; type: string };
export type Trigger = { type: "webhook"; token_id?: string; fields?: string[] } | { type: "event"; event: string };

export interface Draft {
  name: string;
  active: boolean;
  trigger: Trigger;
  actions: Action[];
}

/** What the user typed into fields that did not parse (JSON, headers), kept with the action as it moves. */
const rawText = new WeakMap<object, Record<string, string>>();

export interface Parsed {
  draft: Draft;
  /** Problems only the form can have (a body that is not JSON); paths like the API's. */
  errors: FieldError[];
}

type Form = Record<string, unknown>;

function str(form: Form, name: string): string {
  const v = Object.hasOwn(form, name) ? form[name] : undefined;
  if (typeof v === "string") return v;
  if (Array.isArray(v) && typeof v[0] === "string") return v[0];
  return "";
}

const SINGLE_TEMPLATE = /^\{\{[^{}]*\}\}$/;

/** The suffix of the text box beside an id list: a template (or anything that is not one of the ids offered). */
export const TEMPLATE_SUFFIX = ".template";

const isIdKind = (spec: FieldSpec): spec is FieldSpec & { kind: IdKind } => spec.kind in ID_KINDS;

/** An id field's value split as the form shows it: ids chosen from the list, and the rest as text. */
export function idParts(action: Action, spec: FieldSpec): { ids: string[]; text: string } {
  const raw = rawText.get(action)?.[`${spec.key}${TEMPLATE_SUFFIX}`];
  const v = action[spec.key];
  const values = Array.isArray(v) ? v : v === undefined || v === null || v === "" ? [] : [v];
  const kind = spec.kind as IdKind;
  const ids = values.filter((x): x is string => typeof x === "string" && looksLikeId(kind, x));
  const rest = values.filter((x) => !(typeof x === "string" && looksLikeId(kind, x)));
  if (raw !== undefined) return { ids, text: raw };
  if (rest.length === 0) return { ids, text: "" };
  // One text value reads back as itself: alone for a single id field or a string value, or in front of
  // ticked ids (which make the value a list again).
  const single = rest.length === 1 && typeof rest[0] === "string";
  if (spec.kind !== "notebooks" || (single && (!Array.isArray(v) || ids.length > 0)))
    return { ids, text: typeof rest[0] === "string" ? rest[0] : JSON.stringify(rest[0]) };
  return { ids, text: showList(rest, spec.key) };
}

/** An id field from its list (select or checkboxes) and its text box; both filled in is a mistake. */
function readIdField(form: Form, name: string, spec: FieldSpec, action: Action, errors: FieldError[]): void {
  const text = str(form, `${name}${TEMPLATE_SUFFIX}`).trim();
  const chosen = all(form, name).filter(Boolean);
  const keep = () => rawText.set(action, { ...rawText.get(action), [`${spec.key}${TEMPLATE_SUFFIX}`]: text });
  if (spec.kind !== "notebooks") {
    if (text && chosen.length) {
      keep();
      action[spec.key] = chosen[0];
      errors.push({ path: `${name}${TEMPLATE_SUFFIX}`, message: "choose from the list or write a template, not both" });
    } else if (text || chosen.length || spec.required) action[spec.key] = text || chosen[0] || "";
    return;
  }
  if (!text) {
    if (chosen.length || spec.required) action[spec.key] = chosen;
    return;
  }
  const typed = readList(text, spec.key);
  if (chosen.length === 0) action[spec.key] = typed;
  else action[spec.key] = [...(Array.isArray(typed) ? typed : [typed]), ...chosen];
}

function all(form: Form, name: string): string[] {
  const v = Object.hasOwn(form, name) ? form[name] : undefined;
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  return [];
}

/** Reads one field of an action from the form; errors are collected for fields that do not parse. */
function readField(form: Form, name: string, spec: FieldSpec, action: Action, errors: FieldError[]): void {
  if (isIdKind(spec)) {
    readIdField(form, name, spec, action, errors);
    return;
  }
  if (spec.kind === "condition") return;
  const text =
    spec.kind === "textarea" || spec.kind === "json" || spec.kind === "headers"
      ? lf(str(form, name))
      : str(form, name).trim();
  const keep = (raw: string) => rawText.set(action, { ...rawText.get(action), [spec.key]: raw });
  switch (spec.kind) {
    case "bool":
      if (text) action[spec.key] = true;
      return;
    case "int":
      if (text) action[spec.key] = /^-?\d+$/.test(text) ? Number(text) : text;
      return;
    case "list":
      if (text || spec.required) action[spec.key] = readList(text, spec.key);
      return;
    case "json":
      if (!text.trim()) return;
      try {
        action[spec.key] = JSON.parse(text);
      } catch (e) {
        keep(text);
        errors.push({ path: name, message: `is not valid JSON (${e instanceof Error ? e.message : String(e)})` });
      }
      return;
    case "headers": {
      const headers: Record<string, string> = {};
      for (const line of text.split("\n")) {
        if (!line.trim()) continue;
        const colon = line.indexOf(":");
        if (colon <= 0) {
          keep(text);
          errors.push({
            path: name,
            message: `write each header as Name: value ("${line.trim().slice(0, 60)}" has no name)`,
          });
          return;
        }
        headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      }
      if (Object.keys(headers).length) action[spec.key] = headers;
      return;
    }
    case "select":
      if (text && text !== spec.omitDefault) action[spec.key] = text;
      return;
    default:
      if (text || spec.required) action[spec.key] = text;
  }
}

/**
 * A list field's text: JSON when it starts with [ or " (so anything can be said exactly), one template
 * as a string (it may give a list), else comma-separated values — except that `to` with one address
 * stays a string, as the API allows.
 */
export function readList(text: string, key: string): unknown {
  if (/^["[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON after all: read as values
    }
  }
  if (!text || SINGLE_TEMPLATE.test(text)) return text;
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return key === "to" && parts.length === 1 ? parts[0] : parts;
}

/** The text that reads back as `v`: comma-separated where that is exact, else JSON. */
function showList(v: unknown, key: string): string {
  const plain = Array.isArray(v) ? v.join(", ") : typeof v === "string" ? v : JSON.stringify(v);
  return Bun.deepEquals(readList(plain, key), v) ? plain : JSON.stringify(v);
}

/** Indexes present under a list prefix, from field names like `<base>[3].type`, in order. */
function indexesOf(form: Form, base: string, suffix: string): number[] {
  const found = new Set<number>();
  const prefix = `${base}[`;
  for (const k of Object.keys(form)) {
    if (!k.startsWith(prefix) || !k.endsWith(suffix)) continue;
    const m = /^(\d+)$/.exec(k.slice(prefix.length, k.length - suffix.length));
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b);
}

/** `left`/`right` of a clause: JSON when the text is JSON (5, true, ["a"], "quoted"), else the text itself. */
export function readValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The text of a clause value; an empty `right` that is really there shows as "" (an empty field means none). */
export function showValue(v: unknown, part: "left" | "right" = "left"): string {
  if (v === undefined) return "";
  if (v === "" && part === "right") return '""';
  if (typeof v !== "string") return JSON.stringify(v);
  return readValue(v) === v ? v : JSON.stringify(v);
}

function readCondition(form: Form, p: string, action: Action): void {
  const groups = str(form, `${p}.if.groups`)
    .split(",")
    .filter((g) => g === "all" || g === "any");
  const cond: Record<string, unknown[]> = {};
  for (const g of groups) {
    cond[g] = indexesOf(form, `${p}.if.${g}`, "].op").map((i) => {
      const c = `${p}.if.${g}[${i}]`;
      const right = str(form, `${c}.right`).trim();
      return {
        left: readValue(str(form, `${c}.left`).trim()),
        op: str(form, `${c}.op`),
        ...(right ? { right: readValue(right) } : {}),
      };
    });
  }
  // With one group, the "Match" select decides whether it is `all` or `any`.
  const match = str(form, `${p}.if.match`);
  if (groups.length === 1 && (match === "all" || match === "any") && match !== groups[0]) {
    cond[match] = cond[groups[0]!]!;
    delete cond[groups[0]!];
  }
  action.if = cond;
}

function readActions(form: Form, base: string, errors: FieldError[], catalog: Catalog): Action[] {
  return indexesOf(form, base, "].type").map((i) => {
    const p = `${base}[${i}]`;
    const type = str(form, `${p}.type`);
    const action: Action = { id: str(form, `${p}.id`).trim(), type };
    const fields = catalog.get(type)?.fields ?? [];
    for (const spec of fields) readField(form, `${p}.${spec.key}`, spec, action, errors);
    if (fields.some((f) => f.kind === "condition")) {
      readCondition(form, p, action);
      for (const b of ["then", "else"] as const) {
        const list = readActions(form, `${p}.${b}`, errors, catalog);
        if (list.length) action[b] = list;
      }
    }
    return action;
  });
}

/** The webhook's declared body fields from "title, url" (empty: none declared). */
function readBodyFields(text: string): string[] | undefined {
  const names = [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  return names.length ? names : undefined;
}

/** The draft a posted editor form describes. */
export function parseForm(form: Form, catalog: Catalog): Parsed {
  const errors: FieldError[] = [];
  let trigger: Trigger;
  if (str(form, "trigger.type") === "event") trigger = { type: "event", event: str(form, "trigger.event") };
  else {
    trigger = { type: "webhook" };
    if (str(form, "trigger.token_id")) trigger.token_id = str(form, "trigger.token_id");
    const fields = readBodyFields(str(form, "trigger.fields"));
    if (fields) trigger.fields = fields;
  }
  const draft: Draft = {
    name: str(form, "name").trim(),
    active: str(form, "active") !== "",
    trigger,
    actions: readActions(form, "actions", errors, catalog),
  };
  return { draft, errors };
}

/** The text a field shows: what the user typed if it did not parse, else the value. */
export function fieldText(action: Action, spec: FieldSpec): string {
  const raw = rawText.get(action)?.[spec.key];
  if (raw !== undefined) return raw;
  const v = action[spec.key];
  if (v === undefined || v === null) return "";
  switch (spec.kind) {
    case "json":
      return JSON.stringify(v, null, 2);
    case "headers":
      return typeof v === "object"
        ? Object.entries(v as Record<string, unknown>)
            .map(([k, x]) => `${k}: ${typeof x === "string" ? x : JSON.stringify(x)}`)
            .join("\n")
        : String(v);
    case "list":
      return showList(v, spec.key);
    default:
      return typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
  }
}

/** The definition as the API takes it. */
export function definitionOf(d: Draft): { name: string; active: boolean; trigger: Trigger; actions: Action[] } {
  return { name: d.name, active: d.active, trigger: d.trigger, actions: d.actions };
}

/** A stored or pasted definition as a draft (the JSON view's way back to the form). */
export function draftOf(def: { name?: unknown; active?: unknown; trigger?: unknown; actions?: unknown }): Draft {
  const t = def.trigger as Record<string, unknown> | undefined;
  let trigger: Trigger;
  if (t?.type === "event") trigger = { type: "event", event: String(t.event ?? "") };
  else {
    trigger = { type: "webhook" };
    if (typeof t?.token_id === "string") trigger.token_id = t.token_id;
    if (Array.isArray(t?.fields) && t.fields.length) trigger.fields = t.fields.map(String);
  }
  return {
    name: typeof def.name === "string" ? def.name : "",
    active: def.active !== false,
    trigger,
    actions: Array.isArray(def.actions)
      ? (def.actions.filter((a) => a && typeof a === "object" && !Array.isArray(a)) as Action[])
      : [],
  };
}
