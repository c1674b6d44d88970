// podcasts: episodes made from sources, with their generation state, transcript and audio file.
import { integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const podcasts = sqliteTable("podcasts", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  title: text("title").notNull(),
  format: text("format").notNull(),
  language: text("language").notNull(),
  status: text("status", { enum: ["queued", "generating", "ready", "failed"] })
    .notNull()
    .default("queued"),
  error: text("error"),
  errorDetail: text("error_detail"),
  sourceIds: text("source_ids", { mode: "json" }).$type<string[]>().notNull(),
  notebookId: text("notebook_id"),
  origin: text("origin", { enum: ["api", "quick", "workflow"] }).notNull(),
  jobId: text("job_id"),
  transcript: text("transcript", { mode: "json" }).$type<{ speaker: string; text: string }[]>(),
  scriptEngine: text("script_engine"),
  speechEngine: text("speech_engine"),
  creditsQuoted: integer("credits_quoted").notNull(),
  creditsUsed: integer("credits_used"),
  durationSeconds: real("duration_seconds"),
  audioPath: text("audio_path"),
  audioBytes: integer("audio_bytes"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  finishedAt: text("finished_at"),
});
export type PodcastRow = typeof podcasts.$inferSelect;
export type PodcastStatus = PodcastRow["status"];
