// Form replay guards on PostgreSQL (form_guards): a claim is one conditional upsert, so two processes
// receiving the same form at once never both win it.
import type { PgDb } from "../db/pg/port.ts";
import type { FormGuard } from "./form-guard.ts";

const SWEEP_EVERY_MS = 60_000;

export function createFormGuardPgRepo(db: PgDb, kind: string): FormGuard {
  let lastSweep = 0;
  return {
    async claim(userId, formId, expiresAt, now) {
      if (now - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = now;
        await db.exec((c) => c.sql`DELETE FROM form_guards WHERE expires_at <= ${now}::bigint`);
      }
      // An expired claim is taken over; a live one leaves the row untouched and returns nothing.
      const rows = await db.exec(
        (c) => c.sql`
          INSERT INTO form_guards AS g (kind, user_id, form_id, expires_at)
          VALUES (${kind}, ${userId}, ${formId}, ${expiresAt}::bigint)
          ON CONFLICT (kind, user_id, form_id) DO UPDATE SET expires_at = excluded.expires_at
          WHERE g.expires_at <= ${now}::bigint
          RETURNING 1 AS claimed`,
      );
      return rows.length > 0;
    },
    async release(userId, formId) {
      await db.exec(
        (c) => c.sql`DELETE FROM form_guards WHERE kind = ${kind} AND user_id = ${userId} AND form_id = ${formId}`,
      );
    },
  };
}
