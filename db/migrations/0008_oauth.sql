-- OAuth 2.1 for MCP clients: dynamically registered (public) clients, grants (one per consent,
-- the family of all tokens it issues), single-use authorization codes and opaque tokens.
-- Codes and tokens are stored as SHA-256 hashes only.
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  client_uri TEXT,
  software_id TEXT,
  software_version TEXT,
  scope TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX oauth_clients_created ON oauth_clients(created_at);

CREATE TABLE oauth_grants (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT,
  revoked_reason TEXT
);
CREATE INDEX oauth_grants_user ON oauth_grants(user_id, client_id);
CREATE INDEX oauth_grants_client ON oauth_grants(client_id);

CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL,
  resource TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  grant_id TEXT REFERENCES oauth_grants(id) ON DELETE CASCADE
);
CREATE INDEX oauth_codes_expires ON oauth_codes(expires_at);
CREATE INDEX oauth_codes_client ON oauth_codes(client_id);

CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  grant_id TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  rotated_at TEXT,
  revoked_at TEXT
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id, expires_at);
