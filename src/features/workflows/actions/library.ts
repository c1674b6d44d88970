// Library actions: create_source, create_notebook, add_source_to_notebook, through the same services as the API.
import { t } from "elysia";
import { NotebookCreate, NotebookPublic } from "../../library/notebooks/schema.ts";
import { SourceCreate, SourcePublic } from "../../library/sources/schema.ts";
import { actionSchema, asStepFailure, checkRendered, StringList } from "./base.ts";
import { notebookIdsField, outputsOf } from "./fields.ts";
import type { ActionModule } from "./types.ts";

const SOURCE_OUTPUTS = outputsOf("source", SourcePublic, ["id", "url", "title"]);
const text = (v: unknown) => (typeof v === "string" ? v : "");

export const createSource: ActionModule = {
  type: "create_source",
  title: "Save a link",
  idBase: "save",
  fields: [
    { key: "url", label: "URL", kind: "text", required: true, placeholder: "{{ url }}" },
    { key: "title", label: "Title", kind: "text", hint: "Optional; the page's own title otherwise." },
    notebookIdsField,
  ],
  // created right after the few source fields that lists and messages show first.
  outputs: [...SOURCE_OUTPUTS.slice(0, 4), "created", ...SOURCE_OUTPUTS.slice(4)],
  summary: (a) => text(a.url),
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
  title: "Create a notebook",
  idBase: "notebook",
  fields: [
    { key: "name", label: "Name", kind: "text", required: true },
    { key: "description", label: "Description", kind: "textarea" },
  ],
  outputs: outputsOf("notebook", NotebookPublic, ["id", "name"]),
  summary: (a) => text(a.name),
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
  title: "Add a source to a notebook",
  idBase: "add_to_notebook",
  fields: [
    {
      key: "source_id",
      label: "Source",
      kind: "text",
      required: true,
      placeholder: "{{ steps.save.source.id }}",
      hint: "Usually a template: the id of a source an earlier step saved, or of the trigger's source.",
    },
    { key: "notebook_id", label: "Notebook", kind: "notebook", required: true },
  ],
  outputs: outputsOf("source", SourcePublic, ["id", "url", "title", "notebook_ids"]),
  summary: (a) => `${text(a.source_id)} → ${text(a.notebook_id)}`,
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
