// sources: saved links with their fetch status and extracted content.
import { integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const sources = sqliteTable("sources", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
  normalizedUrl: text("normalized_url").notNull(),
  title: text("title"),
  titleFromUser: integer("title_from_user", { mode: "boolean" }).notNull().default(false),
  status: text("status", { enum: ["pending", "ready", "failed"] })
    .notNull()
    .default("pending"),
  error: text("error"),
  errorDetail: text("error_detail"),
  finalUrl: text("final_url"),
  contentType: text("content_type"),
  byline: text("byline"),
  siteName: text("site_name"),
  language: text("language"),
  publishedAt: text("published_at"),
  excerpt: text("excerpt"),
  wordCount: integer("word_count"),
  content: text("content"),
  generateQuickPodcast: integer("generate_quick_podcast", { mode: "boolean" }).notNull().default(false),
  podcastFormat: text("podcast_format"),
  fetchedAt: text("fetched_at"),
  savedAt: text("saved_at"),
  /** JSON array of tag strings. */
  tags: text("tags").notNull().default("[]"),
  archived: integer("archived", { mode: "boolean" }).notNull().default(false),
  importId: text("import_id"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  /** Where the content came from: the HTML the user's browser sent, or the server's own fetch. */
  capture: text("capture", { enum: ["browser", "server"] })
    .notNull()
    .default("server"),
  favorite: integer("favorite", { mode: "boolean" }).notNull().default(false),
  /** When the reader finished it (or it was marked read); null: unread. */
  readAt: text("read_at"),
  /** How far the reader got, 0..1 of the article. */
  progress: real("progress").notNull().default(0),
  /** Blob key of the card's preview thumbnail (fetched at ingestion); null: no image. */
  imageKey: text("image_key"),
  /** The periodic link check's verdict on the original address: ok, gone (404/410) or moved. */
  originalStatus: text("original_status", { enum: ["ok", "gone", "moved"] }),
  originalCheckedAt: text("original_checked_at"),
  originalMovedTo: text("original_moved_to"),
  originalEtag: text("original_etag"),
  originalLastModified: text("original_last_modified"),
  /** JSON array of tags suggested at ingestion, offered for one-click acceptance. */
  suggestedTags: text("suggested_tags").notNull().default("[]"),
});
export type SourceRow = typeof sources.$inferSelect;
