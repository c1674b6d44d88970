-- The mail outbox (twin of SQLite 0012): messages kept, not sent, while no SMTP server is configured.
CREATE TABLE mail_outbox (
  name text PRIMARY KEY,
  user_id text REFERENCES users(id) ON DELETE CASCADE,
  message_id text NOT NULL,
  recipients text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  size integer NOT NULL,
  created_at text NOT NULL
);
CREATE INDEX mail_outbox_user ON mail_outbox (user_id, created_at);
