-- The Library's tab counts (inbox, favorites, archive, all) from an owner's index entries (an
-- index-only scan once the table is vacuumed) instead of their rows.
CREATE INDEX sources_user_triage ON sources (user_id, archived, favorite, read_at);
