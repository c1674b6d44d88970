// The action registry: every action type the definition format knows, one line each.
import { t } from "elysia";
import { condition } from "./condition.ts";
import { httpRequest } from "./http-request.ts";
import { addSourceToNotebook, createNotebook, createSource } from "./library.ts";
import { watchFeed } from "../../feeds/action.ts";
import { sendEmail } from "../../mail/action.ts";
import { createPodcast } from "../../podcasts/workflow-action.ts";
import { runWorkflow } from "./run-workflow.ts";
import type { ActionModule } from "./types.ts";

const MODULES: ActionModule[] = [
  httpRequest,
  createSource,
  createNotebook,
  addSourceToNotebook,
  condition,
  runWorkflow,
  watchFeed,
  sendEmail,
  createPodcast,
];

export const ACTIONS: ReadonlyMap<string, ActionModule> = new Map(MODULES.map((m) => [m.type, m]));
export const ACTION_TYPES = MODULES.map((m) => m.type);

/** Discriminated on `type`: for the OpenAPI document (validation goes type by type for clear paths). */
export const ActionSchema = t.Union(
  MODULES.map((m) => m.schema),
  { description: "One action; `type` picks its shape" },
);
