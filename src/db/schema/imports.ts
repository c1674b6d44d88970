// imports: uploaded files being brought into a library, with counts and per-item problems.
import { blob, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const imports = sqliteTable("imports", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  format: text("format").notNull(),
  filename: text("filename"),
  fileSha256: text("file_sha256").notNull(),
  file: blob("file", { mode: "buffer" }),
  status: text("status", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
  position: integer("position").notNull().default(0),
  total: integer("total").notNull().default(0),
  created: integer("created").notNull().default(0),
  alreadySaved: integer("already_saved").notNull().default(0),
  invalid: integer("invalid").notNull().default(0),
  failed: integer("failed").notNull().default(0),
  notebooksCreated: integer("notebooks_created").notNull().default(0),
  feedsWatched: integer("feeds_watched").notNull().default(0),
  feedWorkflows: text("feed_workflows").notNull().default("{}"),
  problems: text("problems").notNull().default("[]"),
  problemsTotal: integer("problems_total").notNull().default(0),
  error: text("error"),
  createdAt: text("created_at").notNull(),
  startedAt: text("started_at"),
  finishedAt: text("finished_at"),
  updatedAt: text("updated_at").notNull(),
});
export type ImportRow = typeof imports.$inferSelect;
