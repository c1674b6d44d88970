// Settings → Webhook tokens: a new URL shown once (and never twice for a resubmitted form), regenerate
// stops the old URL at once, delete is refused with a clear message while a workflow uses the token.
import { describe, expect, test } from "bun:test";
import { call } from "../../../test/helpers.ts";
import { createWorkflow, hookPath } from "../../features/workflows/testing.ts";
import { post, send, setup } from "../library/test-helpers.ts";
import { formData } from "./test-helpers.ts";

const PATH = "/settings/webhook-tokens";
const urlIn = (text: string) =>
  /value="(http:\/\/localhost[^"]*\/api\/webhooks\/workflows\/cpw_[^"]+)"/.exec(text)?.[1];

describe("webhook tokens", () => {
  test("create shows the URL once with a copy button; a resubmitted form makes no second token", async () => {
    const { ctx, b, me } = await setup();
    const page = await b.get(PATH);
    expect(page.text).toContain("No webhook tokens yet.");
    const form = new URLSearchParams(formData(page.text, PATH));
    const created = await send(ctx, b, PATH, form);
    expect(created.status).toBe(200);
    const url = urlIn(created.text)!;
    expect(url).toBeString();
    expect(created.text).toContain('data-copy="webhook-url"');
    expect(created.text).toContain('data-replace-history="/settings/webhook-tokens"');
    expect((await call(ctx, "POST", hookPath(url), { body: {} })).status).toBe(202);

    const again = await send(ctx, b, PATH, form);
    expect(again.status).toBe(409);
    expect(urlIn(again.text)).toBeUndefined();
    expect((await call(ctx, "GET", "/api/v1/webhook-tokens", { key: me.key })).body.data).toHaveLength(1);
    const list = await b.get(PATH);
    expect(list.text).not.toContain(hookPath(url));
    expect(list.text).toContain(`<span class="hint">cpw_…${url.slice(-4)}</span>`);
  });

  test("regenerate asks first, shows the new URL once and the old one answers 404 at once", async () => {
    const { ctx, b, me } = await setup();
    const wf = await createWorkflow(ctx, me.key, {
      name: "Uses <it>",
      trigger: { type: "webhook" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    const tokenId = wf.trigger.token_id!;
    const list = await b.get(PATH);
    expect(list.text).toContain(`<a href="/workflows/${wf.id}">Uses &lt;it&gt;</a>`);
    const confirm = await b.get(`${PATH}/${tokenId}/regenerate`);
    expect(confirm.text).toContain("Regenerate this token?");
    expect(confirm.text).toContain("for the 1 workflow using it");
    const done = await post(ctx, b, `${PATH}/${tokenId}/regenerate`);
    expect(done.status).toBe(200);
    const fresh = urlIn(done.text)!;
    expect(done.text).toContain("The old URL stopped working.");
    expect((await call(ctx, "POST", hookPath(wf.webhook_url!), { body: {} })).status).toBe(404);
    expect((await call(ctx, "POST", hookPath(fresh), { body: {} })).status).toBe(202);
  });

  test("delete is refused while in use, naming the workflows; allowed once unused", async () => {
    const { ctx, b, me } = await setup();
    const wf = await createWorkflow(ctx, me.key, {
      name: "Chat <bot>",
      trigger: { type: "webhook" },
      actions: [{ id: "n", type: "create_notebook", name: "x" }],
    });
    const tokenId = wf.trigger.token_id!;
    const refused = await post(ctx, b, `${PATH}/${tokenId}/delete`);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(
      "is still used by “Chat &lt;bot&gt;”. Choose another token in that workflow or delete it first.",
    );
    expect((await call(ctx, "GET", `/api/v1/webhook-tokens/${tokenId}`, { key: me.key })).status).toBe(200);
    await call(ctx, "DELETE", `/api/v1/workflows/${wf.id}`, { key: me.key });
    const deleted = await post(ctx, b, `${PATH}/${tokenId}/delete`);
    expect(deleted.location).toBe(`${PATH}?notice=deleted`);
    expect((await call(ctx, "POST", hookPath(wf.webhook_url!), { body: {} })).status).toBe(404);
  });
});
