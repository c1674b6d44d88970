// imports (PostgreSQL twin): uploaded files being brought into a library, with counts and problems.
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { bytea } from "./types.ts";
import { users } from "./users.ts";

export const imports = pgTable(
  "imports",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    format: text("format").notNull(),
    filename: text("filename"),
    fileSha256: text("file_sha256").notNull(),
    file: bytea("file"),
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
  },
  (t) => [index("imports_user").on(t.userId, t.id)],
);
