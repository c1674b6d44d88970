// mail_outbox (PostgreSQL twin): messages kept instead of sent while no SMTP server is configured.
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    name: text("name").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    recipients: text("recipients").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    size: integer("size").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("mail_outbox_user").on(t.userId, t.createdAt)],
);
