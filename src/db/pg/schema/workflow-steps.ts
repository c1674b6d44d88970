// workflow_steps (PostgreSQL twin): each executed action of a run with its attempts and times.
import { integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { workflowRuns } from "./workflow-runs.ts";

export const workflowSteps = pgTable(
  "workflow_steps",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => workflowRuns.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    path: text("path").notNull(),
    actionId: text("action_id").notNull(),
    type: text("type").notNull(),
    status: text("status", { enum: ["running", "waiting", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    failures: integer("failures").notNull().default(0),
    input: text("input"),
    output: text("output"),
    error: text("error"),
    log: text("log").notNull().default("[]"),
    copiedFrom: text("copied_from"),
    nextAttemptAt: text("next_attempt_at"),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [unique("workflow_steps_run_path").on(t.runId, t.path)],
);
