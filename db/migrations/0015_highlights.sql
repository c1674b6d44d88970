-- Highlights: a quoted passage of a source's article text (W3C TextQuoteSelector: exact, prefix,
-- suffix) with a position hint (character offsets in the article text), a colour and a note.
-- orphaned: after a refetch the quote was no longer in the text; the highlight is kept and flagged.
CREATE TABLE highlights (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  exact TEXT NOT NULL,
  prefix TEXT NOT NULL DEFAULT '',
  suffix TEXT NOT NULL DEFAULT '',
  start_pos INTEGER NOT NULL,
  end_pos INTEGER NOT NULL,
  color TEXT NOT NULL DEFAULT 'yellow',
  note TEXT,
  orphaned INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- Listing newest first (ids are time-sortable) and a source's highlights.
CREATE INDEX highlights_user_id ON highlights(user_id, id);
CREATE INDEX highlights_source ON highlights(source_id, start_pos);

-- A highlight leaving the library leaves the search index in the same transaction (also when its
-- source is deleted: the cascade fires this trigger).
CREATE TRIGGER highlights_chunks_ad AFTER DELETE ON highlights BEGIN
  DELETE FROM chunks WHERE doc_type = 'highlight' AND doc_id = old.id;
END;
