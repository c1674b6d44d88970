// mail_outbox: messages kept instead of sent while no SMTP server is configured (Settings → Outbox).
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

export const mailOutbox = sqliteTable("mail_outbox", {
  /** File-like, from the Message-ID, so a retried step rewrites its message. */
  name: text("name").primaryKey(),
  userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
  messageId: text("message_id").notNull(),
  recipients: text("recipients").notNull(),
  subject: text("subject").notNull(),
  /** The whole RFC 5322 message (CRLF). */
  message: text("message").notNull(),
  size: integer("size").notNull(),
  createdAt: text("created_at").notNull(),
});
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
