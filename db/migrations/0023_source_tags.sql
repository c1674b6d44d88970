-- The owner's tag list (names and counts, on every Library and reader page) reads each tagged source's
-- tags. On SQLite a row's tags come after its article text, so reading them from the table means
-- reading every article; this index holds what the list needs (55 ms → see docs/performance.md).
CREATE INDEX sources_user_tags ON sources (user_id, tags, id) WHERE tags <> '[]';
