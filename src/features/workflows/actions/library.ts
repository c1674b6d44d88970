// Library actions: create_source, create_notebook, add_source_to_notebook, through the same services as the API.
import { t } from "elysia";
import { NotebookCreate } from "../../library/notebooks/schema.ts";
import { SourceCreate } from "../../library/sources/schema.ts";
import { actionSchema, asStepFailure, checkRendered, StringList } from "./base.ts";
import type { ActionModule } from "./types.ts";

export const createSource: ActionModule = {
  type: "create_source",
  available: true,
  mode: "transaction",
  schema: actionSchema(
    "create_source",
    {
      url: t.String({ minLength: 1, maxLength: 4096 }),
      title: t.Optional(t.String({ maxLength: 1000 })),
      notebook_ids: t.Optional(StringList),
    },
    "Save a link, like POST /api/v1/sources. Output: {source, created}",
  ),
  async run(input, env) {
    const body = {
      url: input.url,
      title: input.title === "" ? undefined : input.title,
      notebook_ids: input.notebook_ids,
    };
    if (body.title === undefined) delete body.title;
    if (body.notebook_ids === undefined || body.notebook_ids === "") delete body.notebook_ids;
    checkRendered(SourceCreate, body);
    try {
      return { output: await env.deps.sources.create(env.actor, body as typeof SourceCreate.static) };
    } catch (err) {
      return asStepFailure(err);
    }
  },
};

export const createNotebook: ActionModule = {
  type: "create_notebook",
  available: true,
  mode: "transaction",
  schema: actionSchema(
    "create_notebook",
    { name: t.String({ minLength: 1, maxLength: 1000 }), description: t.Optional(t.String({ maxLength: 5000 })) },
    "Create a notebook, like POST /api/v1/notebooks. Output: {notebook}",
  ),
  async run(input, env) {
    const body: Record<string, unknown> = { name: input.name };
    if (input.description !== undefined && input.description !== "") body.description = input.description;
    checkRendered(NotebookCreate, body);
    try {
      return { output: { notebook: await env.deps.notebooks.create(env.actor, body as typeof NotebookCreate.static) } };
    } catch (err) {
      return asStepFailure(err);
    }
  },
};

const LinkInput = t.Object({ source_id: t.String({ minLength: 1 }), notebook_id: t.String({ minLength: 1 }) });

export const addSourceToNotebook: ActionModule = {
  type: "add_source_to_notebook",
  available: true,
  mode: "transaction",
  schema: actionSchema(
    "add_source_to_notebook",
    { source_id: t.String({ minLength: 1, maxLength: 200 }), notebook_id: t.String({ minLength: 1, maxLength: 200 }) },
    "Add a source to a notebook, like PUT /api/v1/notebooks/{id}/sources/{source_id}. Output: {source}",
  ),
  async run(input, env) {
    checkRendered(LinkInput, { source_id: input.source_id, notebook_id: input.notebook_id });
    try {
      return {
        output: {
          source: await env.deps.sources.addToNotebook(env.actor, String(input.notebook_id), String(input.source_id)),
        },
      };
    } catch (err) {
      return asStepFailure(err);
    }
  },
};
