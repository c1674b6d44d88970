// Applies db/migrations in order, once each, inside a transaction; safe to run at every start.
import type { Database } from "bun:sqlite";
import { migrations } from "../../db/migrations/index.ts";

export function migrate(sqlite: Database): string[] {
  sqlite.exec(`CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    sqlite
      .query<{ name: string }, []>("SELECT name FROM _migrations")
      .all()
      .map((r) => r.name),
  );
  const done: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.name)) continue;
    // A slot reserved for a feature that has not landed yet holds only comments: skip, do not record.
    if (m.sql.replace(/--[^\n]*/g, "").trim() === "") continue;
    // IMMEDIATE so two processes starting together (server + CLI) do not both apply a migration.
    sqlite
      .transaction(() => {
        const again = sqlite.query("SELECT 1 FROM _migrations WHERE name = ?").get(m.name);
        if (again) return;
        sqlite.exec(m.sql);
        sqlite.query("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)").run(m.name, new Date().toISOString());
        done.push(m.name);
      })
      .immediate();
  }
  return done;
}
