-- For the web companion's kept pages (bot/web/kept.py): a server's kept leaderboards and
-- player pages go when its managers change the matches a rating board needs (board_minimum).
CREATE TRIGGER web_boards_minimum AFTER UPDATE OF board_minimum ON guild_settings
WHEN old.board_minimum IS NOT new.board_minimum
BEGIN
    INSERT INTO web_boards (guild_id, stamp) VALUES (new.guild_id, 1)
    ON CONFLICT (guild_id) DO UPDATE SET stamp = web_boards.stamp + 1;
END;
