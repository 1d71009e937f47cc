-- Records, ratings and leaderboards. Owned by bot/records/store.py.
-- PostgreSQL twin of ../sqlite/0100_records.sql (BIGINT ids, DOUBLE PRECISION times).
-- A player id is a Discord user id (> 0) or a negative id for a computer level ("computer:hard").
-- A scope is 0 for everything (global) or a Discord guild id for one server.
-- A bucket is 'all', a variant family ('partnership', 'two-player', 'three-player') or a variant.

-- One row per finished match (the table it was played at identifies it: recording is idempotent).
CREATE TABLE record_matches (
    table_id    BIGINT  PRIMARY KEY,
    guild_id    BIGINT,
    variant     TEXT    NOT NULL,
    family      TEXT    NOT NULL,
    seats       INTEGER NOT NULL,
    teams       INTEGER NOT NULL,
    people      INTEGER NOT NULL,
    computers   INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    scores      TEXT    NOT NULL,          -- JSON list, per side
    winner_side INTEGER,
    draw        INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    duration    DOUBLE PRECISION NOT NULL,
    recorded_at DOUBLE PRECISION NOT NULL
);

-- One row per participant of a recorded match (a person with all his seats, or a computer level
-- on one side), clustered by player and time for the history and the rating-over-time picture.
CREATE TABLE record_entries (
    player_id      BIGINT  NOT NULL,
    finished_at    DOUBLE PRECISION NOT NULL,
    table_id       BIGINT  NOT NULL,
    side           INTEGER NOT NULL,
    family         TEXT    NOT NULL,
    seats          TEXT    NOT NULL,       -- JSON list of seats
    name           TEXT    NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
    result         TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    rank           INTEGER NOT NULL,       -- 1 = best; equal ranks are ties
    points_for     INTEGER NOT NULL,
    points_against INTEGER NOT NULL,
    hands_won      INTEGER NOT NULL,
    dominoes       INTEGER NOT NULL,
    blocks_won     INTEGER NOT NULL,
    rated          INTEGER NOT NULL,       -- 0: rating and stats left alone (see bot/records/rating.py)
    mu_before      DOUBLE PRECISION NOT NULL,
    sigma_before   DOUBLE PRECISION NOT NULL,
    mu_after       DOUBLE PRECISION NOT NULL,
    sigma_after    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, finished_at, table_id, side)
);
CREATE INDEX record_entries_match ON record_entries (table_id);
CREATE INDEX record_entries_family ON record_entries (player_id, family, finished_at);

-- The current skill rating of each player per variant family (openskill mu/sigma).
CREATE TABLE record_ratings (
    player_id  BIGINT  NOT NULL,
    family     TEXT    NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    matches    INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, family)
);

-- Latest known name of each player (computers: their level).
CREATE TABLE record_players (
    player_id  BIGINT  PRIMARY KEY,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    updated_at DOUBLE PRECISION NOT NULL
);

-- Summary per scope, bucket and player, updated with every recorded match. ``rating`` copies the
-- ordinal of the player's family rating (NULL in the 'all' bucket); ``hidden`` copies the privacy
-- choice for this scope. Both are denormalised so that a leaderboard page is one index range.
CREATE TABLE record_stats (
    scope          BIGINT  NOT NULL,
    bucket         TEXT    NOT NULL,
    player_id      BIGINT  NOT NULL,
    family         TEXT,
    matches        INTEGER NOT NULL DEFAULT 0,
    wins           INTEGER NOT NULL DEFAULT 0,
    losses         INTEGER NOT NULL DEFAULT 0,
    draws          INTEGER NOT NULL DEFAULT 0,
    hands_won      INTEGER NOT NULL DEFAULT 0,
    dominoes       INTEGER NOT NULL DEFAULT 0,
    blocks_won     INTEGER NOT NULL DEFAULT 0,
    points_for     INTEGER NOT NULL DEFAULT 0,
    points_against INTEGER NOT NULL DEFAULT 0,
    streak         INTEGER NOT NULL DEFAULT 0,   -- wins in a row up to the last match
    best_streak    INTEGER NOT NULL DEFAULT 0,
    rating         DOUBLE PRECISION,
    hidden         INTEGER NOT NULL DEFAULT 0,
    last_at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, bucket, player_id)
);
CREATE INDEX record_stats_by_rating ON record_stats (scope, bucket, hidden, rating DESC, player_id);
CREATE INDEX record_stats_by_wins
    ON record_stats (scope, bucket, hidden, wins DESC, losses, player_id);
CREATE INDEX record_stats_player ON record_stats (player_id, family);

-- People who left a leaderboard: scope 0 = the global ones, else one server's.
CREATE TABLE record_privacy (
    user_id    BIGINT  NOT NULL,
    scope      BIGINT  NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, scope)
);
