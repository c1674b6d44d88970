// Workflow definitions: validate every trigger, action and template at save time, then store them.
import type { Config } from "../../config.ts";
import type { Transactor } from "../../db/port.ts";
import { mapPage, paginate, type Page, type PageQuery } from "../../paging.ts";
import type { WorkflowRow } from "../../db/schema/index.ts";
import { AppError, notFound, type FieldError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import type { ActionCatalog } from "./actions/catalog.ts";
import { newSigningSecret } from "./actions/http-send.ts";
import { looksLikeId } from "./actions/fields.ts";
import { checkActions, checkTrigger, idLiterals, type DefinitionContext } from "./definition.ts";
import type { WorkflowsRepo } from "./repo.ts";
import type { Trigger, WorkflowCreate, WorkflowPublic, WorkflowUpdate } from "./schema.ts";

export function toPublicWorkflow(row: WorkflowRow, webhookUrl?: string): WorkflowPublic {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    trigger: JSON.parse(row.triggerJson),
    actions: JSON.parse(row.actionsJson),
    signing_secret: row.signingSecret,
    ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * The webhook tokens a workflow's trigger names, as workflows needs them: which of some ids the
 * actor owns, and a new token (joining the caller's transaction). The webhooks feature implements it.
 */
export interface WorkflowTokens {
  existingIds(actor: Actor, ids: string[]): Promise<Set<string>>;
  create(actor: Actor): Promise<{ id: string; url: string }>;
}

/** The owner's notebooks as definitions name them: which ids exist, and which names are whose (both few). */
export interface WorkflowNotebooks {
  existingIds(actor: Actor, ids: string[]): Promise<Set<string>>;
  idsByName(actor: Actor, names: string[]): Promise<Map<string, string>>;
}

function rejected(errors: FieldError[]): AppError {
  const first = errors[0]!;
  return new AppError("validation_failed", `${first.path}: ${first.message}`, { errors: errors.slice(0, 20) });
}

export function createWorkflowsService(deps: {
  db: Transactor;
  repo: WorkflowsRepo;
  tokens: WorkflowTokens;
  notebooks: WorkflowNotebooks;
  /** The action types definitions may use (the composition root's list). */
  catalog: ActionCatalog;
  config: Config;
  clock: Clock;
}) {
  const { db, repo, tokens, notebooks, catalog, config, clock } = deps;
  const limits = { maxActions: config.workflows.maxActions, maxConditionDepth: config.workflows.maxConditionDepth };
  const nowIso = () => new Date(clock.now()).toISOString();

  async function getRow(actor: Actor, id: string): Promise<WorkflowRow> {
    const row = await repo.byId(actor.userId, id);
    if (!row) throw notFound("Workflow");
    return row;
  }

  /** Only when a definition names a workflow by name (a mistake the message corrects): one walk of the list. */
  async function workflowIdsByName(actor: Actor, names: string[]): Promise<Map<string, string>> {
    const wanted = new Set(names);
    const found = new Map<string, string>();
    let before: string | undefined;
    for (;;) {
      const rows = await repo.list(actor.userId, { limit: 200, ...(before ? { before } : {}) });
      for (const r of rows) if (wanted.has(r.name) && !found.has(r.name)) found.set(r.name, r.id);
      if (rows.length < 200) return found;
      before = rows[rows.length - 1]!.id;
    }
  }

  async function validate(actor: Actor, trigger: unknown, actions: unknown[], selfId?: string): Promise<Trigger> {
    // The checks are synchronous: the ids the definition could name are looked up first, in two queries.
    const candidates = [...idsIn([trigger, actions])];
    const literals = Array.isArray(actions) ? idLiterals(catalog, actions) : [];
    const nbIds = literals.filter((l) => l.kind !== "workflow" && l.kind !== "token" && looksLikeId(l.kind, l.value));
    const nbNames = literals.filter(
      (l) => (l.kind === "notebook" || l.kind === "notebooks") && !looksLikeId(l.kind, l.value),
    );
    const wfNames = literals.filter((l) => l.kind === "workflow" && !looksLikeId(l.kind, l.value));
    const [tokenIds, workflowIds, notebookIds, notebookNames, workflowNames] = await Promise.all([
      tokens.existingIds(actor, candidates),
      repo.existingIds(actor.userId, candidates),
      nbIds.length
        ? notebooks.existingIds(
            actor,
            nbIds.map((l) => l.value),
          )
        : new Set<string>(),
      nbNames.length
        ? notebooks.idsByName(
            actor,
            nbNames.map((l) => l.value),
          )
        : new Map<string, string>(),
      wfNames.length
        ? workflowIdsByName(
            actor,
            wfNames.map((l) => l.value),
          )
        : new Map<string, string>(),
    ]);
    const ctx: DefinitionContext = {
      tokenExists: (id) => tokenIds.has(id),
      workflowExists: (id) => id === selfId || workflowIds.has(id),
      notebookExists: (id) => notebookIds.has(id),
      notebookNamed: (name) => notebookNames.get(name),
      workflowNamed: (name) => workflowNames.get(name),
    };
    const errors = checkTrigger(trigger, ctx);
    if (errors.length > 0) throw rejected(errors);
    if (actions.length === 0) throw rejected([{ path: "actions", message: "needs at least one action" }]);
    const actionErrors = checkActions(catalog, actions, trigger as Trigger, limits, ctx);
    if (actionErrors.length > 0) throw rejected(actionErrors);
    return trigger as Trigger;
  }

  /** A webhook trigger without token_id gets a new token; its URL is returned this once. */
  async function withToken(actor: Actor, trigger: Trigger): Promise<{ trigger: Trigger; url?: string }> {
    if (trigger.type !== "webhook" || trigger.token_id) return { trigger };
    const token = await tokens.create(actor);
    return { trigger: { ...trigger, token_id: token.id }, url: token.url };
  }

  function triggerColumns(trigger: Trigger) {
    return {
      triggerType: trigger.type,
      tokenId: trigger.type === "webhook" ? trigger.token_id! : null,
      eventType: trigger.type === "event" ? trigger.event : null,
      triggerJson: JSON.stringify(trigger),
    };
  }

  return {
    /** The action types definitions may use: the editor renders its forms from their modules. */
    catalog,

    get: async (actor: Actor, id: string) => toPublicWorkflow(await getRow(actor, id)),

    /** Checks a definition as create (or update of `selfId`) would, saving nothing: the web editor's dry run. */
    async check(actor: Actor, input: { trigger: unknown; actions: unknown[] }, selfId?: string): Promise<void> {
      if (selfId) await getRow(actor, selfId);
      await validate(actor, input.trigger, input.actions, selfId);
    },

    async list(actor: Actor, q: PageQuery): Promise<Page<WorkflowPublic>> {
      const page = await paginate(q.limit, q.cursor, (o) => repo.list(actor.userId, o));
      return mapPage(page, (rows) => rows.map((r) => toPublicWorkflow(r)));
    },

    async create(actor: Actor, input: WorkflowCreate): Promise<WorkflowPublic> {
      return db.tx(async () => {
        // Inside the transaction: a token deleted after the check would fail the row's foreign key (500).
        const checked = await validate(actor, input.trigger, input.actions);
        const { trigger, url } = await withToken(actor, checked);
        const at = nowIso();
        const row: WorkflowRow = {
          id: newId("workflow"),
          userId: actor.userId,
          name: input.name.trim(),
          active: input.active ?? true,
          ...triggerColumns(trigger),
          actionsJson: JSON.stringify(input.actions),
          signingSecret: newSigningSecret(),
          createdAt: at,
          updatedAt: at,
        };
        await repo.insert(row);
        return toPublicWorkflow(row, url);
      });
    },

    async update(actor: Actor, id: string, input: WorkflowUpdate): Promise<WorkflowPublic> {
      return db.tx(async () => {
        const row = await getRow(actor, id);
        const patch: Partial<WorkflowRow> = { updatedAt: nowIso() };
        if (input.name !== undefined) patch.name = input.name.trim();
        if (input.active !== undefined) patch.active = input.active;
        let url: string | undefined;
        if (input.trigger !== undefined || input.actions !== undefined) {
          // Only an absent field keeps the stored one: a null trigger is checked (and refused) like any value.
          const actions = input.actions === undefined ? (JSON.parse(row.actionsJson) as unknown[]) : input.actions;
          const trigger = input.trigger === undefined ? JSON.parse(row.triggerJson) : input.trigger;
          const checked = await validate(actor, trigger, actions, id);
          const next = await withToken(actor, checked);
          url = next.url;
          Object.assign(patch, triggerColumns(next.trigger), { actionsJson: JSON.stringify(actions) });
        }
        await repo.update(id, patch);
        return toPublicWorkflow(await getRow(actor, id), url);
      });
    },

    async delete(actor: Actor, id: string): Promise<WorkflowPublic> {
      return db.tx(async () => {
        const before = toPublicWorkflow(await getRow(actor, id));
        await repo.delete(actor.userId, id);
        return before;
      });
    },
  };
}
export type WorkflowsService = ReturnType<typeof createWorkflowsService>;

/** Every string in a definition that looks like a token or workflow id (at most a few hundred: definitions are bounded). */
function idsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    if (/^(whk|wf)_[0-9A-Z]{26}$/.test(value)) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) idsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) idsIn(v, out);
  return out;
}
