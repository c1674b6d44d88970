-- The mail outbox: messages kept, not sent, while no SMTP server is configured (SMTP_URL unset).
-- A table rather than .eml files in DATA_DIR, so every process of a deployment sees the same outbox.
CREATE TABLE mail_outbox (
  -- A file-like name from the Message-ID ("run_…_notify.eml"): a retried step rewrites its row.
  name TEXT PRIMARY KEY,
  -- Whose Settings → Outbox shows it (the owner of the run that sent it); NULL: nobody's.
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  message_id TEXT NOT NULL,
  -- The recipients and subject as the sender gave them (before header encoding), for the list.
  recipients TEXT NOT NULL,
  subject TEXT NOT NULL,
  -- The whole RFC 5322 message with CRLF line ends, as it would have gone to the server.
  message TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX mail_outbox_user ON mail_outbox(user_id, created_at);
