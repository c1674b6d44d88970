-- Import and export: the original saved time, tags and archived state on sources, and import jobs.
-- saved_at is the time the person first saved the link (kept from an import); created_at is when this
-- library made the row. Older rows take created_at.
ALTER TABLE sources ADD COLUMN saved_at TEXT;
UPDATE sources SET saved_at = created_at WHERE saved_at IS NULL;
-- JSON array of strings: labels and tags with no notebook equivalent.
ALTER TABLE sources ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE sources ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
CREATE INDEX sources_user_saved ON sources(user_id, saved_at, id);
-- The import that created the source: its fetch progress is counted per import.
ALTER TABLE sources ADD COLUMN import_id TEXT;
CREATE INDEX sources_import ON sources(import_id, status) WHERE import_id IS NOT NULL;

-- One uploaded file being imported. The file itself is kept until the import finishes so a restart
-- resumes from `position` (the index of the next item) instead of starting over.
CREATE TABLE imports (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  format TEXT NOT NULL,
  filename TEXT,
  file_sha256 TEXT NOT NULL,
  file BLOB,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  position INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL DEFAULT 0,
  already_saved INTEGER NOT NULL DEFAULT 0,
  invalid INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  notebooks_created INTEGER NOT NULL DEFAULT 0,
  feeds_watched INTEGER NOT NULL DEFAULT 0,
  -- OPML: JSON object feed URL -> id of the workflow made to watch it (made when the file is accepted).
  feed_workflows TEXT NOT NULL DEFAULT '{}',
  -- JSON array of {item, line, url, reason}, capped (see docs/import-export.md).
  problems TEXT NOT NULL DEFAULT '[]',
  problems_total INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX imports_user ON imports(user_id, id);
