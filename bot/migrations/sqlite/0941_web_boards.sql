-- For the web companion's kept pages (bot/web/kept.py).
-- Per server, a counter the database moves with each match recorded there and each line of
-- its boards left off or put back (inactivity): its kept leaderboards and player pages go
-- when it moves.
CREATE TABLE web_boards (
    guild_id INTEGER PRIMARY KEY,
    stamp    INTEGER NOT NULL
);
CREATE TRIGGER web_boards_match AFTER INSERT ON record_matches WHEN new.guild_id IS NOT NULL
BEGIN
    INSERT INTO web_boards (guild_id, stamp) VALUES (new.guild_id, 1)
    ON CONFLICT (guild_id) DO UPDATE SET stamp = web_boards.stamp + 1;
END;
CREATE TRIGGER web_boards_hidden AFTER UPDATE OF hidden ON record_stats
WHEN old.hidden IS NOT new.hidden
BEGIN
    INSERT INTO web_boards (guild_id, stamp) VALUES (new.scope, 1)
    ON CONFLICT (guild_id) DO UPDATE SET stamp = web_boards.stamp + 1;
END;
