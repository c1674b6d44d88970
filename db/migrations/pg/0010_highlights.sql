-- Highlights: a quoted passage of a source's article text (W3C TextQuoteSelector: exact, prefix,
-- suffix) with a position hint (character offsets in the article text), a colour and a note.
-- orphaned: after a refetch the quote was no longer in the text; the highlight is kept and flagged.
CREATE TABLE highlights (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source_id text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  exact text NOT NULL,
  prefix text NOT NULL DEFAULT '',
  suffix text NOT NULL DEFAULT '',
  start_pos integer NOT NULL,
  end_pos integer NOT NULL,
  color text NOT NULL DEFAULT 'yellow',
  note text,
  orphaned boolean NOT NULL DEFAULT false,
  created_at text NOT NULL,
  updated_at text NOT NULL
);
-- Listing newest first (ids are time-sortable) and a source's highlights.
CREATE INDEX highlights_user_id ON highlights (user_id, id);
CREATE INDEX highlights_source ON highlights (source_id, start_pos);

-- A highlight leaving the library leaves the search index in the same transaction (also when its
-- source is deleted: the cascade fires this trigger). chunks_of_deleted_doc is 0006_search's.
CREATE TRIGGER highlights_chunks_ad AFTER DELETE ON highlights FOR EACH ROW EXECUTE FUNCTION chunks_of_deleted_doc('highlight');
