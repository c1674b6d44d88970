// search_quality_runs: the user's retrieval self-tests (Settings → Search quality), with progress and report.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const searchQualityRuns = sqliteTable("search_quality_runs", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull(),
  progress: integer("progress").notNull().default(0),
  total: integer("total").notNull().default(0),
  sample: integer("sample").notNull(),
  seed: integer("seed").notNull(),
  embedder: text("embedder"),
  report: text("report"),
  error: text("error"),
  createdAt: text("created_at").notNull(),
  startedAt: text("started_at"),
  updatedAt: text("updated_at").notNull(),
  finishedAt: text("finished_at"),
});
export type SearchQualityRunRow = typeof searchQualityRuns.$inferSelect;
