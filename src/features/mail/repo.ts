// SQL for the mail outbox: messages kept while no SMTP server is configured, listed per owner.
import { and, desc, eq, getTableColumns } from "drizzle-orm";
import type { Db } from "../../db/port.ts";
import { mailOutbox, type MailOutboxRow } from "../../db/schema/index.ts";
import { createMailPgRepo } from "./pg-repo.ts";

/** A row without its message text: what the outbox list shows. */
export type OutboxEntry = Omit<MailOutboxRow, "message">;

export function createMailRepo(db: Db): MailRepo {
  return db.pg ? createMailPgRepo(db.pg) : createMailSqliteRepo(db);
}

function createMailSqliteRepo(db: Db) {
  const { message: _message, ...entryColumns } = getTableColumns(mailOutbox);
  return {
    /** Writes a message; the same name again (a retried step) replaces it instead of adding a second. */
    async put(row: MailOutboxRow): Promise<void> {
      const { name: _name, ...rest } = row;
      await db.exec((c) =>
        c.orm.insert(mailOutbox).values(row).onConflictDoUpdate({ target: mailOutbox.name, set: rest }).run(),
      );
    },
    /** The user's messages, newest first, without their text. */
    async list(userId: string, limit: number): Promise<OutboxEntry[]> {
      return db.query((c) =>
        c.orm
          .select(entryColumns)
          .from(mailOutbox)
          .where(eq(mailOutbox.userId, userId))
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.name))
          .limit(limit)
          .all(),
      );
    },
    /** One message of the user, or undefined when it is someone else's or does not exist. */
    async get(userId: string, name: string): Promise<MailOutboxRow | undefined> {
      return db.query((c) =>
        c.orm
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.name, name)))
          .get(),
      );
    },
  };
}
export type MailRepo = ReturnType<typeof createMailSqliteRepo>;
