// The create_podcast workflow action: {source_ids | notebook_id, format, title?, language?}, templated,
// through the same service and rules as POST /api/v1/podcasts. Output: {podcast} (status queued).
import { t } from "elysia";
import { actionSchema, asStepFailure, checkRendered, StringList } from "../workflows/actions/base.ts";
import { StepFailure, type ActionModule } from "../workflows/actions/types.ts";
import type { Actor } from "../../actor.ts";
import { PODCAST_FORMATS } from "../../podcast-formats.ts";
import { outputsOf } from "../workflows/actions/fields.ts";
import { PodcastCreate, PodcastPublic } from "./schema.ts";

/** What the action needs of the podcasts feature (the workflow engine passes it in its action deps). */
export interface PodcastActionPort {
  create(actor: Actor, input: PodcastCreate, origin: "workflow"): Promise<PodcastPublic>;
}

declare module "../workflows/actions/types.ts" {
  interface ActionDeps {
    /** The podcasts service, passed by the composition root. */
    podcasts?: PodcastActionPort;
  }
}

const isTemplate = (v: unknown) => typeof v === "string" && v.includes("{{");

/** Rendered values as the API takes them: "" means absent; one id (or a comma list) becomes an array. */
function toBody(input: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of ["format", "notebook_id", "title", "language"] as const) {
    if (input[key] !== undefined && input[key] !== "" && input[key] !== null) body[key] = input[key];
  }
  const ids = input.source_ids;
  if (typeof ids === "string" && ids.trim() !== "")
    body.source_ids = ids
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  else if (Array.isArray(ids) && ids.length > 0) body.source_ids = ids;
  return body;
}

export const createPodcast: ActionModule = {
  type: "create_podcast",
  title: "Make a podcast",
  idBase: "podcast",
  fields: [
    {
      key: "format",
      label: "Format",
      kind: "text",
      suggestions: PODCAST_FORMATS,
      hint: `One of ${PODCAST_FORMATS.join(", ")} (default deep_dive).`,
      half: true,
    },
    { key: "language", label: "Language", kind: "text", placeholder: "en", half: true },
    {
      key: "source_ids",
      label: "Source ids",
      kind: "list",
      hint: "src_… ids separated by commas, a template or a JSON list; or choose a notebook instead.",
    },
    { key: "notebook_id", label: "Notebook", kind: "notebook" },
    { key: "title", label: "Title", kind: "text" },
  ],
  outputs: outputsOf("podcast", PodcastPublic, ["id", "status", "title"]),
  summary: (a) => (typeof a.title === "string" ? a.title : ""),
  available: true,
  mode: "transaction",
  schema: actionSchema(
    "create_podcast",
    {
      format: t.Optional(
        t.String({
          maxLength: 100,
          description: `One of ${PODCAST_FORMATS.join(", ")} (default deep_dive), or a template`,
        }),
      ),
      source_ids: t.Optional(StringList),
      notebook_id: t.Optional(t.String({ maxLength: 200 })),
      title: t.Optional(t.String({ maxLength: 1000 })),
      language: t.Optional(t.String({ maxLength: 100 })),
    },
    "Make a podcast episode from sources or a notebook, like POST /api/v1/podcasts. Output: {podcast}",
  ),
  validate(action) {
    const errors = [];
    const format = action.format;
    if (typeof format === "string" && !isTemplate(format) && !(PODCAST_FORMATS as readonly string[]).includes(format)) {
      errors.push({ path: "format", message: `must be one of ${PODCAST_FORMATS.join(", ")}` });
    }
    if (action.source_ids === undefined && action.notebook_id === undefined)
      errors.push({ path: "source_ids", message: "give source_ids or notebook_id" });
    return errors;
  },
  async run(input, env) {
    const podcasts = env.deps.podcasts;
    if (!podcasts) throw new StepFailure("action_unavailable", "create_podcast is not wired to the podcasts feature");
    const body = toBody(input);
    checkRendered(PodcastCreate, body);
    try {
      return { output: { podcast: await podcasts.create(env.actor, body as PodcastCreate, "workflow") } };
    } catch (err) {
      return asStepFailure(err);
    }
  },
};
