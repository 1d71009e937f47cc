-- PostgreSQL twin of ../sqlite/0940_web_pages.sql.
-- What the web companion (bot/web/) needs to keep its pages and follow running tables.
-- A player search by the start of his global name, case-insensitively, by index (the pages
-- ask for a range of lower(name) with the pattern operators, which this index answers
-- whatever the database's collation).
CREATE INDEX record_players_name ON record_players (lower(name) text_pattern_ops);

-- A counter the database moves whenever something a kept page may show changes outside a
-- recorded match: who left the boards or was forgotten, a recorded name, a server's pages
-- turned on or off or renamed, a match removed (an update that writes the same value, as
-- recording a match does to a player's name, moves nothing). The pages drop what they kept when it moves
-- (no row until it first moves: a missing row counts as 0, and a copy of the database
-- starts empty).
CREATE TABLE web_stamp (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    stamp BIGINT  NOT NULL
);

CREATE FUNCTION web_stamp_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1;
    PERFORM pg_notify('domino_web', 's');
    RETURN NULL;
END
$$;

CREATE TRIGGER web_stamp_privacy AFTER INSERT OR DELETE ON record_privacy
    FOR EACH STATEMENT EXECUTE FUNCTION web_stamp_move();
CREATE TRIGGER web_stamp_players AFTER DELETE ON record_players
    FOR EACH STATEMENT EXECUTE FUNCTION web_stamp_move();
CREATE TRIGGER web_stamp_players_name AFTER UPDATE OF name ON record_players FOR EACH ROW
    WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION web_stamp_move();
CREATE TRIGGER web_stamp_entries AFTER UPDATE OF player_id, name ON record_entries FOR EACH ROW
    WHEN (OLD.player_id IS DISTINCT FROM NEW.player_id OR OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION web_stamp_move();
CREATE TRIGGER web_stamp_matches AFTER DELETE ON record_matches
    FOR EACH STATEMENT EXECUTE FUNCTION web_stamp_move();
CREATE TRIGGER web_stamp_settings AFTER INSERT OR DELETE ON guild_settings
    FOR EACH STATEMENT EXECUTE FUNCTION web_stamp_move();
CREATE TRIGGER web_stamp_settings_web AFTER UPDATE OF web, web_name ON guild_settings
    FOR EACH ROW WHEN (OLD.web IS DISTINCT FROM NEW.web OR OLD.web_name IS DISTINCT FROM NEW.web_name)
    EXECUTE FUNCTION web_stamp_move();

-- Running tables and tournaments, followed live by the pages (LISTEN domino_web): a table's
-- id after each move or change of state ('t<id>'), an event's after each change of its rows
-- ('e<id>'). A notification goes out when the writing transaction commits.
CREATE FUNCTION web_table_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('domino_web', 't' || NEW.table_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER web_table_moved AFTER INSERT ON actions
    FOR EACH ROW EXECUTE FUNCTION web_table_moved();

CREATE FUNCTION web_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('domino_web', 't' || NEW.id);
    RETURN NULL;
END
$$;
CREATE TRIGGER web_table_changed AFTER UPDATE OF status ON tables
    FOR EACH ROW EXECUTE FUNCTION web_table_changed();

CREATE FUNCTION web_event_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'tournaments' THEN
        PERFORM pg_notify('domino_web', 'e' || coalesce(NEW.id, OLD.id));
    ELSE
        PERFORM pg_notify('domino_web', 'e' || coalesce(NEW.tournament_id, OLD.tournament_id));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER web_event_changed AFTER INSERT OR UPDATE ON tournaments
    FOR EACH ROW EXECUTE FUNCTION web_event_changed();
CREATE TRIGGER web_event_entries AFTER INSERT OR UPDATE OR DELETE ON tournament_entries
    FOR EACH ROW EXECUTE FUNCTION web_event_changed();
CREATE TRIGGER web_event_rounds AFTER INSERT OR UPDATE OR DELETE ON tournament_rounds
    FOR EACH ROW EXECUTE FUNCTION web_event_changed();
CREATE TRIGGER web_event_boards AFTER INSERT OR UPDATE OR DELETE ON tournament_boards
    FOR EACH ROW EXECUTE FUNCTION web_event_changed();
