-- Library: sources, notebooks, notes, their links, and the internal events outbox.
CREATE TABLE sources (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  normalized_url TEXT NOT NULL,
  title TEXT,
  title_from_user INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'pending',
  error TEXT,
  error_detail TEXT,
  final_url TEXT,
  content_type TEXT,
  byline TEXT,
  site_name TEXT,
  language TEXT,
  published_at TEXT,
  excerpt TEXT,
  word_count INTEGER,
  content TEXT,
  generate_quick_podcast INTEGER NOT NULL DEFAULT 0,
  podcast_format TEXT,
  fetched_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (user_id, normalized_url)
);
CREATE INDEX sources_user_id ON sources(user_id, id);
CREATE INDEX sources_user_status ON sources(user_id, status, id);

CREATE TABLE notebooks (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX notebooks_user_id ON notebooks(user_id, id);

CREATE TABLE notebook_sources (
  notebook_id TEXT NOT NULL REFERENCES notebooks(id) ON DELETE CASCADE,
  source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  added_at TEXT NOT NULL,
  PRIMARY KEY (notebook_id, source_id)
);
CREATE INDEX notebook_sources_source ON notebook_sources(source_id);

CREATE TABLE notes (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  notebook_id TEXT REFERENCES notebooks(id) ON DELETE SET NULL,
  title TEXT,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX notes_user_id ON notes(user_id, id);
CREATE INDEX notes_notebook ON notes(notebook_id);

CREATE TABLE note_sources (
  note_id TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  PRIMARY KEY (note_id, source_id)
);
CREATE INDEX note_sources_source ON note_sources(source_id);

-- The outbox: written in the same transaction as the change it describes; seq orders dispatch.
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL,
  type TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  data TEXT NOT NULL,
  previous TEXT,
  depth INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_user ON events(user_id, seq);
