-- The events outbox is claimed, not read after a cursor: with concurrent writers sequence order is not
-- commit order, so a cursor could step over an event that committed late. Each event now carries its
-- own dispatch state: pending (dispatched_at NULL), leased by a dispatcher until dispatch_lease_until
-- (ms epoch), or dispatched at dispatched_at (ms epoch).
ALTER TABLE events ADD COLUMN dispatched_at INTEGER;
ALTER TABLE events ADD COLUMN dispatch_lease_until INTEGER;

-- Everything the cursor had passed was dispatched; so was every event that can never trigger a
-- workflow (run.*). The rest stays pending and is dispatched by the next claim.
UPDATE events SET dispatched_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
WHERE seq <= (SELECT last_seq FROM workflow_dispatch WHERE id = 1)
   OR type NOT IN ('source.created', 'source.updated', 'source.deleted',
                   'notebook.created', 'notebook.updated', 'notebook.deleted',
                   'note.created', 'note.updated', 'note.deleted',
                   'podcast.created', 'podcast.updated', 'podcast.deleted');

-- Pending events only, in claim order: stays small however long the outbox grows.
CREATE INDEX events_pending ON events(seq) WHERE dispatched_at IS NULL;

DROP TABLE workflow_dispatch;
