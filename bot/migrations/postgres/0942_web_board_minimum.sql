-- PostgreSQL twin of ../sqlite/0942_web_board_minimum.sql.
-- For the web companion's kept pages (bot/web/kept.py): a server's kept leaderboards and
-- player pages go when its managers change the matches a rating board needs (board_minimum).
CREATE FUNCTION web_boards_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO web_boards AS w (guild_id, stamp) VALUES (NEW.guild_id, 1)
    ON CONFLICT (guild_id) DO UPDATE SET stamp = w.stamp + 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER web_boards_minimum AFTER UPDATE OF board_minimum ON guild_settings FOR EACH ROW
    WHEN (OLD.board_minimum IS DISTINCT FROM NEW.board_minimum)
    EXECUTE FUNCTION web_boards_settings();
