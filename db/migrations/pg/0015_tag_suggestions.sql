-- Tags suggested for a source at ingestion (JSON array, at most five), shown for one-click acceptance;
-- applied at once instead when the owner turned on auto-tagging (users.preferences.auto_tag).
ALTER TABLE sources ADD COLUMN suggested_tags text NOT NULL DEFAULT '[]';
