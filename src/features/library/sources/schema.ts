// TypeBox shapes for sources: what may be sent, and the public view.
import { t, type Static } from "elysia";
import { PODCAST_FORMATS } from "../../../podcast-formats.ts";
import { Cursor, Limit } from "../../../http/pagination.ts";
import { DateTime, Int, oneOf } from "../../../http/schema.ts";

const PodcastFormat = oneOf(PODCAST_FORMATS, { description: "One of the six podcast presets" });
const SourceId = t.String({ pattern: "^src_[0-9A-Z]{26}$", description: "A source id (src_…)" });
const NotebookId = t.String({ pattern: "^nb_[0-9A-Z]{26}$", description: "A notebook id (nb_…)" });
export const SOURCE_STATUSES = ["pending", "ready", "failed"] as const;

/** CAPTURE_MAX_HTML_BYTES when not configured: room for a long article as a browser renders it. */
export const DEFAULT_CAPTURE_MAX_HTML_BYTES = 5 * 1024 * 1024;
export const CAPTURE_KINDS = ["browser", "server"] as const;

/**
 * The body of POST /api/v1/sources. `html` is bounded by the configured byte limit: a string has at
 * most as many characters as UTF-8 bytes, so the schema's maxLength is a first cut and the service
 * counts the bytes.
 */
export function sourceCreateSchema(maxHtmlBytes: number) {
  return t.Object(
    {
      url: t.String({ minLength: 1, maxLength: 2048, description: "An http or https URL" }),
      title: t.Optional(t.String({ minLength: 1, maxLength: 500, description: "Wins over the extracted title" })),
      notebook_ids: t.Optional(t.Array(NotebookId, { maxItems: 100, uniqueItems: true })),
      tags: t.Optional(
        t.Array(t.String({ minLength: 1, maxLength: 100, description: "A tag or label" }), {
          maxItems: 100,
          uniqueItems: true,
          description: "Tags for the source; saving a link already saved adds them to its tags",
        }),
      ),
      generate_quick_podcast: t.Optional(t.Boolean({ description: "Make an episode once the source is ready" })),
      podcast_format: t.Optional(PodcastFormat),
      html: t.Optional(
        t.String({
          minLength: 1,
          maxLength: maxHtmlBytes,
          description: `The page as the user's browser rendered it (\`document.documentElement.outerHTML\`), at most ${maxHtmlBytes} bytes of UTF-8 (CAPTURE_MAX_HTML_BYTES). The URL is then not fetched: the article is extracted from this HTML, and the source's \`capture\` is \`browser\`. Sent again for a saved URL, it replaces the content.`,
        }),
      ),
    },
    { additionalProperties: false },
  );
}
export const SourceCreate = sourceCreateSchema(DEFAULT_CAPTURE_MAX_HTML_BYTES);
export type SourceCreate = Static<typeof SourceCreate>;

export const Tag = t.String({ minLength: 1, maxLength: 100, description: "A tag or label" });
const Tags = t.Array(Tag, {
  maxItems: 100,
  uniqueItems: true,
  description: "Tags kept on the source (labels from imports)",
});

export const SourceUpdate = t.Object(
  {
    title: t.Optional(
      t.Union([t.String({ minLength: 1, maxLength: 500 }), t.Null()], {
        description: "null goes back to the extracted title",
      }),
    ),
    generate_quick_podcast: t.Optional(t.Boolean()),
    // No null: a source's format is a preset or, when it was saved without a quick podcast, unset.
    podcast_format: t.Optional(PodcastFormat),
    tags: t.Optional(Tags),
    suggested_tags: t.Optional(
      t.Array(Tag, {
        maxItems: 5,
        uniqueItems: true,
        description: "Replaces the suggestions offered for the source; `[]` dismisses them",
      }),
    ),
    archived: t.Optional(
      t.Boolean({ description: "Archived: out of the inbox (kept from Pocket and Omnivore imports)" }),
    ),
    favorite: t.Optional(t.Boolean({ description: "Starred: listed under Favorites" })),
    read: t.Optional(
      t.Boolean({
        description: "true marks the source read now (`read_at`); false marks it unread and resets progress",
      }),
    ),
    progress: t.Optional(
      t.Number({
        minimum: 0,
        maximum: 1,
        description:
          "How far the reader got, 0..1 of the article; reaching 1 marks the source read. Saved as the reader scrolls; a change of progress alone records no event",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SourceUpdate = Static<typeof SourceUpdate>;

export const SourceListQuery = t.Object(
  {
    limit: t.Optional(Limit()),
    cursor: t.Optional(Cursor),
    notebook_id: t.Optional(NotebookId),
    status: t.Optional(oneOf(SOURCE_STATUSES)),
    created_after: t.Optional(
      DateTime({ description: "Only sources created after this RFC 3339 time, e.g. 2026-01-31T12:00:00Z" }),
    ),
    tag: t.Optional(
      t.String({ minLength: 1, maxLength: 100, description: "Only sources carrying this tag (exact match)" }),
    ),
    archived: t.Optional(
      oneOf(["true", "false"], { description: "Only archived (`true`) or not archived (`false`) sources" }),
    ),
    favorite: t.Optional(oneOf(["true", "false"], { description: "Only favorites (`true`) or the others (`false`)" })),
    read: t.Optional(oneOf(["true", "false"], { description: "Only read (`true`) or unread (`false`) sources" })),
    view: t.Optional(
      oneOf(["inbox", "favorites", "archive", "all"], {
        description:
          "A triage view: `inbox` (unread and not archived), `favorites`, `archive`, `all` (default); combines with the other filters",
      }),
    ),
    original: t.Optional(
      oneOf(["ok", "gone", "moved"], {
        description:
          "Only sources whose original address the link check found answering (`ok`), gone (404/410) or moved",
      }),
    ),
    sort: t.Optional(
      oneOf(["created_at", "saved_at"], {
        description: "`created_at` (default) or `saved_at` (the original saved time), newest first",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SourceListQuery = Static<typeof SourceListQuery>;

export const SourceGetQuery = t.Object(
  { include: t.Optional(oneOf(["content"], { description: "`content` adds the extracted Markdown" })) },
  { additionalProperties: false },
);

const Nullable = <T extends import("@sinclair/typebox").TSchema>(s: T) => t.Union([s, t.Null()]);

export const SourcePublic = t.Object({
  id: t.String(),
  url: t.String(),
  normalized_url: t.String(),
  final_url: Nullable(t.String()),
  title: Nullable(t.String()),
  status: oneOf(SOURCE_STATUSES),
  error: Nullable(
    t.String({
      description:
        "Why fetching or extraction failed: http_410, timeout, too_large, blocked_address, extraction_timeout, too_complex, too_many_pages, …",
    }),
  ),
  error_detail: Nullable(t.String()),
  content_type: Nullable(t.String()),
  byline: Nullable(t.String()),
  site_name: Nullable(t.String()),
  language: Nullable(t.String()),
  published_at: Nullable(t.String()),
  excerpt: Nullable(t.String()),
  word_count: Nullable(Int()),
  notebook_ids: t.Array(t.String()),
  generate_quick_podcast: t.Boolean(),
  podcast_format: Nullable(t.String()),
  fetched_at: Nullable(t.String()),
  saved_at: t.String({ description: "When the link was first saved (kept from an import); else created_at" }),
  tags: t.Array(t.String()),
  suggested_tags: t.Array(t.String(), {
    description:
      "Up to five tags suggested from the text, preferring tags already in the library; accept one by adding it to `tags`",
  }),
  archived: t.Boolean({ description: "Archived: out of the inbox" }),
  favorite: t.Boolean({ description: "Starred" }),
  read_at: Nullable(t.String({ description: "When it was finished or marked read; null while unread" })),
  progress: t.Number({ minimum: 0, maximum: 1, description: "How far the reader got, 0..1 of the article" }),
  reading_minutes: Nullable(Int({ description: "Estimated reading time in minutes (238 words a minute)" })),
  image_url: Nullable(
    t.String({
      description:
        "The card's preview thumbnail, served by this server (never the original site); null when the page had none or it could not be kept",
    }),
  ),
  original_status: Nullable(
    t.String({
      description:
        "What the periodic link check last found at the original address: `ok`, `gone` (404/410) or `moved` (a permanent redirect); null before the first check. The saved copy reads in full either way",
    }),
  ),
  original_checked_at: Nullable(t.String()),
  capture: oneOf(CAPTURE_KINDS, {
    description:
      "Where the content came from: `browser` (extracted from the HTML the user's browser sent) or `server` (fetched by the server, or carried by an import)",
  }),
  created_at: t.String(),
  updated_at: t.String(),
  content: t.Optional(Nullable(t.String({ description: "Markdown; only with ?include=content" }))),
  embedding: t.Optional(
    t.Object(
      {
        status: oneOf(["pending", "embedding", "done"]),
        chunks_done: Int(),
        chunks_total: Int(),
      },
      {
        description:
          "Vector embedding behind ingestion: text search works once the source is ready, vector search as chunks are done",
      },
    ),
  ),
});
export type SourcePublic = Static<typeof SourcePublic>;

export const SourceCheck = t.Object({
  url: t.String(),
  normalized_url: t.String(),
  saved: t.Boolean(),
  source_id: Nullable(t.String()),
});

export { SourceId, NotebookId };
