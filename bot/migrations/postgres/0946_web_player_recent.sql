-- PostgreSQL twin of ../sqlite/0946_web_player_recent.sql.
-- A person's latest matches on a server's web pages (bot/web/reader.py), kept by the
-- database in the transaction that records a match, like his figures (0943): per person
-- (player_id > 0) and server, his 20 latest matches of the server's public places (by
-- finished time, then table and side), with what his page lists of each (the variant, his result
-- and points). Matches recorded are never removed, so the 20 latest are always here. The
-- list names nobody: a name is read when the page is. A forget-me (his entries passed to
-- an alias) takes his rows.
CREATE TABLE web_player_recent (
    player_id      BIGINT  NOT NULL,
    guild_id       BIGINT  NOT NULL,
    finished_at    DOUBLE PRECISION NOT NULL,
    table_id       BIGINT  NOT NULL,
    side           INTEGER NOT NULL,
    variant        TEXT    NOT NULL,
    result         TEXT    NOT NULL,
    points_for     INTEGER NOT NULL,
    points_against INTEGER NOT NULL,
    PRIMARY KEY (player_id, guild_id, finished_at, table_id, side)
);

-- backfill:begin
INSERT INTO web_player_recent
SELECT player_id, guild_id, finished_at, table_id, side, variant, result, points_for,
       points_against FROM (
    SELECT e.player_id, t.guild_id, e.finished_at, e.table_id, e.side, m.variant, e.result,
           e.points_for, e.points_against,
           row_number() OVER (PARTITION BY e.player_id, t.guild_id
                              ORDER BY e.finished_at DESC, e.table_id DESC, e.side DESC)
               AS latest
    FROM record_entries e JOIN tables t ON t.id = e.table_id
    JOIN record_matches m ON m.table_id = e.table_id
    WHERE e.player_id > 0 AND e.kind = 'human' AND t.public_place <> 0
      AND t.guild_id IS NOT NULL
) listed
WHERE latest <= 20;
-- backfill:end

CREATE FUNCTION web_player_recent_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    guild BIGINT;
    played TEXT;
BEGIN
    SELECT t.guild_id, m.variant INTO guild, played FROM tables t
    JOIN record_matches m ON m.table_id = t.id
    WHERE t.id = NEW.table_id AND t.public_place <> 0;
    IF guild IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO web_player_recent
    VALUES (NEW.player_id, guild, NEW.finished_at, NEW.table_id, NEW.side, played, NEW.result,
            NEW.points_for, NEW.points_against)
    ON CONFLICT (player_id, guild_id, finished_at, table_id, side) DO NOTHING;
    DELETE FROM web_player_recent
    WHERE player_id = NEW.player_id AND guild_id = guild
      AND (finished_at, table_id, side) < (
          SELECT r.finished_at, r.table_id, r.side FROM web_player_recent r
          WHERE r.player_id = NEW.player_id AND r.guild_id = guild
          ORDER BY r.finished_at DESC, r.table_id DESC, r.side DESC LIMIT 1 OFFSET 19);
    RETURN NULL;
END
$$;
CREATE TRIGGER web_player_recent_entry AFTER INSERT ON record_entries FOR EACH ROW
    WHEN (NEW.player_id > 0 AND NEW.kind = 'human')
    EXECUTE FUNCTION web_player_recent_entry();

-- A forget-me: his entries go to an alias, his list goes.
CREATE FUNCTION web_player_recent_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM web_player_recent WHERE player_id = OLD.player_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER web_player_recent_forget AFTER UPDATE OF player_id ON record_entries FOR EACH ROW
    WHEN (OLD.player_id > 0 AND OLD.player_id <> NEW.player_id)
    EXECUTE FUNCTION web_player_recent_forget();
