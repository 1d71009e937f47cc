-- A quick-match table that could not open (the bot may not post in its channel) gives its
-- people their places back: the places it took are kept with the table (bot/queue/store.py),
-- and each person's private note says why (a reason and the channel beside an expired place's
-- note).
ALTER TABLE queue_tables ADD COLUMN places TEXT;
ALTER TABLE queue_expired ADD COLUMN reason TEXT;
ALTER TABLE queue_expired ADD COLUMN channel_id INTEGER;
