// A library with one of everything the API exposes (ready source, notebook, note, ready episode,
// workflow with a finished run, tokens, a feed watch), made through the API where it can be, for
// the contract test to call every operation on. Objects to delete are separate from objects to read.
import { systemActor } from "../../src/actor.ts";
import { rss, startFeedServer } from "../../src/features/feeds/testing.ts";
import { insertReadySource } from "../../src/features/podcasts/testing.ts";
import { SHORT_ARTICLE } from "../../src/features/podcasts/testdata.ts";
import { call, createTestContext, userWithKey, type TestContext } from "../helpers.ts";
import { startOutsideWeb } from "../outside-web.ts";

async function ok<T = any>(ctx: TestContext, method: string, path: string, key: string, body?: unknown): Promise<T> {
  const r = await call(ctx, method, path, { key, body });
  if (r.status >= 300) throw new Error(`fixture ${method} ${path} → ${r.status} ${r.text}`);
  return r.body as T;
}

export async function buildFixtures() {
  const web = startOutsideWeb();
  const feeds = startFeedServer();
  feeds.set("/feed.xml", { body: rss([{ id: "1", title: "One" }]) });
  // A site whose page advertises its feed (subscribing by the site's address), and a page advertising none.
  feeds.set("/blog.xml", { body: rss([{ id: "b1", title: "Blog post" }], { title: "A blog" }) });
  const page = (head: string) => `<!doctype html><html><head><title>Blog</title>${head}</head><body></body></html>`;
  feeds.set("/blog/", {
    type: "text/html",
    body: page(`<link rel="alternate" type="application/rss+xml" href="/blog.xml">`),
  });
  // Another site, with no feed anywhere (the first one has them at the usual places).
  const bare = startFeedServer();
  bare.set("/", { type: "text/html", body: page("") });
  const ctx = createTestContext({ FEED_HOST_SPACING_MS: "0" });
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  const k = a.key;

  const source = await ok(ctx, "POST", "/api/v1/sources", k, { url: web.url("/article") });
  const illustrated = await ok(ctx, "POST", "/api/v1/sources", k, { url: web.url("/illustrated") });
  const sourceToDelete = await insertReadySource(ctx.services, a.userId, {
    title: "Delete me",
    markdown: SHORT_ARTICLE,
    url: web.url("/gone-soon"),
  });
  const notebook = await ok(ctx, "POST", "/api/v1/notebooks", k, { name: "Coast", description: "Tide pools and such" });
  await ok(ctx, "PUT", `/api/v1/notebooks/${notebook.id}/sources/${source.id}`, k);
  const notebookToDelete = await ok(ctx, "POST", "/api/v1/notebooks", k, { name: "Scratch" });
  const note = await ok(ctx, "POST", "/api/v1/notes", k, {
    title: "Low tide",
    content: "# Low tide\n\nGo at dawn.",
    notebook_id: notebook.id,
    source_ids: [source.id],
  });
  const noteToDelete = await ok(ctx, "POST", "/api/v1/notes", k, { content: "Scratch" });
  const workflow = await ok(ctx, "POST", "/api/v1/workflows", k, {
    name: "Collect",
    trigger: { type: "webhook" },
    actions: [{ id: "nb", type: "create_notebook", name: "From {{ title }}" }],
  });
  const webhookPath = new URL(workflow.webhook_url).pathname;
  const delivery = await ok(ctx, "POST", webhookPath, "", { title: "a webhook" });
  const workflowToDelete = await ok(ctx, "POST", "/api/v1/workflows", k, {
    name: "Doomed",
    trigger: { type: "webhook", token_id: workflow.trigger.token_id },
    actions: [{ id: "nb", type: "create_notebook", name: "x" }],
  });
  const podcastSource = await insertReadySource(ctx.services, a.userId, {
    title: "Tide pools",
    markdown: SHORT_ARTICLE,
  });
  const podcast = await ok(ctx, "POST", "/api/v1/podcasts", k, { source_ids: [podcastSource], format: "unabridged" });
  await ok(ctx, "PATCH", `/api/v1/sources/${podcastSource}`, k, { tags: ["tide", "coast", "shore"] });

  // Fetches the source, runs the workflow, generates the episode.
  await ctx.runner.drain({ timeoutMs: 60_000 });

  const podcastQueued = await ok(ctx, "POST", "/api/v1/podcasts", k, { source_ids: [podcastSource], format: "brief" });
  const podcastToDelete = await ok(ctx, "POST", "/api/v1/podcasts", k, {
    source_ids: [podcastSource],
    format: "brief",
  });
  const highlight = await ok(ctx, "POST", "/api/v1/highlights", k, {
    source_id: source.id,
    exact: "tube feet",
    note: "How they hold on",
  });
  const highlightToDelete = await ok(ctx, "POST", "/api/v1/highlights", k, { source_id: source.id, exact: "limpets" });
  const tokenToDelete = await ok(ctx, "POST", "/api/v1/webhook-tokens", k);
  const tokenToRegenerate = await ok(ctx, "POST", "/api/v1/webhook-tokens", k);
  const actor = systemActor(a.userId, "contract test");
  const feed = (await ctx.services.feeds.watch(actor, workflow.id, { feed_url: feeds.url("/feed.xml") })).feed_id;
  feeds.set("/other.xml", { body: rss([{ id: "2", title: "Two" }]) });
  const feedToDelete = (await ctx.services.feeds.watch(actor, workflow.id, { feed_url: feeds.url("/other.xml") }))
    .feed_id;
  const keyToRevoke = (await ctx.services.keys.create(a.userId, "spare")).row.id;
  const importId = (
    await ctx.services.imports.create(actor, {
      bytes: new TextEncoder().encode("https://example.com/imported\n"),
      filename: "links.txt",
      format: "urls",
    })
  ).id;
  const illustratedContent = (await ok(ctx, "GET", `/api/v1/sources/${illustrated.id}?include=content`, k)).content;
  const media = /\]\((\/api\/v1\/sources\/[^)]+\/media\/[^)]+)\)/.exec(illustratedContent ?? "")?.[1];
  if (!media) throw new Error(`fixture: the illustrated source kept no image: ${illustratedContent}`);
  // Enough ready sources for a search quality run, and one run queued (the runner does not run it here).
  for (const title of ["Rock pools at dawn", "Kelp forests", "Barnacles and limpets"])
    await insertReadySource(ctx.services, a.userId, { title, markdown: SHORT_ARTICLE });
  await ctx.services.searchQuality.start(actor, { sample: 10, seed: 1 });
  const audio = await call(ctx, "GET", `/api/v1/podcasts/${podcast.id}/audio`, { key: k });
  if (audio.status !== 200)
    throw new Error(`fixture: the episode is not ready (${audio.status}) ${JSON.stringify(audio.body).slice(0, 300)}`);

  return {
    ctx,
    a,
    b,
    source: source.id as string,
    sourceUrl: source.url as string,
    illustrated: illustrated.id as string,
    /** The API address of the illustrated source's kept picture, as its Markdown has it. */
    media,
    sourceToDelete,
    keyToRevoke,
    notebook: notebook.id as string,
    notebookToDelete: notebookToDelete.id as string,
    note: note.id as string,
    noteToDelete: noteToDelete.id as string,
    highlight: highlight.id as string,
    highlightToDelete: highlightToDelete.id as string,
    podcastSource,
    podcast: podcast.id as string,
    audioEtag: audio.headers.get("etag")!,
    podcastQueued: podcastQueued.id as string,
    podcastToDelete: podcastToDelete.id as string,
    workflow: workflow.id as string,
    workflowToDelete: workflowToDelete.id as string,
    token: workflow.trigger.token_id as string,
    webhookPath,
    run: delivery.runs[0] as string,
    tokenToDelete: tokenToDelete.id as string,
    tokenToRegenerate: tokenToRegenerate.id as string,
    feed,
    feedToDelete,
    feedSite: feeds.url("/blog/"),
    pageWithoutFeed: bare.url("/"),
    importId,
    async close() {
      await ctx.services.podcasts.close();
      void web.stop();
      void feeds.stop();
      void bare.stop();
    },
  };
}
export type Fixtures = Awaited<ReturnType<typeof buildFixtures>>;
