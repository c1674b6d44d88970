// What the editor knows of action types: nothing of its own. Each action module (src/features/workflows/
// actions/, and the feeds, mail and podcasts features) lists its fields and outputs; the editor renders and
// reads any type from that, so a new action type needs no change here.
import { EVENT_TYPES } from "../../features/events/service.ts";
import type { ActionCatalog } from "../../features/workflows/actions/catalog.ts";
import { OP_WORDS } from "../../features/workflows/actions/condition.ts";
import { OPS } from "../../features/workflows/conditions.ts";

export type { FieldKind, FieldSpec } from "../../features/workflows/actions/fields.ts";
export { newAction } from "../../features/workflows/actions/fields.ts";

/** The part of the engine's catalog the editor reads. */
export type Catalog = Pick<ActionCatalog, "get" | "modules">;

export { OPS, OP_WORDS };
export const TRIGGER_EVENTS = EVENT_TYPES;

/** The user's objects that id fields offer by name. */
export interface Choices {
  notebooks: { id: string; name: string }[];
  workflows: { id: string; name: string }[];
  tokens: { id: string; name: string }[];
}

/** A summary with the ids of the user's objects replaced by their names ("→ nb_01…" reads "→ “Reading”"). */
export function namedIds(text: string, choices: Pick<Choices, "notebooks" | "workflows">): string {
  const names = new Map([...choices.notebooks, ...choices.workflows].map((x) => [x.id, x.name]));
  return text.replace(/\b(?:nb|wf)_[0-9A-Z]{26}\b/g, (id) => (names.has(id) ? `“${names.get(id)}”` : id));
}
