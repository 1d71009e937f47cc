-- What the web companion (bot/web/) needs to keep its pages and follow running tables.
-- A player search by the start of his global name, case-insensitively, by index (the pages
-- ask for a range of lower(name), which this index answers).
CREATE INDEX record_players_name ON record_players (lower(name));

-- A counter the database moves whenever something a kept page may show changes outside a
-- recorded match: who left the boards or was forgotten, a recorded name, a server's pages
-- turned on or off or renamed, a match removed (an update that writes the same value, as
-- recording a match does to a player's name, moves nothing). The pages drop what they kept when it moves
-- (no row until it first moves: a missing row counts as 0, and a copy of the database
-- starts empty).
CREATE TABLE web_stamp (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    stamp INTEGER NOT NULL
);

CREATE TRIGGER web_stamp_privacy_insert AFTER INSERT ON record_privacy
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_privacy_delete AFTER DELETE ON record_privacy
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_players_update AFTER UPDATE OF name ON record_players
WHEN old.name IS NOT new.name
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_players_delete AFTER DELETE ON record_players
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_entries_update AFTER UPDATE OF player_id, name ON record_entries
WHEN old.player_id IS NOT new.player_id OR old.name IS NOT new.name
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_matches_delete AFTER DELETE ON record_matches
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_settings_insert AFTER INSERT ON guild_settings
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_settings_update AFTER UPDATE OF web, web_name ON guild_settings
WHEN old.web IS NOT new.web OR old.web_name IS NOT new.web_name
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
CREATE TRIGGER web_stamp_settings_delete AFTER DELETE ON guild_settings
BEGIN INSERT INTO web_stamp (id, stamp) VALUES (1, 1)
    ON CONFLICT (id) DO UPDATE SET stamp = web_stamp.stamp + 1; END;
