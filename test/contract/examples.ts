// Example requests per operationId for the contract test: at least one success and one error
// each. A new operation in the document without an entry here fails the test.
import type { Fixtures } from "./fixtures.ts";

export interface Case {
  name: string;
  /** Concrete path (with query); must match the operation's path template. */
  path: string;
  status: number;
  /** Whose key is sent: the owner (default), another user, or none. */
  as?: "owner" | "other" | "none";
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

const NONE = "01J0000000000000000000000A";
const BOUNDARY = "contract-boundary";

/** A multipart/form-data upload of one text file (and a format field when given). */
function upload(text: string, format?: string): Pick<Case, "rawBody" | "headers"> {
  const parts = [
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="file"; filename="links.txt"',
    "Content-Type: text/plain",
    "",
    text,
  ];
  if (format !== undefined) parts.push(`--${BOUNDARY}`, 'Content-Disposition: form-data; name="format"', "", format);
  parts.push(`--${BOUNDARY}--`, "");
  return { rawBody: parts.join("\r\n"), headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } };
}

export function examples(f: Fixtures): Record<string, Case[]> {
  const badLimit = (path: string): Case => ({ name: "limit=0", path: `${path}?limit=0`, status: 422 });
  const missing = (path: string, prefix: string, extra: Partial<Case> = {}): Case => ({
    name: "unknown id",
    path: `${path}/${prefix}_${NONE}`,
    status: 404,
    ...extra,
  });
  return {
    getMe: [{ name: "me", path: "/api/v1/me", status: 200 }],
    getAccount: [{ name: "balance", path: "/api/v1/account", status: 200 }],
    getPreferences: [{ name: "all", path: "/api/v1/me/preferences", status: 200 }],
    updatePreferences: [
      {
        name: "sans, sepia",
        path: "/api/v1/me/preferences",
        body: { reader_font: "sans", reader_theme: "sepia" },
        status: 200,
      },
      { name: "size out of range", path: "/api/v1/me/preferences", body: { reader_size: 40 }, status: 422 },
    ],

    listKeys: [{ name: "page", path: "/api/v1/keys?limit=1", status: 200 }, badLimit("/api/v1/keys")],
    createKey: [
      { name: "create", path: "/api/v1/keys", body: { name: "laptop" }, status: 201 },
      { name: "no name", path: "/api/v1/keys", body: {}, status: 422 },
      {
        name: "form body",
        path: "/api/v1/keys",
        rawBody: "name=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        status: 415,
      },
    ],
    revokeKey: [
      missing("/api/v1/keys", "key"),
      { name: "revoke own", path: `/api/v1/keys/${f.keyToRevoke}`, status: 200 },
    ],

    listSources: [
      { name: "ready ones", path: "/api/v1/sources?status=ready&limit=5", status: 200 },
      { name: "bad status", path: "/api/v1/sources?status=sleeping", status: 422 },
    ],
    createSource: [
      { name: "already saved", path: "/api/v1/sources", body: { url: f.sourceUrl }, status: 200 },
      {
        name: "new",
        path: "/api/v1/sources",
        body: { url: "https://example.com/new-one", notebook_ids: [f.notebook] },
        status: 201,
      },
      { name: "no url", path: "/api/v1/sources", body: { title: "x" }, status: 422 },
      {
        name: "with the page's html",
        path: "/api/v1/sources",
        body: {
          url: "https://example.com/captured",
          html: "<html><body><article><p>Kept as seen.</p></article></body></html>",
        },
        status: 201,
      },
      { name: "empty html", path: "/api/v1/sources", body: { url: "https://example.com/e", html: "" }, status: 422 },
      {
        name: "malformed JSON",
        path: "/api/v1/sources",
        rawBody: "{",
        headers: { "content-type": "application/json" },
        status: 400,
      },
    ],
    checkSource: [
      { name: "saved", path: `/api/v1/sources/check?url=${encodeURIComponent(f.sourceUrl)}`, status: 200 },
      { name: "no url", path: "/api/v1/sources/check", status: 422 },
    ],
    getSource: [
      { name: "with content", path: `/api/v1/sources/${f.source}?include=content`, status: 200 },
      { name: "someone else's", path: `/api/v1/sources/${f.source}`, as: "other", status: 404 },
    ],
    updateSource: [
      { name: "title", path: `/api/v1/sources/${f.source}`, body: { title: "Tide pools" }, status: 200 },
      { name: "empty title", path: `/api/v1/sources/${f.source}`, body: { title: "" }, status: 422 },
    ],
    deleteSource: [
      missing("/api/v1/sources", "src"),
      { name: "delete", path: `/api/v1/sources/${f.sourceToDelete}`, status: 200 },
    ],
    startSearchQuality: [
      { name: "start (the queued run is returned)", path: "/api/v1/search/quality", body: { sample: 10 }, status: 202 },
      { name: "sample too small", path: "/api/v1/search/quality", body: { sample: 1 }, status: 422 },
      { name: "fewer than 5 ready sources", path: "/api/v1/search/quality", as: "other", body: {}, status: 409 },
    ],
    getSearchQuality: [
      { name: "latest", path: "/api/v1/search/quality", status: 200 },
      { name: "no run yet", path: "/api/v1/search/quality", as: "other", status: 404 },
    ],
    listSimilarTags: [{ name: "pairs", path: "/api/v1/tags/similar", status: 200 }],
    listTags: [
      { name: "all", path: "/api/v1/tags", status: 200 },
      { name: "containing", path: "/api/v1/tags?q=ti", status: 200 },
      { name: "blank q", path: "/api/v1/tags?q=", status: 422 },
    ],
    renameTag: [
      { name: "rename", path: "/api/v1/tags/shore", body: { name: "seashore" }, status: 200 },
      { name: "blank name", path: "/api/v1/tags/tide", body: { name: " " }, status: 422 },
      { name: "no such tag", path: "/api/v1/tags/nothing", body: { name: "x" }, status: 404 },
    ],
    deleteTag: [
      { name: "delete", path: "/api/v1/tags/coast", status: 200 },
      { name: "no such tag", path: "/api/v1/tags/nothing", status: 404 },
    ],
    getSourceImage: [
      { name: "thumbnail", path: `/api/v1/sources/${f.illustrated}/image`, status: 200 },
      { name: "no preview image", path: `/api/v1/sources/${f.podcastSource}/image`, status: 404 },
      { name: "someone else's", path: `/api/v1/sources/${f.illustrated}/image`, as: "other", status: 404 },
    ],
    getSourceMedia: [
      { name: "kept image", path: f.media, status: 200 },
      { name: "unknown name", path: `/api/v1/sources/${f.illustrated}/media/nothing.webp`, status: 404 },
      { name: "someone else's", path: f.media, as: "other", status: 404 },
    ],
    refetchSource: [
      { name: "refetch", path: `/api/v1/sources/${f.source}/refetch`, status: 202 },
      { name: "already pending", path: `/api/v1/sources/${f.source}/refetch`, status: 409 },
      { name: "unknown id", path: `/api/v1/sources/src_${NONE}/refetch`, status: 404 },
    ],

    listNotebooks: [{ name: "page", path: "/api/v1/notebooks", status: 200 }, badLimit("/api/v1/notebooks")],
    createNotebook: [
      {
        name: "create",
        path: "/api/v1/notebooks",
        body: { name: "Birds" },
        headers: { "idempotency-key": "nb-1" },
        status: 201,
      },
      {
        name: "replayed",
        path: "/api/v1/notebooks",
        body: { name: "Birds" },
        headers: { "idempotency-key": "nb-1" },
        status: 201,
      },
      {
        name: "same key, other body",
        path: "/api/v1/notebooks",
        body: { name: "Fish" },
        headers: { "idempotency-key": "nb-1" },
        status: 422,
      },
      { name: "no name", path: "/api/v1/notebooks", body: {}, status: 422 },
    ],
    getNotebook: [
      { name: "get", path: `/api/v1/notebooks/${f.notebook}`, status: 200 },
      missing("/api/v1/notebooks", "nb"),
    ],
    updateNotebook: [
      { name: "rename", path: `/api/v1/notebooks/${f.notebook}`, body: { name: "Coast and sea" }, status: 200 },
      {
        name: "someone else's",
        path: `/api/v1/notebooks/${f.notebook}`,
        as: "other",
        body: { name: "Mine" },
        status: 404,
      },
    ],
    deleteNotebook: [
      missing("/api/v1/notebooks", "nb"),
      { name: "delete", path: `/api/v1/notebooks/${f.notebookToDelete}`, status: 200 },
    ],
    addSourceToNotebook: [
      { name: "again (idempotent)", path: `/api/v1/notebooks/${f.notebook}/sources/${f.source}`, status: 200 },
      { name: "unknown source", path: `/api/v1/notebooks/${f.notebook}/sources/src_${NONE}`, status: 404 },
    ],
    addSourcesToNotebook: [
      {
        name: "several",
        path: `/api/v1/notebooks/${f.notebook}/sources`,
        body: { source_ids: [f.source, f.podcastSource] },
        status: 200,
      },
      {
        name: "unknown source",
        path: `/api/v1/notebooks/${f.notebook}/sources`,
        body: { source_ids: [`src_${NONE}`] },
        status: 422,
      },
    ],
    removeSourceFromNotebook: [
      { name: "unknown notebook", path: `/api/v1/notebooks/nb_${NONE}/sources/${f.source}`, status: 404 },
      { name: "remove", path: `/api/v1/notebooks/${f.notebook}/sources/${f.source}`, status: 200 },
      { name: "not in it any more", path: `/api/v1/notebooks/${f.notebook}/sources/${f.source}`, status: 404 },
    ],
    exportNotebookMarkdown: [
      { name: "zip", path: `/api/v1/notebooks/${f.notebook}/export/markdown`, status: 200 },
      { name: "unknown id", path: `/api/v1/notebooks/nb_${NONE}/export/markdown`, status: 404 },
    ],

    listNotes: [
      { name: "in a notebook", path: `/api/v1/notes?notebook_id=${f.notebook}`, status: 200 },
      badLimit("/api/v1/notes"),
    ],
    createNote: [
      { name: "create", path: "/api/v1/notes", body: { content: "Hello", source_ids: [f.source] }, status: 201 },
      { name: "empty", path: "/api/v1/notes", body: { content: "" }, status: 422 },
    ],
    getNote: [{ name: "get", path: `/api/v1/notes/${f.note}`, status: 200 }, missing("/api/v1/notes", "note")],
    updateNote: [
      {
        name: "edit",
        path: `/api/v1/notes/${f.note}`,
        body: { content: "# Low tide\n\nGo at dawn, with boots." },
        status: 200,
      },
      { name: "unknown id", path: `/api/v1/notes/note_${NONE}`, body: { content: "x" }, status: 404 },
    ],
    deleteNote: [
      missing("/api/v1/notes", "note"),
      { name: "delete", path: `/api/v1/notes/${f.noteToDelete}`, status: 200 },
    ],
    downloadNote: [
      { name: "markdown", path: `/api/v1/notes/${f.note}/download`, status: 200 },
      { name: "unknown id", path: `/api/v1/notes/note_${NONE}/download`, status: 404 },
    ],

    listHighlights: [
      { name: "of a source", path: `/api/v1/highlights?source_id=${f.source}&limit=5`, status: 200 },
      badLimit("/api/v1/highlights"),
    ],
    createHighlight: [
      {
        name: "create",
        path: "/api/v1/highlights",
        body: { source_id: f.podcastSource, exact: "Sea stars grip the rock", color: "blue", note: "Grip" },
        status: 201,
      },
      {
        name: "quote not in the text",
        path: "/api/v1/highlights",
        body: { source_id: f.podcastSource, exact: "not in the article" },
        status: 422,
      },
    ],
    exportHighlightsCsv: [
      { name: "csv", path: "/api/v1/highlights/export.csv", status: 200 },
      { name: "bad filter", path: "/api/v1/highlights/export.csv?notebook_id=nope", status: 422 },
    ],
    getHighlight: [
      { name: "get", path: `/api/v1/highlights/${f.highlight}`, status: 200 },
      missing("/api/v1/highlights", "hl"),
      { name: "another user's", path: `/api/v1/highlights/${f.highlight}`, status: 404, as: "other" },
    ],
    updateHighlight: [
      { name: "recolour", path: `/api/v1/highlights/${f.highlight}`, body: { color: "pink" }, status: 200 },
      { name: "bad colour", path: `/api/v1/highlights/${f.highlight}`, body: { color: "red" }, status: 422 },
    ],
    deleteHighlight: [
      missing("/api/v1/highlights", "hl"),
      { name: "delete", path: `/api/v1/highlights/${f.highlightToDelete}`, status: 200 },
    ],

    search: [
      { name: "hybrid", path: "/api/v1/search", body: { query: "tide pools", mode: "hybrid", limit: 5 }, status: 200 },
      {
        name: "text in a notebook",
        path: "/api/v1/search",
        body: { query: "sea stars", notebook_id: f.notebook },
        status: 200,
      },
      { name: "empty query", path: "/api/v1/search", body: { query: "" }, status: 422 },
    ],
    ask: [
      {
        name: "answered",
        path: "/api/v1/search/ask",
        body: { question: "How do sea stars hold on to the rock?" },
        status: 200,
      },
      { name: "no question", path: "/api/v1/search/ask", body: {}, status: 422 },
    ],

    streamEvents: [
      { name: "open", path: "/api/v1/events/stream", status: 200 },
      { name: "bad cursor", path: "/api/v1/events/stream?last_event_id=abc", status: 422 },
    ],
    listFeeds: [
      { name: "of a workflow", path: `/api/v1/feeds?workflow_id=${f.workflow}`, status: 200 },
      badLimit("/api/v1/feeds"),
    ],
    getFeed: [{ name: "get", path: `/api/v1/feeds/${f.feed}`, status: 200 }, missing("/api/v1/feeds", "feed")],
    subscribeFeed: [
      {
        name: "a site's address",
        path: "/api/v1/feeds",
        body: { url: f.feedSite, schedule: "0 * * * *", backfill: 1 },
        status: 201,
      },
      { name: "no feed found", path: "/api/v1/feeds", body: { url: f.pageWithoutFeed }, status: 422 },
    ],
    discoverFeeds: [
      { name: "a site's feeds", path: "/api/v1/feeds/discover", body: { url: f.feedSite }, status: 200 },
      { name: "not http", path: "/api/v1/feeds/discover", body: { url: "ftp://example.com/" }, status: 422 },
    ],
    updateFeed: [
      { name: "pause", path: `/api/v1/feeds/${f.feed}`, body: { active: false }, status: 200 },
      { name: "bad schedule", path: `/api/v1/feeds/${f.feed}`, body: { schedule: "hourly" }, status: 422 },
      { name: "someone else's", path: `/api/v1/feeds/${f.feed}`, body: { active: true }, as: "other", status: 404 },
    ],
    listFeedEntries: [
      { name: "page", path: `/api/v1/feeds/${f.feed}/entries?limit=5`, status: 200 },
      missing("/api/v1/feeds", "feed", { path: `/api/v1/feeds/feed_${NONE}/entries` }),
    ],
    pollFeed: [
      { name: "poll", path: `/api/v1/feeds/${f.feed}/poll`, status: 200 },
      { name: "someone else's", path: `/api/v1/feeds/${f.feed}/poll`, as: "other", status: 404 },
    ],
    deleteFeed: [
      missing("/api/v1/feeds", "feed"),
      { name: "delete", path: `/api/v1/feeds/${f.feedToDelete}`, status: 200 },
    ],

    listPodcasts: [{ name: "ready", path: "/api/v1/podcasts?status=ready", status: 200 }, badLimit("/api/v1/podcasts")],
    createPodcast: [
      {
        name: "brief",
        path: "/api/v1/podcasts",
        body: { source_ids: [f.podcastSource], format: "brief", title: "Coast" },
        status: 202,
      },
      {
        name: "unknown format",
        path: "/api/v1/podcasts",
        body: { source_ids: [f.source], format: "rap_battle" },
        status: 422,
      },
    ],
    getPodcast: [
      { name: "ready", path: `/api/v1/podcasts/${f.podcast}`, status: 200 },
      missing("/api/v1/podcasts", "pod"),
    ],
    deletePodcast: [
      missing("/api/v1/podcasts", "pod"),
      { name: "delete", path: `/api/v1/podcasts/${f.podcastToDelete}`, status: 200 },
    ],
    getPodcastAudio: [
      { name: "whole file", path: `/api/v1/podcasts/${f.podcast}/audio`, status: 200 },
      { name: "a range", path: `/api/v1/podcasts/${f.podcast}/audio`, headers: { range: "bytes=0-99" }, status: 206 },
      {
        name: "not modified",
        path: `/api/v1/podcasts/${f.podcast}/audio`,
        headers: { "if-none-match": f.audioEtag },
        status: 304,
      },
      {
        name: "range outside",
        path: `/api/v1/podcasts/${f.podcast}/audio`,
        headers: { range: "bytes=999999999-" },
        status: 416,
      },
      { name: "not ready", path: `/api/v1/podcasts/${f.podcastQueued}/audio`, status: 409 },
      { name: "unknown id", path: `/api/v1/podcasts/pod_${NONE}/audio`, status: 404 },
    ],

    listWorkflows: [{ name: "page", path: "/api/v1/workflows?limit=10", status: 200 }, badLimit("/api/v1/workflows")],
    createWorkflow: [
      {
        name: "event trigger",
        path: "/api/v1/workflows",
        body: {
          name: "Note new sources",
          trigger: { type: "event", event: "source.created" },
          actions: [{ id: "n", type: "create_notebook", name: "{{ event.data.title }}" }],
        },
        status: 201,
      },
      {
        name: "webhook trigger (URL once)",
        path: "/api/v1/workflows",
        body: {
          name: "Hook",
          trigger: { type: "webhook" },
          actions: [{ id: "nb", type: "create_notebook", name: "{{ name }}" }],
        },
        status: 201,
      },
      {
        name: "unknown action",
        path: "/api/v1/workflows",
        body: { name: "x", trigger: { type: "webhook" }, actions: [{ id: "a", type: "teleport" }] },
        status: 422,
      },
      {
        name: "variable nothing provides (lists the available ones)",
        path: "/api/v1/workflows",
        body: {
          name: "x",
          trigger: { type: "webhook", fields: ["title", "url"] },
          actions: [
            { id: "nb", type: "create_notebook", name: "{{ title }}" },
            { id: "n2", type: "create_notebook", name: "{{ titel }}" },
          ],
        },
        status: 422,
      },
      {
        name: "notebook given by name",
        path: "/api/v1/workflows",
        body: {
          name: "x",
          trigger: { type: "webhook" },
          actions: [{ id: "add", type: "add_source_to_notebook", source_id: "{{ id }}", notebook_id: "Reading" }],
        },
        status: 422,
      },
    ],
    getWorkflow: [
      { name: "get", path: `/api/v1/workflows/${f.workflow}`, status: 200 },
      missing("/api/v1/workflows", "wf"),
    ],
    updateWorkflow: [
      { name: "rename", path: `/api/v1/workflows/${f.workflow}`, body: { name: "Collect links" }, status: 200 },
      {
        name: "bad template",
        path: `/api/v1/workflows/${f.workflow}`,
        body: { actions: [{ id: "nb", type: "create_notebook", name: "{{ unclosed" }] },
        status: 422,
      },
    ],
    deleteWorkflow: [
      missing("/api/v1/workflows", "wf"),
      { name: "delete", path: `/api/v1/workflows/${f.workflowToDelete}`, status: 200 },
    ],
    listWorkflowRuns: [
      { name: "runs", path: `/api/v1/workflows/${f.workflow}/runs`, status: 200 },
      { name: "unknown workflow", path: `/api/v1/workflows/wf_${NONE}/runs`, status: 404 },
    ],
    getRun: [{ name: "finished", path: `/api/v1/runs/${f.run}`, status: 200 }, missing("/api/v1/runs", "run")],
    replayRun: [
      { name: "from the start", path: `/api/v1/runs/${f.run}/replay?from=start`, status: 202 },
      { name: "bad from", path: `/api/v1/runs/${f.run}/replay?from=middle`, status: 422 },
      { name: "unknown id", path: `/api/v1/runs/run_${NONE}/replay`, status: 404 },
    ],

    listWebhookTokens: [
      { name: "page", path: "/api/v1/webhook-tokens", status: 200 },
      badLimit("/api/v1/webhook-tokens"),
    ],
    createWebhookToken: [
      { name: "create", path: "/api/v1/webhook-tokens", status: 201 },
      {
        name: "text body",
        path: "/api/v1/webhook-tokens",
        rawBody: "hello",
        headers: { "content-type": "text/plain" },
        status: 415,
      },
    ],
    getWebhookToken: [
      { name: "get", path: `/api/v1/webhook-tokens/${f.token}`, status: 200 },
      missing("/api/v1/webhook-tokens", "whk"),
    ],
    deleteWebhookToken: [
      { name: "in use", path: `/api/v1/webhook-tokens/${f.token}`, status: 409 },
      { name: "delete", path: `/api/v1/webhook-tokens/${f.tokenToDelete}`, status: 200 },
    ],
    regenerateWebhookToken: [
      { name: "regenerate", path: `/api/v1/webhook-tokens/${f.tokenToRegenerate}/regenerate`, status: 200 },
      { name: "unknown id", path: `/api/v1/webhook-tokens/whk_${NONE}/regenerate`, status: 404 },
    ],

    createImport: [
      {
        name: "a URL list",
        path: "/api/v1/imports",
        status: 202,
        ...upload("https://example.com/from-a-list\nhttps://example.com/another\n", "auto"),
      },
      { name: "unknown format", path: "/api/v1/imports", status: 422, ...upload("https://example.com/x\n", "xml") },
      { name: "JSON body", path: "/api/v1/imports", body: { file: "x" }, status: 415 },
    ],
    listImports: [{ name: "page", path: "/api/v1/imports?limit=5", status: 200 }, badLimit("/api/v1/imports")],
    getImport: [{ name: "get", path: `/api/v1/imports/${f.importId}`, status: 200 }, missing("/api/v1/imports", "imp")],
    exportAccount: [
      { name: "json", path: "/api/v1/export?format=json", status: 200 },
      { name: "netscape", path: "/api/v1/export?format=netscape", status: 200 },
      { name: "unknown format", path: "/api/v1/export?format=csv", status: 422 },
    ],

    deliverWebhook: [
      { name: "deliver", path: f.webhookPath, as: "none", body: { title: "second" }, status: 202 },
      {
        name: "with a webhook-id",
        path: f.webhookPath,
        as: "none",
        body: { title: "third" },
        headers: { "webhook-id": "msg-1" },
        status: 202,
      },
      {
        name: "same webhook-id (replayed)",
        path: f.webhookPath,
        as: "none",
        body: { title: "third" },
        headers: { "webhook-id": "msg-1" },
        status: 202,
      },
      { name: "not an object", path: f.webhookPath, as: "none", body: [1, 2], status: 422 },
      {
        name: "not JSON",
        path: f.webhookPath,
        as: "none",
        rawBody: "x=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        status: 415,
      },
      { name: "unknown token", path: "/api/webhooks/workflows/cpw_unknown", as: "none", body: {}, status: 404 },
    ],
  };
}
