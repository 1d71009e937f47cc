-- PostgreSQL twin of ../sqlite/0941_web_boards.sql.
-- For the web companion's kept pages (bot/web/kept.py).
-- Per server, a counter the database moves with each match recorded there and each line of
-- its boards left off or put back (inactivity): its kept leaderboards and player pages go
-- when it moves.
CREATE TABLE web_boards (
    guild_id BIGINT PRIMARY KEY,
    stamp    BIGINT NOT NULL
);
CREATE FUNCTION web_boards_match() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO web_boards AS w (guild_id, stamp) VALUES (NEW.guild_id, 1)
    ON CONFLICT (guild_id) DO UPDATE SET stamp = w.stamp + 1;
    RETURN NULL;
END
$$;
CREATE FUNCTION web_boards_line() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO web_boards AS w (guild_id, stamp) VALUES (NEW.scope, 1)
    ON CONFLICT (guild_id) DO UPDATE SET stamp = w.stamp + 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER web_boards_match AFTER INSERT ON record_matches FOR EACH ROW
    WHEN (NEW.guild_id IS NOT NULL) EXECUTE FUNCTION web_boards_match();
CREATE TRIGGER web_boards_hidden AFTER UPDATE OF hidden ON record_stats FOR EACH ROW
    WHEN (OLD.hidden IS DISTINCT FROM NEW.hidden) EXECUTE FUNCTION web_boards_line();
