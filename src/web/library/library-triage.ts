// What the Library's triage forms ask for and what they did: the operations, reading a change and the
// selected ids from a form, applying a change through the sources service, and the words said after.
import type { Actor } from "../../actor.ts";
import { invalid } from "../../errors.ts";
import type { SourcePublic } from "../../features/library/sources/schema.ts";
import { parseTags } from "../../features/library/sources/public.ts";
import type { SourcesService } from "../../features/library/sources/service.ts";
import type { Flash } from "../../http/html/html.ts";
import { formField } from "../http.ts";
import { formFields, ID_RE } from "./common.ts";

export const OPS = ["archive", "unarchive", "favorite", "unfavorite", "tag", "notebook"] as const;
export type Op = (typeof OPS)[number];
/** The most sources one bulk request changes (a page is 20; "select all" stays well inside). */
export const MAX_BULK = 200;

export const DONE: Record<Op | "deleted", (n: number) => string> = {
  archive: (n) => `Archived ${count(n)}.`,
  unarchive: (n) => `Moved ${count(n)} back to the inbox.`,
  favorite: (n) => `Added ${count(n)} to the favorites.`,
  unfavorite: (n) => `Removed ${count(n)} from the favorites.`,
  tag: (n) => `Tagged ${count(n)}.`,
  notebook: (n) => `Added ${count(n)} to the notebook.`,
  deleted: (n) => `Deleted ${count(n)}.`,
};
export const count = (n: number) => (n === 1 ? "1 source" : `${n.toLocaleString("en")} sources`);

/** The flash after a triage form: what was done to how many, and how many were no longer there. */
export function doneFlash(q: Record<string, string | undefined>): Flash | undefined {
  const op = q.done as Op | "deleted" | undefined;
  if (!op || !Object.hasOwn(DONE, op)) return undefined;
  const n = Number(q.n ?? "1");
  const missing = Number(q.missing ?? "0");
  const text = DONE[op](Number.isSafeInteger(n) && n >= 0 ? n : 1);
  return { kind: "ok", text: missing > 0 ? `${text} ${count(missing)} could not be found.` : text };
}

/** A triage change read from a form: the operation and its argument. */
export interface Change {
  op: Op;
  tag?: string;
  notebookId?: string;
}

export function readChange(body: unknown): Change | "bad_tag" {
  const op = OPS.find((o) => o === formField(body, "op"));
  if (!op) throw invalid("op", `must be one of ${OPS.join(", ")}`);
  if (op === "tag") {
    const tag = formField(body, "tag").trim();
    return tag && tag.length <= 100 ? { op, tag } : "bad_tag";
  }
  if (op === "notebook") return { op, notebookId: formField(body, "notebook_id") };
  return { op };
}

/** One change to one source through the service (so its event is recorded); a no-op records nothing. */
export async function applyChange(sources: SourcesService, actor: Actor, id: string, c: Change): Promise<SourcePublic> {
  const row = await sources.get(actor, id);
  const same = async () => sources.publicOf(row);
  switch (c.op) {
    case "archive":
    case "unarchive":
      return row.archived === (c.op === "archive") ? same() : sources.update(actor, id, { archived: !row.archived });
    case "favorite":
    case "unfavorite":
      return row.favorite === (c.op === "favorite") ? same() : sources.update(actor, id, { favorite: !row.favorite });
    case "tag": {
      const tags = parseTags(row.tags);
      if (tags.includes(c.tag!)) return same();
      if (tags.length >= 100) throw invalid("tag", "a source keeps at most 100 tags");
      return sources.update(actor, id, { tags: [...tags, c.tag!] });
    }
    case "notebook":
      return sources.addToNotebook(actor, c.notebookId ?? "", id);
  }
}

/** The ids of a bulk form: each a source id, none repeated, at most MAX_BULK. */
export function readIds(body: unknown): string[] {
  const ids = [...new Set(formFields(body, "ids"))];
  if (ids.length > MAX_BULK) throw invalid("ids", `at most ${MAX_BULK} sources at a time`);
  ids.forEach((id, i) => {
    if (!ID_RE.source.test(id)) throw invalid(`ids[${i}]`, "must be a source id (src_…)");
  });
  return ids;
}
