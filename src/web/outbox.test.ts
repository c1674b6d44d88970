// Settings → Outbox: a user sees the emails their own workflows wrote to the outbox, nobody else's.
import { afterEach, expect, test } from "bun:test";
import { createTestContext } from "../../test/helpers.ts";
import { sqlRow } from "../db/inspect.ts";
import { fakeClock } from "../jobs/testing.ts";
import { fire, runToEnd, webhookWorkflow } from "../features/workflows/testing.ts";
import { signUp, testBrowser } from "../../test/browser-client.ts";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

test("lists and shows the signed-in user's outbox messages only", async () => {
  const ctx = createTestContext({ MAIL_FROM: "bot@library.test" }, { clock: fakeClock() });
  cleanup.push(() => ctx.services.mail.close());
  const b = testBrowser(ctx);
  await signUp(b, "owner@example.com");
  const ownerId = (await sqlRow<{ id: string }>(ctx.db, "SELECT id FROM users WHERE email = 'owner@example.com'"))!.id;
  const { key } = await ctx.services.keys.create(ownerId, "k");
  const wf = await webhookWorkflow(ctx, key, [
    { id: "notify", type: "send_email", to: "ada@example.test", subject: "Café <news>", text: "Body text here." },
  ]);
  const run = await runToEnd(ctx, key, (await fire(ctx, wf.path, {})).runs[0]!);
  expect(run.status).toBe("succeeded");

  const list = await b.get("/settings/outbox");
  expect(list.status).toBe(200);
  expect(list.text).toContain("Café &lt;news&gt;");
  expect(list.text).toContain("ada@example.test");
  const name = /href="\/settings\/outbox\/([^"]+)"/.exec(list.text)![1]!;
  const msg = await b.get(`/settings/outbox/${name}`);
  expect(msg.status).toBe(200);
  expect(msg.text).toContain("Body text here.");
  const dl = await b.get(`/settings/outbox/${name}?download=1`);
  expect(dl.headers.get("content-type")).toBe("message/rfc822");

  // Another user sees an empty outbox and a 404 for the message.
  const other = testBrowser(ctx);
  await signUp(other, "other@example.com");
  expect((await other.get("/settings/outbox")).text).toContain("The outbox is empty.");
  expect((await other.get(`/settings/outbox/${name}`)).status).toBe(404);
  expect((await other.get("/settings/outbox/..%2F..%2Fetc%2Fpasswd")).status).toBe(404);
  expect((await testBrowser(ctx).get("/settings/outbox")).location).toBe(
    `/signin?next=${encodeURIComponent("/settings/outbox")}`,
  );
}, 60_000);
