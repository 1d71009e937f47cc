-- Where a table opened inside a thread was played: the thread's channel, and whether the thread
-- is private. With the channel (or the table's own thread's channel) they say who may see the
-- table's finished match: someone else's match is shown only to those who can view it there.
ALTER TABLE tables ADD COLUMN parent_id BIGINT;
ALTER TABLE tables ADD COLUMN private_thread INTEGER NOT NULL DEFAULT 0;
