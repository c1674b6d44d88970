// The create_podcast workflow action against the real podcasts service: rendered input, output, failures.
import { afterAll, describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { sqlRows } from "../../db/inspect.ts";
import { fire, runToEnd, webhookWorkflow } from "../workflows/testing.ts";
import { StepFailure, type StepEnv } from "../workflows/actions/types.ts";
import { insertReadySource } from "./testing.ts";
import { createPodcast } from "./workflow-action.ts";

const contexts: TestContext[] = [];
afterAll(async () => {
  for (const ctx of contexts) await ctx.services.podcasts.close();
});

async function setup(env: Record<string, string> = {}) {
  const ctx = createTestContext(env);
  contexts.push(ctx);
  const user = await userWithKey(ctx);
  const actor = { userId: user.userId, auth: { type: "system" as const, reason: "workflow" }, depth: 1 };
  const src = await insertReadySource(ctx.services, user.userId, {
    markdown: "# Tide pools\n\nTide pools hold small animals when the sea goes out.",
  });
  // Only what the action reads of its environment.
  const stepEnv = { actor, deps: { podcasts: ctx.services.podcasts } } as unknown as StepEnv;
  return { ctx, user, src, stepEnv };
}

const failure = async (fn: () => unknown): Promise<StepFailure> => {
  try {
    await fn();
  } catch (e) {
    if (e instanceof StepFailure) return e;
    throw e;
  }
  throw new Error("expected a StepFailure");
};

describe("create_podcast in a workflow", () => {
  test("templated from the trigger; the next step reads steps.<id>.podcast; the episode is made", async () => {
    const { ctx, user, src } = await setup();
    const wf = await webhookWorkflow(ctx, user.key, [
      {
        id: "pod",
        type: "create_podcast",
        format: "{{ format }}",
        source_ids: ["{{ source_id }}"],
        title: '{{ title | default: "Daily" }}',
      },
      {
        id: "nb",
        type: "create_notebook",
        name: "Episode {{ steps.pod.podcast.id }} ({{ steps.pod.podcast.status }})",
      },
    ]);
    const { runs } = await fire(ctx, wf.path, { format: "brief", source_id: src });
    const run = await runToEnd(ctx, user.key, runs[0]!);
    expect(run.status).toBe("succeeded");
    const podcast = run.steps[0]!.output.podcast;
    expect(podcast).toMatchObject({ format: "brief", status: "queued", title: "Daily", source_ids: [src] });
    expect(run.steps[1]!.output.notebook.name).toBe(`Episode ${podcast.id} (queued)`);
    const episode = (await call(ctx, "GET", `/api/v1/podcasts/${podcast.id}`, { key: user.key })).body;
    expect(episode.status).toBe("ready");
  }, 180_000);

  test("a source of someone else fails the step with the API's code, and no episode is made", async () => {
    const { ctx, user } = await setup();
    const other = await userWithKey(ctx);
    const theirs = await insertReadySource(ctx.services, other.userId, {
      markdown: "Someone else's text about tide pools and the sea.",
    });
    const wf = await webhookWorkflow(ctx, user.key, [
      { id: "pod", type: "create_podcast", format: "brief", source_ids: "{{ source_id }}" },
    ]);
    const run = await runToEnd(ctx, user.key, (await fire(ctx, wf.path, { source_id: theirs })).runs[0]!);
    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({ code: "validation_failed", step: "pod" });
    expect((await call(ctx, "GET", "/api/v1/podcasts", { key: user.key })).body.data).toEqual([]);
  });
});

describe("create_podcast action", () => {
  test("save-time checks: a known format or a template, and something to make it from", () => {
    const check = (a: Record<string, unknown>) =>
      createPodcast.validate!({ id: "p", type: "create_podcast", ...a } as never, { workflowExists: () => true });
    expect(check({ format: "brief", notebook_id: "{{ notebook }}" })).toEqual([]);
    expect(check({ format: "{{ format }}", source_ids: ["{{ steps.save.source.id }}"] })).toEqual([]);
    expect(check({ format: "rap_battle", source_ids: "x" })).toEqual([
      { path: "format", message: expect.stringContaining("must be one of") },
    ]);
    expect(check({ format: "brief" })).toEqual([{ path: "source_ids", message: "give source_ids or notebook_id" }]);
  });

  test("rendered input makes a queued episode, returned as steps.<id>.podcast", async () => {
    const { ctx, user, src, stepEnv } = await setup();
    const out = (await createPodcast.run({ format: "brief", source_ids: src, title: "", notebook_id: "" }, stepEnv))
      .output as { podcast: { id: string } };
    expect(out.podcast).toMatchObject({
      format: "brief",
      status: "queued",
      source_ids: [src],
      title: "Life in the tide pools",
    });
    expect(await sqlRows(ctx.db, "SELECT origin FROM podcasts WHERE id = ?", out.podcast.id)).toEqual([
      { origin: "workflow" },
    ]);
    expect((await ctx.queue.counts("podcast.generate")).queued).toBe(1);
    const [event] = await ctx.services.events.forUser(user.userId, { limit: 1 });
    expect(event).toMatchObject({ type: "podcast.created", depth: 1 });
  });

  test("the API's rules apply: unknown sources and a short balance fail the step with their codes", async () => {
    const { src, stepEnv } = await setup({ DEFAULT_MONTHLY_CREDITS: "1" });
    const missing = await failure(() =>
      createPodcast.run({ format: "brief", source_ids: [src, "src_01J0000000000000000000000A"] }, stepEnv),
    );
    expect(missing.code).toBe("validation_failed");
    expect(missing.message).toContain("source_ids[1]");
    const bad = await failure(() => createPodcast.run({ format: "nope", source_ids: [src] }, stepEnv));
    expect(bad).toMatchObject({ code: "validation_failed" });
    const poor = await failure(() => createPodcast.run({ format: "brief", source_ids: [src] }, stepEnv));
    expect(poor.code).toBe("insufficient_credit");
  });

  test("without the podcasts feature in its deps the step says so", async () => {
    const err = await failure(() =>
      createPodcast.run({ format: "brief", source_ids: ["x"] }, { deps: {} } as unknown as StepEnv),
    );
    expect(err.code).toBe("action_unavailable");
  });
});
