-- Feeds across processes (PostgreSQL only; SQLite is one process and keeps this in memory). Times are epoch
-- milliseconds of the database's clock, the one clock every process shares.
-- When the next request to each host may start (FEED_HOST_SPACING_MS apart, whichever process sends it).
CREATE TABLE feed_host_slots (
  host text PRIMARY KEY,
  next_free bigint NOT NULL
);
-- The poll of a watch under way somewhere: one process at a time; a crashed process's lease runs out.
-- No foreign key: a watch deleted mid-poll must not make taking or ending the lease fail.
CREATE TABLE feed_polls (
  watch_id text PRIMARY KEY,
  owner text NOT NULL,
  until bigint NOT NULL
);
