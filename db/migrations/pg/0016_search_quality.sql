-- Search quality self-tests: a sample of the user's sources turned into known-item queries, run in
-- text, vector and hybrid mode by a background job; the report holds recall@1/@5 per mode and kind.
CREATE TABLE search_quality_runs (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  -- Queries run so far (each query once per mode) out of total; total is known once the sample is drawn.
  progress integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  -- Sources asked for, and the seed of the sample (the same seed and library draw the same sample).
  sample integer NOT NULL,
  seed integer NOT NULL,
  -- The model vector search used (the active embedding model), known when the run starts.
  embedder text,
  -- JSON: the report (see docs/quality.md, "Measuring your own library"); null until done.
  report text,
  error text,
  created_at text NOT NULL,
  started_at text,
  updated_at text NOT NULL,
  finished_at text
);
CREATE INDEX search_quality_runs_user ON search_quality_runs(user_id, id);
-- One run at a time per user: a second start finds the first.
CREATE UNIQUE INDEX search_quality_runs_active ON search_quality_runs(user_id) WHERE status IN ('queued', 'running');
