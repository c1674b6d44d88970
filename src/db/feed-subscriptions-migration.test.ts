// The feed subscriptions migration (SQLite 0019, PostgreSQL 0014) on a database that already has watches:
// two workflows' watches of one feed merge into the oldest with every seen entry, others stay as they were,
// nothing cascades away, and afterwards a watch may have no workflow but a user has one watch per feed.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { migrations } from "../../db/migrations/index.ts";
import { pgMigrations } from "../../db/migrations/pg/index.ts";

const AT = "2024-01-01T00:00:00.000Z";
const SEED = [
  `INSERT INTO users (id, email, name, password_hash, plan_id, created_at, updated_at) VALUES ('usr_1', 'a@example.com', 'A', 'x', 'free', '${AT}', '${AT}')`,
  ...["wf_1", "wf_2"].map(
    (id) =>
      `INSERT INTO workflows (id, user_id, name, active, trigger_type, trigger_json, actions_json, signing_secret, created_at, updated_at) VALUES ('${id}', 'usr_1', 'w', TRUE, 'webhook', '{}', '[]', 's', '${AT}', '${AT}')`,
  ),
  ...[
    ["feed_1", "wf_1", "https://a.example/feed"],
    ["feed_2", "wf_2", "https://a.example/feed"],
    ["feed_3", "wf_2", "https://b.example/feed"],
  ].map(
    ([id, wf, url]) =>
      `INSERT INTO feed_watches (id, user_id, workflow_id, feed_url, schedule, next_poll_at, created_at, updated_at) VALUES ('${id}', 'usr_1', '${wf}', '${url}', '*/30 * * * *', 0, '${AT}', '${AT}')`,
  ),
  ...[
    ["feed_1", "g:1"],
    ["feed_2", "g:1"],
    ["feed_2", "g:2"],
    ["feed_3", "g:9"],
  ].map(([w, k]) => `INSERT INTO feed_entries (watch_id, key, seen_at) VALUES ('${w}', '${k}', '${AT}')`),
];
const EXPECTED_ENTRIES = [
  { watch_id: "feed_1", key: "g:1" },
  { watch_id: "feed_1", key: "g:2" },
  { watch_id: "feed_3", key: "g:9" },
];

describe("feed subscriptions migration", () => {
  test("SQLite: duplicates merge with their entries; workflow_id may be null; one watch per user and feed", () => {
    const db = new Database(":memory:");
    db.exec("PRAGMA foreign_keys = ON");
    const at = migrations.findIndex((m) => m.name === "0019_feed_subscriptions");
    for (const m of migrations.slice(0, at)) db.exec(m.sql);
    for (const s of SEED) db.exec(s.replace(/TRUE/g, "1"));
    db.exec(migrations[at]!.sql);
    expect(db.query("SELECT id, workflow_id, paused FROM feed_watches ORDER BY id").all()).toEqual([
      { id: "feed_1", workflow_id: "wf_1", paused: 0 },
      { id: "feed_3", workflow_id: "wf_2", paused: 0 },
    ]);
    expect(db.query("SELECT watch_id, key FROM feed_entries ORDER BY watch_id, key").all()).toEqual(EXPECTED_ENTRIES);
    expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
    db.exec(
      `INSERT INTO feed_watches (id, user_id, feed_url, schedule, next_poll_at, created_at, updated_at) VALUES ('feed_4', 'usr_1', 'https://c.example/feed', 'x', 0, '${AT}', '${AT}')`,
    );
    expect(() =>
      db.exec(
        `INSERT INTO feed_watches (id, user_id, feed_url, schedule, next_poll_at, created_at, updated_at) VALUES ('feed_5', 'usr_1', 'https://c.example/feed', 'x', 0, '${AT}', '${AT}')`,
      ),
    ).toThrow(/UNIQUE/);
    // The entries still belong to the watches: deleting one takes its entries.
    db.exec("DELETE FROM feed_watches WHERE id = 'feed_1'");
    expect(db.query("SELECT count(*) AS n FROM feed_entries").get()).toEqual({ n: 1 });
  });

  test("PostgreSQL: the same", async () => {
    const pg = await PGlite.create();
    const at = pgMigrations.findIndex((m) => m.name === "0014_feed_subscriptions");
    for (const m of pgMigrations.slice(0, at)) await pg.exec(m.sql);
    for (const s of SEED) await pg.exec(s);
    await pg.exec(pgMigrations[at]!.sql);
    expect((await pg.query("SELECT id, workflow_id, paused FROM feed_watches ORDER BY id")).rows).toEqual([
      { id: "feed_1", workflow_id: "wf_1", paused: false },
      { id: "feed_3", workflow_id: "wf_2", paused: false },
    ]);
    expect((await pg.query("SELECT watch_id, key FROM feed_entries ORDER BY watch_id, key")).rows).toEqual(
      EXPECTED_ENTRIES,
    );
    await pg.exec(
      `INSERT INTO feed_watches (id, user_id, feed_url, schedule, next_poll_at, created_at, updated_at) VALUES ('feed_4', 'usr_1', 'https://c.example/feed', 'x', 0, '${AT}', '${AT}')`,
    );
    await expect(
      pg.exec(
        `INSERT INTO feed_watches (id, user_id, feed_url, schedule, next_poll_at, created_at, updated_at) VALUES ('feed_5', 'usr_1', 'https://c.example/feed', 'x', 0, '${AT}', '${AT}')`,
      ),
    ).rejects.toThrow(/feed_watches_user_url/);
    await pg.close();
  });
});
