// Runs in the browser: each step's status, attempts, input, output and error; long outputs cut with a
// "show all" that needs no script; outside text stays text; replay from the failed step and from start.
import { afterAll, describe, expect, test } from "bun:test";
import { sqlRow } from "../../db/inspect.ts";
import { parseHTML } from "linkedom";
import { webhookWorkflow, fire } from "../../features/workflows/testing.ts";
import { post, setup } from "../library/test-helpers.ts";
import { JSON_PREVIEW_CHARS } from "./views.ts";

const EVIL = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
let failing = true;
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/flaky" && failing) return new Response(EVIL, { status: 400 });
    if (path === "/big")
      return Response.json({ items: Array.from({ length: 200 }, (_, i) => ({ i, text: `item ${i}` })) });
    return Response.json({ ok: true, html: EVIL });
  },
});
afterAll(() => receiver.stop(true));
const at = (p: string) => `http://127.0.0.1:${receiver.port}${p}`;

describe("run pages", () => {
  test("each step with status, attempts, input and output; outside HTML is shown as text", async () => {
    const { ctx, b, me } = await setup();
    const wf = await webhookWorkflow(ctx, me.key, [
      {
        id: "check",
        type: "condition",
        if: { all: [{ left: "{{ go }}", op: "eq", right: true }] },
        then: [{ id: "nb", type: "create_notebook", name: "{{ name }}" }],
      },
      { id: "call", type: "http_request", url: at("/ok"), body: { name: "{{ name }}" }, store_response: true },
    ]);
    const { runs } = await fire(ctx, wf.path, { go: true, name: EVIL });
    await ctx.runner.drain();
    const page = await b.get(`/runs/${runs[0]}`);
    expect(page.status).toBe(200);
    // The changing part of the page is one live region the script refreshes from /runs/:id/live.
    expect(page.text).toContain(`data-live="run" data-live-id="${runs[0]}" data-live-fragment="/runs/${runs[0]}/live"`);
    expect(page.text).toContain('<dt>Status</dt><dd><span class="status succeeded">succeeded</span></dd>');
    const fragment = await b.get(`/runs/${runs[0]}/live`);
    expect(fragment.status).toBe(200);
    expect(fragment.text.startsWith(`<div class="run-live" data-live="run" data-live-id="${runs[0]}"`)).toBe(true);
    expect(fragment.text).toContain('data-live-announce="Run succeeded. 3 of 3 steps finished."');
    expect(fragment.text).toContain('<section class="step" id="step-call"');
    expect(fragment.text).not.toContain("<script>alert");
    expect(fragment.text).not.toContain("<html");
    const anon = await ctx.app.handle(new Request(`http://localhost/runs/${runs[0]}/live`));
    expect(anon.status).toBe(401);
    const { document } = parseHTML(page.text);
    const steps = [...document.querySelectorAll("section.step h3")].map((h) =>
      h.textContent?.replace(/\s+/g, " ").trim(),
    );
    expect(steps).toEqual([
      "1. check condition succeeded",
      "2. nb create_notebook succeeded",
      "3. call http_request succeeded",
    ]);
    expect(document.querySelectorAll("img, main script").length).toBe(0);
    expect(page.text).toContain("&lt;img src=x onerror=\\&quot;alert(1)\\&quot;&gt;");
    expect(page.text).toContain("Attempts</dt><dd>1</dd>");
    expect(page.text).toContain(`&quot;url&quot;: &quot;${at("/ok")}&quot;`);
  });

  test("a long output is cut, and all of it is one <details> away", async () => {
    const { ctx, b, me } = await setup();
    const wf = await webhookWorkflow(ctx, me.key, [
      { id: "big", type: "http_request", method: "GET", url: at("/big"), store_response: true },
    ]);
    const { runs } = await fire(ctx, wf.path, {});
    await ctx.runner.drain();
    const page = await b.get(`/runs/${runs[0]}`);
    const { document } = parseHTML(page.text);
    const summary = [...document.querySelectorAll("details > summary")].find((s) =>
      s.textContent?.startsWith("Show all of the output of big"),
    );
    expect(summary).toBeDefined();
    const full = summary!.parentElement!.querySelector("pre")!.textContent!;
    expect(full).toContain('"text": "item 199"');
    const preview = document.querySelector('pre[aria-label="the output of big (start)"]')!.textContent!;
    expect(preview.length).toBeLessThanOrEqual(JSON_PREVIEW_CHARS + 1);
    expect(preview).not.toContain("item 199");
  });

  test("a failed run shows the error; replay from the failed step, then from the start", async () => {
    const { ctx, b, me } = await setup();
    failing = true;
    const wf = await webhookWorkflow(ctx, me.key, [
      { id: "nb", type: "create_notebook", name: "once" },
      { id: "flaky", type: "http_request", url: at("/flaky"), retries: 0 },
    ]);
    const { runs } = await fire(ctx, wf.path, {});
    await ctx.runner.drain();
    const page = await b.get(`/runs/${runs[0]}`);
    expect(page.text).toContain(">failed</span>");
    expect(page.text).toContain("<strong>http_400</strong>");
    expect(page.text).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(page.text).toContain("Replay from failed step");

    failing = false;
    const replay = await post(ctx, b, `/runs/${runs[0]}/replay`, { from: "failed" });
    expect(replay.status).toBe(303);
    const next = /\/runs\/(run_[0-9A-Z]{26})\?notice=replayed/.exec(replay.location!)![1]!;
    await ctx.runner.drain();
    const replayed = await b.get(replay.location!);
    expect(replayed.text).toContain("Replay started.");
    expect(replayed.text).toContain(`data-live-id="${next}" data-live-fragment="/runs/${next}/live"`);
    expect(replayed.text).toContain('<dt>Status</dt><dd><span class="status succeeded">succeeded</span></dd>');
    expect(replayed.text).toContain(`Reused from</dt><dd><a href="/runs/${runs[0]}">`);
    expect(replayed.text).toContain(`Replay of</dt><dd><a href="/runs/${runs[0]}">`);

    // A succeeded run has no failed step: the refusal is explained on its own page.
    const refused = await post(ctx, b, `/runs/${next}/replay`, { from: "failed" });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("use “Replay from start”");
    const fromStart = await post(ctx, b, `/runs/${next}/replay`, { from: "start" });
    expect(fromStart.status).toBe(303);
    await ctx.runner.drain();
    expect(await sqlRow(ctx.db, "SELECT count(*) AS n FROM notebooks WHERE name = 'once'")).toEqual({ n: 2 });
  });
});
