// Action types whose features land in their own issues: their shapes are known now, running them is not.
import { t } from "elysia";
import { actionSchema, StringList } from "./base.ts";
import { StepFailure, type ActionModule } from "./types.ts";

function notYet(type: string, schema: ActionModule["schema"]): ActionModule {
  return {
    type,
    schema,
    available: false,
    mode: "external",
    run() {
      throw new StepFailure("action_unavailable", `${type} is not available in this version`);
    },
  };
}

export const createPodcast = notYet(
  "create_podcast",
  actionSchema(
    "create_podcast",
    {
      format: t.String({ maxLength: 100 }),
      source_ids: t.Optional(StringList),
      notebook_id: t.Optional(t.String({ maxLength: 200 })),
      title: t.Optional(t.String({ maxLength: 1000 })),
    },
    "Make a podcast episode from sources or a notebook",
  ),
);
