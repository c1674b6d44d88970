// podcasts (PostgreSQL twin): episodes made from sources, their state, transcript and audio file.
import { doublePrecision, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { jsonText } from "./types.ts";
import { users } from "./users.ts";

export const podcasts = pgTable(
  "podcasts",
  {
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
    sourceIds: jsonText<string[]>("source_ids").notNull(),
    notebookId: text("notebook_id"),
    origin: text("origin", { enum: ["api", "quick", "workflow"] }).notNull(),
    jobId: text("job_id"),
    transcript: jsonText<{ speaker: string; text: string }[]>("transcript"),
    scriptEngine: text("script_engine"),
    speechEngine: text("speech_engine"),
    creditsQuoted: integer("credits_quoted").notNull(),
    creditsUsed: integer("credits_used"),
    durationSeconds: doublePrecision("duration_seconds"),
    audioPath: text("audio_path"),
    audioBytes: integer("audio_bytes"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [index("podcasts_user_id").on(t.userId, t.id), index("podcasts_user_status").on(t.userId, t.status)],
);
