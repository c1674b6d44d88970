// SQL for the mail outbox on PostgreSQL: the twin of repo.ts, same methods and results.
import { and, desc, eq, getTableColumns } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import { mailOutbox } from "../../db/pg/schema/index.ts";
import type { MailRepo } from "./repo.ts";

export function createMailPgRepo(db: PgDb): MailRepo {
  const { message: _message, ...entryColumns } = getTableColumns(mailOutbox);
  return {
    async put(row) {
      const { name: _name, ...rest } = row;
      // One statement: two processes retrying the same step leave one row, never a unique violation.
      await db.exec((c) =>
        c.orm.insert(mailOutbox).values(row).onConflictDoUpdate({ target: mailOutbox.name, set: rest }),
      );
    },
    async list(userId, limit) {
      return db.query((c) =>
        c.orm
          .select(entryColumns)
          .from(mailOutbox)
          .where(eq(mailOutbox.userId, userId))
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.name))
          .limit(limit),
      );
    },
    async get(userId, name) {
      const rows = await db.query((c) =>
        c.orm
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.name, name))),
      );
      return rows[0];
    },
  };
}
