// workflow_runs (PostgreSQL twin): one execution of a workflow, its trigger, cursor and outcome.
import { sql } from "drizzle-orm";
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { workflows } from "./workflows.ts";

export const workflowRuns = pgTable(
  "workflow_runs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
    triggerType: text("trigger_type").notNull(),
    triggerJson: text("trigger_json").notNull(),
    triggerMeta: text("trigger_meta").notNull().default("{}"),
    actionsJson: text("actions_json").notNull(),
    depth: integer("depth").notNull().default(0),
    chain: text("chain").notNull().default("[]"),
    cursor: text("cursor"),
    stepCount: integer("step_count").notNull().default(0),
    error: text("error"),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("workflow_runs_workflow").on(t.workflowId, t.id),
    index("workflow_runs_finished").on(t.finishedAt).where(sql`${t.finishedAt} IS NOT NULL`),
  ],
);
