-- Jobs: the durable queue (times are epoch milliseconds, as on SQLite). Claimed with FOR UPDATE SKIP LOCKED.
CREATE TABLE jobs (
  id text PRIMARY KEY,
  type text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer,
  run_at bigint NOT NULL,
  lease_until bigint,
  locked_by text,
  last_error text,
  idempotency_key text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  finished_at bigint
);
CREATE INDEX jobs_claim ON jobs (status, run_at);
CREATE INDEX jobs_lease ON jobs (status, lease_until) WHERE status = 'running';
CREATE INDEX jobs_finished ON jobs (status, finished_at) WHERE finished_at IS NOT NULL;
CREATE UNIQUE INDEX jobs_idempotency ON jobs (type, idempotency_key) WHERE idempotency_key IS NOT NULL;
