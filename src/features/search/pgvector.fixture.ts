// A real pgvector for tests: PGlite (PostgreSQL compiled to WebAssembly, with pgvector as an extension)
// served over the wire protocol on a loopback port by pglite-socket, so our own client (porsager
// `postgres`, migrations, pools) talks to it as to a server. PGlite is one backend session: every
// connection shares it (startup parameters such as search_path are ignored, so everything lives in
// `public`), statements of different connections are queued one at a time, and NOTIFY is not
// delivered to other connections. Enough for the SQL of the pgvector path, not for concurrency.
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import postgres from "postgres";
import { pgAsDb } from "../../db/pg/as-db.ts";
import { openPostgres } from "../../db/pg/client.ts";
import type { PostgresDb } from "../../db/port.ts";

export interface PgliteServer {
  url: string;
  /** A pool on a freshly emptied `public` schema, migrated with the real migrations. */
  fresh(): Promise<PostgresDb>;
  stop(): Promise<void>;
}

export async function startPglite(): Promise<PgliteServer> {
  const pglite = await PGlite.create({ extensions: { vector } });
  // Several connections: a pool, db.session()'s own connection and the shared LISTEN connection.
  const server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0, maxConnections: 32 });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  const opened: PostgresDb[] = [];
  return {
    url,
    async fresh() {
      for (const d of opened.splice(0)) await d.end();
      // The extension lives in public too, so each test starts without it, as a new database would.
      await pglite.exec("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;");
      const db = pgAsDb(openPostgres(url, { schema: "public", max: 2, idleTimeout: 2 }));
      opened.push(db);
      await db.pg.ready;
      return db;
    },
    async stop() {
      for (const d of opened.splice(0)) await Promise.race([d.end(), Bun.sleep(1000)]);
      await server.stop();
      await pglite.close();
    },
  };
}

/** A plain client on the server (for EXPLAIN and catalog checks). */
export function pgliteClient(url: string): postgres.Sql {
  return postgres(url, { max: 1, fetch_types: false, onnotice: () => {} });
}
