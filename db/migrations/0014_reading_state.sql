-- Reading state and the archived copy's facts, kept on each source.
-- favorite / read_at / progress: triage and where the reader stopped (progress is 0..1 of the article).
-- image_key: the blob of the card's preview thumbnail, fetched at ingestion (null: no image).
-- original_*: what the periodic link check last learned of the original address ('ok', 'gone' for a
-- 404/410, 'moved' for a permanent redirect elsewhere), with the validators it sends next time.
ALTER TABLE sources ADD COLUMN favorite INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sources ADD COLUMN read_at TEXT;
ALTER TABLE sources ADD COLUMN progress REAL NOT NULL DEFAULT 0;
ALTER TABLE sources ADD COLUMN image_key TEXT;
ALTER TABLE sources ADD COLUMN original_status TEXT;
ALTER TABLE sources ADD COLUMN original_checked_at TEXT;
ALTER TABLE sources ADD COLUMN original_moved_to TEXT;
ALTER TABLE sources ADD COLUMN original_etag TEXT;
ALTER TABLE sources ADD COLUMN original_last_modified TEXT;
-- How each user reads: library view, reader typeface, size, line height, width and theme (JSON).
ALTER TABLE users ADD COLUMN preferences TEXT NOT NULL DEFAULT '{}';
-- The inbox (not archived, unread) and favourites page newest first without walking the archive.
CREATE INDEX sources_user_inbox ON sources(user_id, id) WHERE archived = 0 AND read_at IS NULL;
CREATE INDEX sources_user_favorite ON sources(user_id, id) WHERE favorite = 1;
