-- Search: chunks of every ready source and every note, their FTS5 index (kept in sync by
-- triggers, so in the same transaction as chunk writes), and float vectors per embedding model.
-- Binary-quantised vec0 tables are created per model at run time (their width depends on it).
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  chunk_id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL,
  doc_type TEXT NOT NULL,
  doc_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  heading TEXT,
  text TEXT NOT NULL,
  start_offset INTEGER NOT NULL,
  end_offset INTEGER NOT NULL,
  token_count INTEGER NOT NULL
);
CREATE INDEX chunks_doc ON chunks(doc_type, doc_id, idx);
CREATE INDEX chunks_user ON chunks(user_id, doc_type);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
  title, heading, text,
  content = 'chunks', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts(rowid, title, heading, text) VALUES (new.id, new.title, coalesce(new.heading, ''), new.text);
END;
CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, title, heading, text) VALUES ('delete', old.id, old.title, coalesce(old.heading, ''), old.text);
END;
CREATE TRIGGER chunks_au AFTER UPDATE ON chunks BEGIN
  INSERT INTO chunks_fts(chunks_fts, rowid, title, heading, text) VALUES ('delete', old.id, old.title, coalesce(old.heading, ''), old.text);
  INSERT INTO chunks_fts(rowid, title, heading, text) VALUES (new.id, new.title, coalesce(new.heading, ''), new.text);
END;

-- A document leaving the library leaves the index in the same transaction.
CREATE TRIGGER sources_chunks_ad AFTER DELETE ON sources BEGIN
  DELETE FROM chunks WHERE doc_type = 'source' AND doc_id = old.id;
END;
CREATE TRIGGER notes_chunks_ad AFTER DELETE ON notes BEGIN
  DELETE FROM chunks WHERE doc_type = 'note' AND doc_id = old.id;
END;

-- One row per embedding model ever used: its dimension and state (building → active → retired).
CREATE TABLE embedding_models (
  slot INTEGER PRIMARY KEY,
  model TEXT NOT NULL UNIQUE,
  dimensions INTEGER NOT NULL,
  state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  activated_at TEXT
);

-- Float vectors (exact re-ranking); the model and dimension are stored with each vector.
-- A rowid table on purpose: 1.5 KB vectors overflow a WITHOUT ROWID page and made the exact
-- re-ranking lookups 4–5× slower.
CREATE TABLE chunk_vectors (
  id INTEGER PRIMARY KEY,
  chunk_rowid INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  slot INTEGER NOT NULL REFERENCES embedding_models(slot) ON DELETE CASCADE,
  dimensions INTEGER NOT NULL,
  embedding BLOB NOT NULL,
  UNIQUE (chunk_rowid, slot)
);
CREATE INDEX chunk_vectors_slot ON chunk_vectors(slot);
