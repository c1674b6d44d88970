// workflows: saved definitions (trigger + actions as JSON) with the columns triggers are looked up by.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";
import { webhookTokens } from "./webhook-tokens.ts";

export const workflows = sqliteTable("workflows", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  triggerType: text("trigger_type", { enum: ["webhook", "event"] }).notNull(),
  tokenId: text("token_id").references(() => webhookTokens.id),
  eventType: text("event_type"),
  triggerJson: text("trigger_json").notNull(),
  actionsJson: text("actions_json").notNull(),
  signingSecret: text("signing_secret").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
export type WorkflowRow = typeof workflows.$inferSelect;
