-- Pages captured by the user's browser (the extension sends the rendered HTML with the link).
-- sources.capture says where a source's content came from: 'browser' (extracted from that HTML) or
-- 'server' (fetched by the server, or carried by an import file).
ALTER TABLE sources ADD COLUMN capture text NOT NULL DEFAULT 'server';
-- The HTML waits here, between the save that received it and the ingestion job that extracts it,
-- so it never sits in the source's content or in a job's payload. The job deletes it when done.
CREATE TABLE source_captures (
  source_id text PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
  html text NOT NULL,
  created_at text NOT NULL
);
