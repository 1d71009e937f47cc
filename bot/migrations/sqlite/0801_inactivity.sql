-- Inactivity (owned by bot/records/inactivity_store.py). A rating's uncertainty grows with each
-- week without a rated match of its family: the boards' figure (record_stats.rating) of an idle
-- rating is rewritten by the inactivity sweep; decay_weeks is how many idle weeks it counts,
-- decay_at the updated_at it counted them from. A summary line whose player did not play in its
-- scope for longer than the server's idle weeks gets record_stats.hidden = 2 (1 is the player's
-- own choice); his next match there shows him again.
ALTER TABLE record_ratings ADD COLUMN decay_weeks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE record_ratings ADD COLUMN decay_at REAL NOT NULL DEFAULT 0;

-- A server's number of idle weeks after which a player is left off its boards (default 4).
CREATE TABLE board_settings (
    guild_id   INTEGER NOT NULL PRIMARY KEY,
    idle_weeks INTEGER NOT NULL
);
