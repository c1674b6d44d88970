// The watch_feed workflow action: ensure the workflow's watch of a feed, poll it now, report new entries.
import { t } from "elysia";
import type { FieldError } from "../../errors.ts";
import { createScheduler, type Scheduler } from "../../jobs/scheduler.ts";
import { Int } from "../../http/schema.ts";
import { parseHttpUrl } from "../library/sources/normalize.ts";
import { actionSchema, asStepFailure, checkRendered, StringList } from "../workflows/actions/base.ts";
import { StepFailure, type ActionModule } from "../workflows/actions/types.ts";
import { watchFeedForm } from "./action-form.ts";
import { FeedWatchInput } from "./schema.ts";
import type { FeedsService } from "./service.ts";
import { FeedRefusedStep, MAX_BACKFILL } from "./service.ts";

declare module "../workflows/actions/types.ts" {
  interface ActionDeps {
    /** The feeds service, passed by the composition root. */
    feeds?: Pick<FeedsService, "watch">;
  }
}

let cron: Scheduler | undefined;
const isTemplate = (v: unknown): boolean => typeof v === "string" && v.includes("{{");

/** Save-time checks of literal values; templated ones are checked when the step runs. */
export function validateWatchFeed(action: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const url = action.feed_url;
  if (typeof url === "string" && !isTemplate(url)) {
    const parsed = parseHttpUrl(url);
    if (!parsed.ok) errors.push({ path: "feed_url", message: parsed.message });
  }
  const backfill = action.backfill;
  if (typeof backfill === "string" && !isTemplate(backfill))
    errors.push({ path: "backfill", message: "must be a whole number or a template" });
  const schedule = action.schedule;
  if (typeof schedule === "string" && !isTemplate(schedule)) {
    const bad = (cron ??= createScheduler()).validate(schedule);
    if (bad) errors.push({ path: "schedule", message: `is not a valid cron expression: ${bad}` });
  }
  return errors;
}

/** Rendered input → the service's input: one id or a list of ids; empty strings mean "not given". */
function toInput(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { feed_url: input.feed_url };
  if (input.schedule !== undefined && input.schedule !== "") out.schedule = input.schedule;
  const nb = input.notebook_ids;
  if (nb !== undefined && nb !== "" && nb !== null) out.notebook_ids = Array.isArray(nb) ? nb : [nb];
  const backfill = input.backfill;
  if (typeof backfill === "string" && backfill.trim() !== "")
    out.backfill = /^\d+$/.test(backfill.trim()) ? Number(backfill.trim()) : backfill;
  else if (backfill !== undefined && backfill !== "") out.backfill = backfill;
  return out;
}

export const watchFeed: ActionModule = {
  type: "watch_feed",
  ...watchFeedForm,
  available: true,
  mode: "external",
  schema: actionSchema(
    "watch_feed",
    {
      feed_url: t.String({
        minLength: 1,
        maxLength: 2048,
        description: "A feed, a page that advertises one, or a YouTube channel URL",
      }),
      schedule: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 100,
          description: "Five-field cron; default every 30 minutes; at least 5 minutes apart",
        }),
      ),
      notebook_ids: t.Optional(StringList),
      backfill: t.Optional(
        t.Union([Int({ minimum: 0, maximum: MAX_BACKFILL }), t.String({ maxLength: 200 })], {
          description: "Newest entries the first poll imports (default 0); a number or a template",
        }),
      ),
    },
    "Watch an RSS, Atom, RDF, JSON or video-channel feed; each new entry becomes a source. Output: {feed_id, feed_url, title, new_entries, sources}",
  ),
  validate: (action) => validateWatchFeed(action),
  // The poll itself never throws for feed trouble (it is recorded on the watch); only a crash retries.
  // A refused document (entity declarations) is the exception: the step fails with code feed_refused.
  maxTries: () => 2,
  async run(input, env) {
    const feeds = env.deps.feeds;
    if (!feeds) throw new StepFailure("action_unavailable", "watch_feed is not wired to the feeds service");
    const body = toInput(input);
    checkRendered(FeedWatchInput, body);
    try {
      return {
        output: await feeds.watch(env.actor, env.run.workflowId, body as typeof FeedWatchInput.static, env.signal),
      };
    } catch (err) {
      if (err instanceof FeedRefusedStep) throw new StepFailure("feed_refused", err.message);
      return asStepFailure(err);
    }
  },
};
