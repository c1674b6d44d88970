// SQL for the mail outbox: messages kept while no SMTP server is configured, listed per owner.
// Written once for both engines (src/db/shared.ts).
import { and, desc, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { mailOutbox, type MailOutboxRow } from "../../db/schema/index.ts";

/** A row without its message text: what the outbox list shows. */
export type OutboxEntry = Omit<MailOutboxRow, "message">;

export interface MailRepo {
  /** Writes a message; the same name again (a retried step) replaces it instead of adding a second. */
  put(row: MailOutboxRow): Promise<void>;
  /** The user's messages, newest first, without their text. */
  list(userId: string, limit: number): Promise<OutboxEntry[]>;
  /** One message of the user, or undefined when it is someone else's or does not exist. */
  get(userId: string, name: string): Promise<MailOutboxRow | undefined>;
}

export function createMailRepo(db: Db): MailRepo {
  const orm = db.shared;
  const { message: _message, ...entryColumns } = getTableColumns(mailOutbox);
  return {
    async put(row) {
      const { name: _name, ...rest } = row;
      // One statement: two processes retrying the same step leave one row, never a unique violation.
      await orm.insert(mailOutbox).values(row).onConflictDoUpdate({ target: mailOutbox.name, set: rest });
    },
    list(userId, limit) {
      return orm
        .select(entryColumns)
        .from(mailOutbox)
        .where(eq(mailOutbox.userId, userId))
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.name))
        .limit(limit);
    },
    get(userId, name) {
      return orm
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.name, name)))
        .get();
    },
  };
}
