// The action catalog: the action types one workflow engine knows, built from the modules the
// composition root passes (workflows' own core actions plus those of feeds, mail, podcasts).
import type { TObject, TUnion } from "@sinclair/typebox";
import { t } from "elysia";
import { condition } from "./condition.ts";
import { httpRequest } from "./http-request.ts";
import { addSourceToNotebook, createNotebook, createSource } from "./library.ts";
import { runWorkflow } from "./run-workflow.ts";
import type { ActionModule } from "./types.ts";

/** The action types that belong to workflows itself; other features add theirs in src/services.ts. */
export const coreActions: readonly ActionModule[] = [
  httpRequest,
  createSource,
  createNotebook,
  addSourceToNotebook,
  condition,
  runWorkflow,
];

export interface ActionCatalog {
  get(type: string): ActionModule | undefined;
  /** The modules, in the order they were given (the editor offers them so). */
  readonly modules: readonly ActionModule[];
  /** Every type, in the order the modules were given (error messages and the OpenAPI union list them so). */
  readonly types: readonly string[];
  /** Discriminated on `type`: for the OpenAPI document (validation goes type by type for clear paths). */
  readonly schema: TUnion<TObject[]>;
}

export function actionCatalog(modules: readonly ActionModule[]): ActionCatalog {
  const byType = new Map<string, ActionModule>();
  for (const m of modules) {
    if (byType.has(m.type)) throw new Error(`two workflow action modules have the type ${m.type}`);
    byType.set(m.type, m);
  }
  return {
    get: (type) => byType.get(type),
    modules: [...byType.values()],
    types: [...byType.keys()],
    schema: t.Union(
      modules.map((m) => m.schema),
      { description: "One action; `type` picks its shape" },
    ),
  };
}
