// workflow_runs: one execution of a workflow, its trigger, its cursor (next step) and outcome.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workflows } from "./workflows.ts";

export const workflowRuns = sqliteTable("workflow_runs", {
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
});
export type WorkflowRunRow = typeof workflowRuns.$inferSelect;
