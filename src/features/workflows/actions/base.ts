// Shared pieces of action modules: the common id/type fields and checks of rendered input.
import type { TProperties, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { t } from "elysia";
import { AppError } from "../../../errors.ts";
import { fieldErrors } from "../../../http/validation.ts";
import { ACTION_ID_PATTERN, StepFailure } from "./types.ts";

/** One action type's saved shape: `id`, `type` and its own fields, nothing else. */
export function actionSchema<P extends TProperties>(type: string, props: P, description: string) {
  return t.Object(
    {
      id: t.String({
        pattern: ACTION_ID_PATTERN,
        description: "Unique in the workflow; later steps read its output as steps.<id>",
      }),
      type: t.Literal(type),
      ...props,
    },
    { additionalProperties: false, description },
  );
}

/** A string (template) or a list of strings. */
export const StringList = t.Union([
  t.Array(t.String({ maxLength: 2048 }), { maxItems: 100 }),
  t.String({ maxLength: 2048 }),
]);

/** Checks rendered input against the API's own schema, so an action accepts exactly what the API does. */
export function checkRendered<S extends TSchema>(schema: S, value: unknown): void {
  const first = fieldErrors("body", Value.Errors(schema, value))[0];
  if (first)
    throw new StepFailure("validation_failed", `${first.path === "body" ? "input" : first.path}: ${first.message}`);
}

/** A service's AppError (not found, invalid) is a final failure of the step with the same code. */
export function asStepFailure(err: unknown): never {
  if (err instanceof AppError) throw new StepFailure(err.code, err.detail ?? err.message);
  throw err;
}
