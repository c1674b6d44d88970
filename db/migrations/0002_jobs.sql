-- Jobs: the durable queue. Times are INTEGER milliseconds since the epoch so claiming compares numbers.
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  -- NULL: the handler's own limit (or the runner default) applies.
  max_attempts INTEGER,
  run_at INTEGER NOT NULL,
  lease_until INTEGER,
  locked_by TEXT,
  last_error TEXT,
  idempotency_key TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER
);
-- Claiming scans queued jobs by due time and running jobs by lease expiry.
CREATE INDEX jobs_claim ON jobs(status, run_at);
CREATE INDEX jobs_lease ON jobs(status, lease_until) WHERE status = 'running';
CREATE INDEX jobs_finished ON jobs(status, finished_at) WHERE finished_at IS NOT NULL;
CREATE UNIQUE INDEX jobs_idempotency ON jobs(type, idempotency_key) WHERE idempotency_key IS NOT NULL;
