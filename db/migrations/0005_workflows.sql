-- Workflows: webhook tokens, definitions, incoming deliveries, runs and their steps, the event dispatch cursor.
CREATE TABLE webhook_tokens (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- SHA-256 of the token; the token itself is shown once and never stored.
  token_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  created_at TEXT NOT NULL,
  regenerated_at TEXT
);
CREATE INDEX webhook_tokens_user ON webhook_tokens(user_id, id);

CREATE TABLE workflows (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  trigger_type TEXT NOT NULL CHECK (trigger_type IN ('webhook', 'event')),
  -- A token in use cannot be deleted (the API answers 409), so this never dangles.
  token_id TEXT REFERENCES webhook_tokens(id),
  event_type TEXT,
  -- JSON: the trigger object and the action list exactly as saved.
  trigger_json TEXT NOT NULL,
  actions_json TEXT NOT NULL,
  -- whsec_…: signs outgoing requests of http_request actions that ask for it.
  signing_secret TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX workflows_user ON workflows(user_id, id);
CREATE INDEX workflows_token ON workflows(token_id, active) WHERE token_id IS NOT NULL;
CREATE INDEX workflows_event ON workflows(user_id, event_type, active) WHERE event_type IS NOT NULL;

-- One row per accepted webhook POST: the dedupe key (webhook-id / Idempotency-Key) and the runs it started.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  token_id TEXT NOT NULL REFERENCES webhook_tokens(id) ON DELETE CASCADE,
  dedupe_key TEXT,
  run_ids TEXT NOT NULL,
  received_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX webhook_deliveries_dedupe ON webhook_deliveries(token_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX webhook_deliveries_received ON webhook_deliveries(received_at);

CREATE TABLE workflow_runs (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  -- webhook | event | workflow (run_workflow) | replay
  trigger_type TEXT NOT NULL,
  -- JSON: the body, the event or the parent's input.
  trigger_json TEXT NOT NULL,
  -- JSON: delivery_id, event_id, parent_run_id, replay_of…
  trigger_meta TEXT NOT NULL DEFAULT '{}',
  -- The actions as they were when the run started, so an edit never shifts a running cursor.
  actions_json TEXT NOT NULL,
  depth INTEGER NOT NULL DEFAULT 0,
  -- JSON array of the workflow ids that led here through run_workflow (cycle check).
  chain TEXT NOT NULL DEFAULT '[]',
  -- Path of the next step to run (actions[1].then[0]); NULL once nothing is left.
  cursor TEXT,
  -- How many steps have been started; names the next step job so it is enqueued once.
  step_count INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX workflow_runs_workflow ON workflow_runs(workflow_id, id);
CREATE INDEX workflow_runs_finished ON workflow_runs(finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE workflow_steps (
  id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  path TEXT NOT NULL,
  action_id TEXT NOT NULL,
  type TEXT NOT NULL,
  -- running | waiting (a retry is scheduled) | succeeded | failed
  status TEXT NOT NULL,
  -- attempts: starts, including one cut short by a crash; failures: attempts that failed.
  attempts INTEGER NOT NULL DEFAULT 0,
  failures INTEGER NOT NULL DEFAULT 0,
  input TEXT,
  output TEXT,
  error TEXT,
  log TEXT NOT NULL DEFAULT '[]',
  -- Copied from an earlier run by a replay (the step did not run again).
  copied_from TEXT,
  next_attempt_at TEXT,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  UNIQUE (run_id, path)
);

-- The events outbox position up to which triggers were dispatched; moved in the same transaction as the runs.
CREATE TABLE workflow_dispatch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL
);
-- Start after the events that existed before workflows did: they never fire a trigger.
INSERT INTO workflow_dispatch (id, last_seq) VALUES (1, (SELECT coalesce(max(seq), 0) FROM events));
