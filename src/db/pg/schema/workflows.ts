// workflows (PostgreSQL twin): saved definitions with the columns triggers are looked up by.
import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users.ts";
import { webhookTokens } from "./webhook-tokens.ts";

export const workflows = pgTable(
  "workflows",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    active: boolean("active").notNull().default(true),
    triggerType: text("trigger_type", { enum: ["webhook", "event"] }).notNull(),
    tokenId: text("token_id").references(() => webhookTokens.id),
    eventType: text("event_type"),
    triggerJson: text("trigger_json").notNull(),
    actionsJson: text("actions_json").notNull(),
    signingSecret: text("signing_secret").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("workflows_user").on(t.userId, t.id),
    index("workflows_token").on(t.tokenId, t.active).where(sql`${t.tokenId} IS NOT NULL`),
    index("workflows_event").on(t.userId, t.eventType, t.active).where(sql`${t.eventType} IS NOT NULL`),
  ],
);
