// OAuth pending authorisations on PostgreSQL (oauth_pending), read back with their client's row.
import { eq } from "drizzle-orm";
import type { PgDb } from "../../db/pg/port.ts";
import type { Db } from "../../db/port.ts";
import { oauthClients } from "../../db/schema/index.ts";
import type { PendingAuthorization, PendingStore } from "./pending.ts";

interface PendingRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  resource: string;
  state: string | null;
  expires_at: number;
}

const SWEEP_EVERY_MS = 60_000;

async function withClient(db: Db, row: PendingRow | undefined): Promise<PendingAuthorization | undefined> {
  if (!row) return undefined;
  const client = await db.shared.select().from(oauthClients).where(eq(oauthClients.id, row.client_id)).get();
  // The client was deleted meanwhile (the row cascades away with it): the request is gone too.
  if (!client) return undefined;
  return {
    id: row.id,
    client,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    scope: row.scope,
    resource: row.resource,
    state: row.state ?? undefined,
    expiresAt: row.expires_at,
  };
}

/** `shared` is the same database as `db`, for the client row (whose repository is written once). */
export function createPendingPgRepo(db: PgDb, shared: Db, maxPending: number): PendingStore {
  let lastSweep = 0;
  return {
    async put(p, now) {
      if (now - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = now;
        // Expired requests, then the oldest beyond the cap when someone floods the endpoint.
        await db.exec(async (c) => {
          await c.sql`DELETE FROM oauth_pending WHERE expires_at <= ${now}::bigint`;
          await c.sql`DELETE FROM oauth_pending WHERE id IN (
            SELECT id FROM oauth_pending ORDER BY created_at DESC OFFSET ${maxPending}::integer)`;
        });
      }
      await db.exec(
        (c) => c.sql`
          INSERT INTO oauth_pending (id, client_id, redirect_uri, code_challenge, scope, resource, state, created_at, expires_at)
          VALUES (${p.id}, ${p.client.id}, ${p.redirectUri}, ${p.codeChallenge}, ${p.scope}, ${p.resource},
            ${p.state ?? null}, ${now}::bigint, ${p.expiresAt}::bigint)`,
      );
    },
    async get(id, now) {
      return db.query(async (c) => {
        const [row] = await c.sql<PendingRow[]>`
          SELECT * FROM oauth_pending WHERE id = ${id} AND expires_at > ${now}::bigint`;
        return withClient(shared, row);
      });
    },
    async take(id, now) {
      return db.exec(async (c) => {
        // One DELETE … RETURNING: two concurrent answers cannot both take the request.
        const [row] = await c.sql<PendingRow[]>`DELETE FROM oauth_pending WHERE id = ${id} RETURNING *`;
        return row && row.expires_at > now ? withClient(shared, row) : undefined;
      });
    },
  };
}
