// sources (PostgreSQL twin): saved links with their fetch status and extracted content.
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const sources = pgTable(
  "sources",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    normalizedUrl: text("normalized_url").notNull(),
    title: text("title"),
    titleFromUser: boolean("title_from_user").notNull().default(false),
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
    generateQuickPodcast: boolean("generate_quick_podcast").notNull().default(false),
    podcastFormat: text("podcast_format"),
    fetchedAt: text("fetched_at"),
    savedAt: text("saved_at"),
    /** JSON array of tag strings. */
    tags: text("tags").notNull().default("[]"),
    archived: boolean("archived").notNull().default(false),
    importId: text("import_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    unique("sources_user_url").on(t.userId, t.normalizedUrl),
    index("sources_user_id").on(t.userId, t.id),
    index("sources_user_status").on(t.userId, t.status, t.id),
    index("sources_user_saved").on(t.userId, t.savedAt, t.id),
    index("sources_import").on(t.importId, t.status, t.id).where(sql`${t.importId} IS NOT NULL`),
  ],
);
