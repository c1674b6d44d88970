-- Feeds: watches created by watch_feed actions (one per workflow and feed URL) and the entries each has seen.
CREATE TABLE feed_watches (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- Deleting the workflow deletes its watches; deactivating it stops their polls (see the due index query).
  workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  -- The URL as the action gave it; fetch_url is what is really polled (a video-channel feed, an advertised feed).
  feed_url TEXT NOT NULL,
  fetch_url TEXT,
  title TEXT,
  schedule TEXT NOT NULL,
  -- JSON array of notebook ids every new entry's source is added to.
  notebook_ids TEXT NOT NULL DEFAULT '[]',
  backfill INTEGER NOT NULL DEFAULT 0,
  -- Causation depth of sources this watch creates (the loop guard of event-triggered workflows).
  depth INTEGER NOT NULL DEFAULT 0,
  -- Conditional GET validators of fetch_url, and a hash of the last body for servers that send neither.
  etag TEXT,
  last_modified TEXT,
  body_hash TEXT,
  -- Set by the first successful poll, which records the existing entries as a baseline.
  baseline_at TEXT,
  last_polled_at TEXT,
  last_success_at TEXT,
  last_status INTEGER,
  last_error TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  -- ms since the epoch: compared by the scheduler every minute.
  next_poll_at INTEGER NOT NULL,
  entries_seen INTEGER NOT NULL DEFAULT 0,
  sources_created INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workflow_id, feed_url)
);
CREATE INDEX feed_watches_user ON feed_watches(user_id, id);
CREATE INDEX feed_watches_due ON feed_watches(next_poll_at);

-- Identities of entries a watch has seen: g:<guid/id>, l:<normalised link>, h:<content hash> (only when
-- an entry has neither), y:<video id>. An entry whose any identity is here is not new.
CREATE TABLE feed_entries (
  watch_id TEXT NOT NULL REFERENCES feed_watches(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
  seen_at TEXT NOT NULL,
  PRIMARY KEY (watch_id, key)
) WITHOUT ROWID;
CREATE INDEX feed_entries_source ON feed_entries(source_id) WHERE source_id IS NOT NULL;
