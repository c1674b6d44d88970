-- Feeds one subscribes to (SQLite 0019): one watch per user and feed URL, whichever way it was made;
-- workflow_id is the workflow that governs the watch, or NULL for a subscription of its own; paused stops
-- its polls. Watches of one user and URL made by several workflows merge into the oldest.
INSERT INTO feed_entries (watch_id, key, source_id, seen_at)
SELECT k.keep, e.key, e.source_id, e.seen_at
FROM feed_entries e
JOIN feed_watches w ON w.id = e.watch_id
JOIN (SELECT user_id, feed_url, MIN(id) AS keep FROM feed_watches GROUP BY user_id, feed_url) k
  ON k.user_id = w.user_id AND k.feed_url = w.feed_url
WHERE e.watch_id <> k.keep
ON CONFLICT DO NOTHING;
DELETE FROM feed_watches w
USING (SELECT user_id, feed_url, MIN(id) AS keep FROM feed_watches GROUP BY user_id, feed_url) k
WHERE k.user_id = w.user_id AND k.feed_url = w.feed_url AND w.id <> k.keep;

ALTER TABLE feed_watches ALTER COLUMN workflow_id DROP NOT NULL;
ALTER TABLE feed_watches ADD COLUMN paused boolean NOT NULL DEFAULT false;
ALTER TABLE feed_watches DROP CONSTRAINT feed_watches_workflow_url;
ALTER TABLE feed_watches ADD CONSTRAINT feed_watches_user_url UNIQUE (user_id, feed_url);
CREATE INDEX feed_watches_workflow ON feed_watches (workflow_id) WHERE workflow_id IS NOT NULL;
