-- BM25's corpus statistics per owner (N = chunks, avgdl = tokens / chunks) without counting the
-- owner's chunks on every search (a scan of ~100,000 index entries: a third of a text search's time at
-- that size). Kept as append-only deltas written by statement-level triggers, so concurrent writers
-- never update one shared row (which would serialise every writer of an owner, and fail them under
-- SERIALIZABLE); a search sums the owner's deltas, and folds them into one row when they pile up.
CREATE TABLE chunk_stats (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL,
  chunks bigint NOT NULL,
  tokens bigint NOT NULL
);
CREATE INDEX chunk_stats_user ON chunk_stats (user_id) INCLUDE (chunks, tokens);

CREATE FUNCTION chunk_stats_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_stats (user_id, chunks, tokens)
    SELECT user_id, count(*), coalesce(sum(doc_len), 0) FROM added_chunks GROUP BY user_id;
  RETURN NULL;
END $$;

CREATE FUNCTION chunk_stats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_stats (user_id, chunks, tokens)
    SELECT user_id, -count(*), -coalesce(sum(doc_len), 0) FROM removed_chunks GROUP BY user_id;
  RETURN NULL;
END $$;

CREATE FUNCTION chunk_stats_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_stats (user_id, chunks, tokens)
    SELECT user_id, sum(n), sum(t) FROM (
      SELECT user_id, 1 n, doc_len t FROM added_chunks
      UNION ALL SELECT user_id, -1, -doc_len FROM removed_chunks
    ) d GROUP BY user_id HAVING sum(n) <> 0 OR sum(t) <> 0;
  RETURN NULL;
END $$;

CREATE TRIGGER chunks_stats_ai AFTER INSERT ON chunks REFERENCING NEW TABLE AS added_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunk_stats_added();
CREATE TRIGGER chunks_stats_ad AFTER DELETE ON chunks REFERENCING OLD TABLE AS removed_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunk_stats_removed();
CREATE TRIGGER chunks_stats_au AFTER UPDATE ON chunks REFERENCING OLD TABLE AS removed_chunks NEW TABLE AS added_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunk_stats_changed();

-- The statistics of the chunks that exist already.
INSERT INTO chunk_stats (user_id, chunks, tokens)
  SELECT user_id, count(*), coalesce(sum(doc_len), 0) FROM chunks GROUP BY user_id;
