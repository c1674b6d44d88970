// send_email as a workflow action: SMTP delivery, retries through the queue on 4xx, 5xx failures,
// the outbox, and header injection through templates.
import { afterEach, describe, expect, test } from "bun:test";
import { sqlRow } from "../../db/inspect.ts";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { fakeClock } from "../../jobs/testing.ts";
import { fire, runToEnd, webhookWorkflow } from "../workflows/testing.ts";
import { startTestSmtp, type TestSmtp } from "./smtp-test-server.ts";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(opts: { smtp?: boolean } = { smtp: true }) {
  let smtp: TestSmtp | undefined;
  if (opts.smtp) {
    smtp = await startTestSmtp();
    cleanup.push(() => smtp!.stop());
  }
  const clock = fakeClock();
  const ctx: TestContext = createTestContext(
    smtp ? { SMTP_URL: smtp.url, MAIL_FROM: "bot@library.test" } : { MAIL_FROM: "bot@library.test" },
    { clock },
  );
  cleanup.push(() => ctx.services.mail.close());
  const { key, userId } = await userWithKey(ctx);
  return { ctx, key, userId, clock, smtp };
}

const email = {
  id: "notify",
  type: "send_email",
  to: ["{{ who }}", "Team <team@example.test>"],
  subject: "Saved: {{ title }}",
  text: "You saved {{ title }}.",
};

test("sends through SMTP with rendered fields", async () => {
  const { ctx, key, smtp } = await setup();
  const wf = await webhookWorkflow(ctx, key, [email]);
  const run = await runToEnd(
    ctx,
    key,
    (await fire(ctx, wf.path, { who: "ada@example.test", title: "Tide pools" })).runs[0]!,
  );
  expect(run.status, JSON.stringify(run.error)).toBe("succeeded");
  expect(run.steps[0]!.output).toMatchObject({
    transport: "smtp",
    to: ["ada@example.test", "Team <team@example.test>"],
    subject: "Saved: Tide pools",
    accepted: ["ada@example.test", "team@example.test"],
    message_id: `<${run.id}.notify@library.test>`,
  });
  expect(smtp!.received).toHaveLength(1);
  expect(smtp!.received[0]!.to).toEqual(["ada@example.test", "team@example.test"]);
  expect(smtp!.received[0]!.data).toContain("Subject: Saved: Tide pools");
  expect(smtp!.received[0]!.data).toContain("You saved Tide pools.");
});

test("a 4xx reply is retried through the queue with backoff, then succeeds", async () => {
  const { ctx, key, clock, smtp } = await setup();
  smtp!.replies.push({ code: 451, message: "Try again later" });
  const wf = await webhookWorkflow(ctx, key, [email]);
  const runId = (await fire(ctx, wf.path, { who: "ada@example.test", title: "X" })).runs[0]!;
  const waiting = await runToEnd(ctx, key, runId);
  expect(waiting.status).toBe("running");
  expect(waiting.steps[0]).toMatchObject({ status: "waiting", attempts: 1 });
  expect(waiting.steps[0]!.error).toMatchObject({ code: "mail_temporary_failure" });
  expect(waiting.steps[0]!.error.message).toContain("451 Try again later");
  expect(smtp!.received).toHaveLength(0);
  clock.set(Date.parse(waiting.steps[0]!.next_attempt_at!));
  const done = await runToEnd(ctx, key, runId);
  expect(done.status).toBe("succeeded");
  expect(done.steps[0]).toMatchObject({ status: "succeeded", attempts: 2 });
  expect(smtp!.received).toHaveLength(1);
}, 60_000);

test("a 5xx reply fails the step at once with the server's reply", async () => {
  const { ctx, key, smtp } = await setup();
  smtp!.replies.push({ code: 554, message: "Rejected as spam" });
  const wf = await webhookWorkflow(ctx, key, [email]);
  const run = await runToEnd(ctx, key, (await fire(ctx, wf.path, { who: "ada@example.test", title: "X" })).runs[0]!);
  expect(run.status).toBe("failed");
  expect(run.steps[0]).toMatchObject({ status: "failed", attempts: 1 });
  expect(run.steps[0]!.error).toMatchObject({ code: "mail_rejected" });
  expect(run.steps[0]!.error.message).toContain("554 Rejected as spam");
});

test("without SMTP the message goes to the outbox and the output says so", async () => {
  const { ctx, key, userId } = await setup({ smtp: false });
  const wf = await webhookWorkflow(ctx, key, [email]);
  const run = await runToEnd(ctx, key, (await fire(ctx, wf.path, { who: "ada@example.test", title: "X" })).runs[0]!);
  const out = run.steps[0]!.output;
  expect(out.transport).toBe("outbox");
  expect(out.outbox).toMatch(/^run_.+_notify\.eml$/);
  expect(out.note).toContain("SMTP is not configured");
  const kept = await sqlRow<{ user_id: string; message: string }>(
    ctx.db,
    "SELECT user_id, message FROM mail_outbox WHERE name = ?",
    out.outbox,
  );
  // Kept for the run's owner, who sees it in Settings → Outbox.
  expect(kept?.user_id).toBe(userId);
  expect(kept?.message).toContain("You saved X.");
});

describe("header injection", () => {
  test("a templated value with a line break fails the step and sends nothing", async () => {
    const { ctx, key, smtp } = await setup();
    const wf = await webhookWorkflow(ctx, key, [email]);
    for (const body of [
      { who: "ada@example.test", title: "X\r\nBcc: everyone@example.test" },
      { who: "ada@example.test\r\nBcc: everyone@example.test", title: "X" },
      { who: "ada@example.test, eve@example.test", title: "X" },
    ]) {
      const run = await runToEnd(ctx, key, (await fire(ctx, wf.path, body)).runs[0]!);
      expect(run.status).toBe("failed");
      expect(run.steps[0]!.error.code).toBe("validation_failed");
    }
    expect(smtp!.received).toHaveLength(0);
  });

  test("literal line breaks or bad addresses are refused when the workflow is saved", async () => {
    const { ctx, key } = await setup({ smtp: false });
    const r = await call(ctx, "POST", "/api/v1/workflows", {
      key,
      body: {
        name: "w",
        trigger: { type: "webhook" },
        actions: [{ id: "m", type: "send_email", to: ["ok@example.test", "nope"], subject: "a\nb", text: "x" }],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "actions[0].subject",
      "actions[0].to[1]",
    ]);
  });
});
