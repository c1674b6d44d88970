// The workflow pages' guards: another user's workflows, runs, tokens and feeds are 404 HTML pages (and
// unchanged), every POST needs the session's CSRF token, signed-out visitors go to sign in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, createTestContext, type TestContext } from "../../../test/helpers.ts";
import { rss, startFeedServer } from "../../features/feeds/testing.ts";
import { fire, webhookWorkflow } from "../../features/workflows/testing.ts";
import { testBrowser } from "../../../test/browser-client.ts";
import { post, send, signedInPerson, type Person } from "../library/test-helpers.ts";

let ctx: TestContext;
let owner: Person;
let other: Person;
const feeds = startFeedServer();
feeds.set("/f.xml", { body: rss([{ id: "1", title: "One" }]) });
const ids = { wf: "", run: "", token: "", feed: "" };

beforeAll(async () => {
  ctx = createTestContext({ FEED_HOST_SPACING_MS: "0" });
  owner = await signedInPerson(ctx);
  other = await signedInPerson(ctx);
  const wf = await webhookWorkflow(ctx, owner.key, [
    { id: "watch", type: "watch_feed", feed_url: feeds.url("/f.xml") },
    { id: "fail", type: "http_request", url: "http://127.0.0.1:9/", retries: 0 },
  ]);
  ids.wf = wf.id;
  ids.token = wf.trigger.token_id!;
  ids.run = (await fire(ctx, wf.path, {})).runs[0]!;
  await ctx.runner.drain();
  ids.feed = (await call(ctx, "GET", "/api/v1/feeds", { key: owner.key })).body.data[0].id;
}, 60_000);
afterAll(() => feeds.stop());

const getRoutes = () => [
  `/workflows/${ids.wf}`,
  `/workflows/${ids.wf}/edit`,
  `/workflows/${ids.wf}/edit?view=json`,
  `/workflows/${ids.wf}/delete`,
  `/runs/${ids.run}`,
  `/settings/webhook-tokens/${ids.token}/regenerate`,
  `/feeds/${ids.feed}`,
  `/feeds/${ids.feed}/unsubscribe`,
];
const postRoutes = (): [string, Record<string, string>][] => [
  [
    `/workflows/${ids.wf}/edit`,
    {
      op: "save",
      view: "json",
      json: JSON.stringify({
        name: "x",
        trigger: { type: "webhook" },
        actions: [{ id: "n", type: "create_notebook", name: "n" }],
      }),
    },
  ],
  [`/workflows/${ids.wf}/edit`, { op: "add:actions", "add_type:actions": "create_source" }],
  [`/workflows/${ids.wf}/active`, { active: "false" }],
  [`/workflows/${ids.wf}/delete`, {}],
  [`/runs/${ids.run}/replay`, { from: "start" }],
  [`/settings/webhook-tokens/${ids.token}/regenerate`, {}],
  [`/settings/webhook-tokens/${ids.token}/delete`, {}],
  [`/feeds/${ids.feed}/poll`, {}],
  [`/feeds/${ids.feed}/pause`, {}],
  [`/feeds/${ids.feed}/settings`, { schedule: "0 7 * * *" }],
  [`/feeds/${ids.feed}/unsubscribe`, {}],
];

async function ownerIntact() {
  const wf = await call(ctx, "GET", `/api/v1/workflows/${ids.wf}`, { key: owner.key });
  expect(wf.body).toMatchObject({ name: "test", active: true });
  expect(wf.body.actions).toHaveLength(2);
  expect((await call(ctx, "GET", `/api/v1/workflows/${ids.wf}/runs`, { key: owner.key })).body.data).toHaveLength(1);
  expect(
    (await call(ctx, "GET", `/api/v1/webhook-tokens/${ids.token}`, { key: owner.key })).body.regenerated_at,
  ).toBeNull();
  const feed = await call(ctx, "GET", `/api/v1/feeds/${ids.feed}`, { key: owner.key });
  expect(feed.status).toBe(200);
  expect(feed.body).toMatchObject({ paused: false, schedule: "*/30 * * * *" });
}

describe("workflow pages security", () => {
  test("another user's objects are 404 HTML pages, for reading and for every form", async () => {
    for (const path of getRoutes()) {
      const res = await other.b.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toStartWith("text/html");
      expect(res.text, path).toContain("<h1>Not found</h1>");
    }
    for (const [path, fields] of postRoutes()) {
      const res = await post(ctx, other.b, path, fields);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toStartWith("text/html");
    }
    await ownerIntact();
    // Unknown or malformed ids are plain 404 pages too.
    for (const path of ["/runs/nope", "/workflows/wf_nope", "/feeds/x/unsubscribe", "/feeds/feed_nope"])
      expect((await owner.b.get(path)).status).toBe(404);
  });

  test("a POST without the session's CSRF token, or from another origin, changes nothing", async () => {
    for (const [path, fields] of postRoutes()) {
      const noToken = await send(ctx, owner.b, path, new URLSearchParams(fields));
      expect(noToken.status, path).toBe(403);
      expect(noToken.text, path).toContain("This form cannot be accepted");
      const form = new URLSearchParams({ ...fields, csrf: "x".repeat(32) });
      const foreign = await send(ctx, owner.b, path, form, { origin: "https://evil.example" });
      expect(foreign.status, path).toBe(403);
    }
    await ownerIntact();
  });

  test("signed-out visitors are sent to sign in and back", async () => {
    const anon = testBrowser(ctx);
    for (const path of ["/workflows", "/workflows/new", `/runs/${ids.run}`, "/settings/webhook-tokens", "/feeds"]) {
      const res = await anon.get(path);
      expect(res.status, path).toBe(303);
      expect(res.location, path).toBe(`/signin?next=${encodeURIComponent(path)}`);
    }
    const res = await anon.post(`/workflows/${ids.wf}/delete`, {});
    expect(res.status).toBe(303);
    expect(res.location).toStartWith("/signin");
    await ownerIntact();
  });
});
