-- State that SQLite keeps in the memory of its one process, shared here by every process of a deployment.
-- Times are epoch milliseconds of the application clock.

-- Fixed-window rate limit counters, one row per bucket ("<limiter>:<key>"). UNLOGGED: a crash only
-- forgets the counts of the current windows, and writes skip the WAL (one upsert per API request).
CREATE UNLOGGED TABLE rate_limits (
  bucket text PRIMARY KEY,
  window_start bigint NOT NULL,
  expires_at bigint NOT NULL,
  count integer NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits (expires_at);

-- OAuth authorisation requests waiting for the user to sign in and consent (possibly on another process).
CREATE TABLE oauth_pending (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  scope text NOT NULL,
  resource text NOT NULL,
  state text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX oauth_pending_expires ON oauth_pending (expires_at);
CREATE INDEX oauth_pending_client ON oauth_pending (client_id);

-- Form ids already answered (a resubmitted form must not act twice), per kind of form and user.
CREATE TABLE form_guards (
  kind text NOT NULL,
  user_id text NOT NULL,
  form_id text NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (kind, user_id, form_id)
);
CREATE INDEX form_guards_expires ON form_guards (expires_at);
