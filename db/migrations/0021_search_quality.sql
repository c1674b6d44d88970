-- Search quality self-tests: a sample of the user's sources turned into known-item queries, run in
-- text, vector and hybrid mode by a background job; the report holds recall@1/@5 per mode and kind.
CREATE TABLE search_quality_runs (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  -- Queries run so far (each query once per mode) out of total; total is known once the sample is drawn.
  progress INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL DEFAULT 0,
  -- Sources asked for, and the seed of the sample (the same seed and library draw the same sample).
  sample INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  -- The model vector search used (the active embedding model), known when the run starts.
  embedder TEXT,
  -- JSON: the report (see docs/quality.md, "Measuring your own library"); null until done.
  report TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  started_at TEXT,
  updated_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX search_quality_runs_user ON search_quality_runs(user_id, id);
-- One run at a time per user: a second start finds the first.
CREATE UNIQUE INDEX search_quality_runs_active ON search_quality_runs(user_id) WHERE status IN ('queued', 'running');
