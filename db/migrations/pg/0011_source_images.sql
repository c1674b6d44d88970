-- The archived copy's images: each image of a source kept in the blob store at ingestion (re-encoded,
-- metadata stripped), and the card thumbnail. The Markdown refers to them by name
-- (/api/v1/sources/{id}/media/{name}); the name is a hash of the stored bytes, so an address always
-- means the same bytes. blob_key is where the bytes are; url is where they were fetched from.
CREATE TABLE source_images (
  source_id text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  name text NOT NULL,
  blob_key text NOT NULL,
  content_type text NOT NULL,
  bytes integer NOT NULL,
  width integer,
  height integer,
  url text NOT NULL,
  created_at text NOT NULL,
  PRIMARY KEY (source_id, name)
);
