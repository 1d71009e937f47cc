-- The final places of a season that ended (owned by bot/records/seasons_store.py): each
-- family's global board, ranked once at the first question after the season's end and kept
-- (a finish is history: who leaves the boards later does not move the others' places).
CREATE TABLE season_finals (
    season    TEXT    NOT NULL,
    family    TEXT    NOT NULL,
    player_id INTEGER NOT NULL,
    place     INTEGER NOT NULL,
    total     INTEGER NOT NULL,
    rating    REAL NOT NULL,
    PRIMARY KEY (season, family, player_id)
);
CREATE INDEX season_finals_player ON season_finals (player_id, place);

-- The (season, family) boards ranked into season_finals (also those nobody was on).
CREATE TABLE season_finals_done (
    season TEXT NOT NULL,
    family TEXT NOT NULL,
    PRIMARY KEY (season, family)
);
