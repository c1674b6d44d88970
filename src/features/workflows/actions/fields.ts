// How an action is filled in: each action module lists its fields (kind, label, help) and its outputs here,
// so the web editor renders any action type from its module and save-time checks know which values name
// notebooks, workflows or tokens. Pure data and checks: no HTML.
import type { TObject, TSchema } from "@sinclair/typebox";
import type { FieldError } from "../../../errors.ts";

/**
 * text / textarea: a string ("" is kept for required fields, dropped for optional ones);
 * int: digits become a number, anything else goes to the API as typed (so its message applies);
 * bool: a checkbox, written only when ticked; list: comma-separated values (one template stays a string);
 * json: a JSON value; headers: "Name: value" lines; select: one of `options`;
 * notebook / workflow / token: one id of the user's, chosen by name from a list (or a template);
 * notebooks: several notebook ids, chosen by name (or a template);
 * condition: the `if` of a condition (clauses under all / any), with its then / else branches.
 */
export type FieldKind =
  | "text"
  | "textarea"
  | "int"
  | "bool"
  | "list"
  | "json"
  | "headers"
  | "select"
  | "notebook"
  | "notebooks"
  | "workflow"
  | "token"
  | "condition";

export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  hint?: string;
  options?: readonly string[];
  /** Values a free text field suggests (podcast formats). */
  suggestions?: readonly string[];
  placeholder?: string;
  /** A select value that is the API's default is left out of the definition. */
  omitDefault?: string;
  /** The value a new action starts with (else required fields start empty). */
  initial?: unknown;
  /** Laid out two to a row on wide screens. */
  half?: boolean;
}

/** The notebooks a saved link (or a watched feed's entries) go into: chosen by name, or one template. */
export const notebookIdsField: FieldSpec = {
  key: "notebook_ids",
  label: "Notebooks",
  kind: "notebooks",
  hint: "Optional. Tick the notebooks, or write a template that gives an id or a list of ids.",
};

/** The kinds whose literal values are ids of the user's objects, and the id prefix of each. */
export const ID_KINDS = { notebook: "nb", notebooks: "nb", workflow: "wf", token: "whk" } as const;
export type IdKind = keyof typeof ID_KINDS;
const OBJECT_NAME: Record<IdKind, string> = {
  notebook: "notebook",
  notebooks: "notebook",
  workflow: "workflow",
  token: "webhook token",
};

export const isTemplate = (v: unknown): boolean => typeof v === "string" && v.includes("{{");
export const looksLikeId = (kind: IdKind, v: string): boolean => new RegExp(`^${ID_KINDS[kind]}_[0-9A-Z]{26}$`).test(v);

/**
 * The paths under steps.<id> of an object output (`source.id`, …), the keys in `first` leading (lists and
 * messages show the first few); arrays and objects admit any path below.
 */
export function outputsOf(prefix: string, schema: TObject, first: readonly string[] = []): string[] {
  const out = [prefix];
  const keys = [...first, ...Object.keys(schema.properties).filter((k) => !first.includes(k))];
  for (const key of keys) {
    const s = schema.properties[key]!;
    out.push(`${prefix}.${key}`);
    if (isContainer(s)) out.push(`${prefix}.${key}.*`);
  }
  return out;
}

function isContainer(s: TSchema): boolean {
  if (s.type === "object" || s.type === "array") return true;
  const alts = (s.anyOf ?? s.oneOf) as TSchema[] | undefined;
  return Boolean(alts?.some(isContainer)) || (s.type === undefined && alts === undefined);
}

/** A fresh action of a module: id, type and each field's initial value (required ones empty). */
export function newAction(mod: { type: string; fields: readonly FieldSpec[] }, id: string): Record<string, unknown> {
  const action: Record<string, unknown> = { id, type: mod.type };
  for (const f of mod.fields) {
    if (f.initial !== undefined) action[f.key] = structuredClone(f.initial);
    else if (f.required) action[f.key] = f.kind === "notebooks" || f.kind === "list" ? [] : "";
  }
  return action;
}

/** What save-time checks can look up about the ids and names a definition uses. */
export interface IdLookup {
  exists(kind: IdKind, id: string): boolean;
  /** The id of the user's notebook (or workflow) with exactly this name, if any. */
  idNamed?(kind: IdKind, name: string): string | undefined;
}

/** The literal (non-template) values of an action's id fields, with their paths relative to the action. */
export function idValues(
  fields: readonly FieldSpec[],
  action: Record<string, unknown>,
): { kind: IdKind; path: string; value: string }[] {
  const out: { kind: IdKind; path: string; value: string }[] = [];
  for (const f of fields) {
    if (!(f.kind in ID_KINDS)) continue;
    const kind = f.kind as IdKind;
    const v = action[f.key];
    const list = Array.isArray(v) ? v.map((x, i) => [x, `${f.key}[${i}]`] as const) : [[v, f.key] as const];
    for (const [x, path] of list) {
      if (typeof x === "string" && x.trim() !== "" && !isTemplate(x)) out.push({ kind, path, value: x });
    }
  }
  return out;
}

/**
 * Ids typed where a list of the user's objects was meant: a name ("Reading") or an id that is not theirs
 * is refused when saving, not when the step runs. Templates are checked when they render.
 */
export function checkIdFields(
  fields: readonly FieldSpec[],
  action: Record<string, unknown>,
  lookup: IdLookup,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const { kind, path, value } of idValues(fields, action)) {
    const what = OBJECT_NAME[kind];
    if (!looksLikeId(kind, value)) {
      const named = lookup.idNamed?.(kind, value);
      errors.push({
        path,
        message: named
          ? `"${value}" is the name of a ${what}, not its id: use ${named}`
          : `"${value}" is not a ${what} id (${ID_KINDS[kind]}_…): choose a ${what} from your list, or write a template`,
      });
    } else if (!lookup.exists(kind, value)) {
      errors.push({ path, message: `${what} ${value} does not exist` });
    }
  }
  return errors;
}
