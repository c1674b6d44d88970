-- Feeds one subscribes to: one watch per user and feed URL, whichever way it was made (the Feeds page,
-- an OPML import, a workflow's watch_feed step). workflow_id becomes the workflow that made and governs
-- the watch, or NULL for a subscription of its own; paused stops its polls whoever owns it.
-- Watches of one user and URL made by several workflows merge into the oldest, keeping every entry seen.
-- SQLite cannot drop NOT NULL or a table constraint in place: both tables are rebuilt, the entries first,
-- so dropping the old watches cascades to nothing.
CREATE TABLE feed_watches_next (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  workflow_id TEXT REFERENCES workflows(id) ON DELETE CASCADE,
  feed_url TEXT NOT NULL,
  fetch_url TEXT,
  title TEXT,
  schedule TEXT NOT NULL,
  notebook_ids TEXT NOT NULL DEFAULT '[]',
  backfill INTEGER NOT NULL DEFAULT 0,
  depth INTEGER NOT NULL DEFAULT 0,
  etag TEXT,
  last_modified TEXT,
  body_hash TEXT,
  baseline_at TEXT,
  last_polled_at TEXT,
  last_success_at TEXT,
  last_status INTEGER,
  last_error TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  next_poll_at INTEGER NOT NULL,
  entries_seen INTEGER NOT NULL DEFAULT 0,
  sources_created INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  paused INTEGER NOT NULL DEFAULT 0,
  UNIQUE (user_id, feed_url)
);
INSERT INTO feed_watches_next (id, user_id, workflow_id, feed_url, fetch_url, title, schedule, notebook_ids, backfill,
  depth, etag, last_modified, body_hash, baseline_at, last_polled_at, last_success_at, last_status, last_error,
  consecutive_failures, next_poll_at, entries_seen, sources_created, created_at, updated_at)
SELECT id, user_id, workflow_id, feed_url, fetch_url, title, schedule, notebook_ids, backfill,
  depth, etag, last_modified, body_hash, baseline_at, last_polled_at, last_success_at, last_status, last_error,
  consecutive_failures, next_poll_at, entries_seen, sources_created, created_at, updated_at
FROM feed_watches w
WHERE w.id = (SELECT MIN(d.id) FROM feed_watches d WHERE d.user_id = w.user_id AND d.feed_url = w.feed_url);

CREATE TABLE feed_entries_next (
  watch_id TEXT NOT NULL REFERENCES feed_watches_next(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY (watch_id, key)
) WITHOUT ROWID;
INSERT OR IGNORE INTO feed_entries_next (watch_id, key, source_id, seen_at)
SELECT (SELECT MIN(d.id) FROM feed_watches d WHERE d.user_id = w.user_id AND d.feed_url = w.feed_url),
  e.key, e.source_id, e.seen_at
FROM feed_entries e JOIN feed_watches w ON w.id = e.watch_id
ORDER BY e.watch_id;

DROP TABLE feed_entries;
DROP TABLE feed_watches;
ALTER TABLE feed_watches_next RENAME TO feed_watches;
ALTER TABLE feed_entries_next RENAME TO feed_entries;
CREATE INDEX feed_watches_user ON feed_watches(user_id, id);
CREATE INDEX feed_watches_due ON feed_watches(next_poll_at);
CREATE INDEX feed_watches_workflow ON feed_watches(workflow_id) WHERE workflow_id IS NOT NULL;
CREATE INDEX feed_entries_source ON feed_entries(source_id) WHERE source_id IS NOT NULL;
