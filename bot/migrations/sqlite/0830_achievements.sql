-- Achievements (owned by bot/achievements/store.py). A person earns each one once: the row
-- names the match that earned it first (the back-fill may move it to an earlier match, never
-- to a later one). Computers and forgotten people have none; forget-me deletes a person's rows.
CREATE TABLE achievements (
    player_id BIGINT  NOT NULL,
    code      TEXT    NOT NULL,
    table_id  INTEGER  NOT NULL,
    guild_id  INTEGER,
    earned_at REAL NOT NULL,
    PRIMARY KEY (player_id, code)
);
CREATE INDEX achievements_table ON achievements (table_id);
CREATE INDEX achievements_code ON achievements (code);

-- The recorded matches whose moments (a capicúa, a tranque...) were read for achievements:
-- written with the match's record, or by the back-fill for matches recorded before.
CREATE TABLE achievement_scans (
    table_id INTEGER NOT NULL PRIMARY KEY
);
