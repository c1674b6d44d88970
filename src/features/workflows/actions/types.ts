// The contract every workflow action implements; adding an action type is one module plus one entry in the root's list.
import type { TObject } from "@sinclair/typebox";
import type { Config } from "../../../config.ts";
import type { FieldError } from "../../../errors.ts";
import type { SafeFetch } from "../../../net/safe-fetch.ts";
import type { Actor } from "../../../actor.ts";
import type { NotebooksService } from "../../library/notebooks/service.ts";
import type { SourcesService } from "../../library/sources/service.ts";
import type { ActionDef, Branch } from "../paths.ts";
import type { FieldSpec } from "./fields.ts";

export interface RunInfo {
  id: string;
  workflowId: string;
  userId: string;
  depth: number;
  /** Workflow ids that led to this run through run_workflow, oldest first. */
  chain: string[];
}

/** What a running action may use. Transactional actions run inside the step's own transaction. */
export interface StepEnv {
  run: RunInfo;
  stepId: string;
  action: ActionDef;
  /** 1 for the first try of this step, 2 after one failure, … */
  attempt: number;
  signal: AbortSignal;
  /** Acts as the run's owner; events it causes carry the run's depth + 1 (loop guard). */
  actor: Actor;
  scope: Record<string, unknown>;
  signingSecret: string;
  deps: ActionDeps;
}

export interface ActionDeps {
  config: Config;
  safeFetch: SafeFetch;
  sources: SourcesService;
  notebooks: NotebooksService;
  now(): number;
  /** Starts a run of another workflow of the same owner inside the current transaction. */
  startChildRun(parent: RunInfo, workflowId: string, input: unknown): Promise<{ run_id: string; workflow_id: string }>;
}

export interface StepOutcome {
  output: unknown;
  /** A condition's chosen branch; other actions continue with the next action. */
  branch?: Branch;
  log?: string[];
}

/** Why a step failed, with a stable code; retryable failures are tried again if the action allows. */
export class StepFailure extends Error {
  override name = "StepFailure";
  constructor(
    readonly code: string,
    message: string,
    readonly opts: { retryable?: boolean; retryAfterMs?: number; output?: unknown } = {},
  ) {
    super(message);
  }
}

export interface ValidationContext {
  /** Ids of workflows the owner has (run_workflow targets). */
  workflowExists(id: string): boolean;
}

export interface ActionModule {
  type: string;
  /** What the editor and the workflow's page call it ("Save a link"). */
  title: string;
  /** Base of the id a new action of this type gets in the editor (`save`, `save_2`, …). */
  idBase: string;
  /** The editor's form for it, field by field; id fields (notebook, workflow, token) are also checked on save. */
  fields: readonly FieldSpec[];
  /** Paths under steps.<id> that later templates may read; `x.*` admits any path below x. */
  outputs: readonly string[];
  /** One line on what this action does, for lists of actions (a condition shows its rule). */
  summary?(action: ActionDef): string;
  /** The saved shape, strings may hold templates. */
  schema: TObject;
  /** False while the feature behind it has not landed: definitions naming it get a clear 422. */
  available: boolean;
  /** "transaction": runs inside the step's commit (exactly once); "external": side effect, then commit. */
  mode: "transaction" | "external";
  /** Fields left out of rendering (conditions render their own clauses; branches are not inputs). */
  unrendered?: readonly string[];
  /** Extra save-time checks beyond the schema; paths are relative to the action (`url`, `if.all[0]`). */
  validate?(action: ActionDef, vctx: ValidationContext): FieldError[];
  /** How many times a step may run before its failure is final (default 1). */
  maxTries?(action: ActionDef): number;
  run(input: Record<string, unknown>, env: StepEnv): StepOutcome | Promise<StepOutcome>;
  /** The input as the run history shows it (e.g. without credentials). */
  redact?(input: Record<string, unknown>): Record<string, unknown>;
}

export const ACTION_ID_PATTERN = "^[A-Za-z_][A-Za-z0-9_-]{0,63}$";
