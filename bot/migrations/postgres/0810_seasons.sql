-- PostgreSQL twin of ../sqlite/0810_seasons.sql.
-- Seasons (owned by bot/records/seasons_store.py). Each season (key 'season:2026-10', its first
-- month) has its own openskill rating per family and player, started from a soft reset of the
-- all-time rating at his first rated match of the family in the season.
CREATE TABLE season_ratings (
    season     TEXT    NOT NULL,
    family     TEXT    NOT NULL,
    player_id  BIGINT NOT NULL,
    mu         DOUBLE PRECISION    NOT NULL,
    sigma      DOUBLE PRECISION    NOT NULL,
    updated_at DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (season, family, player_id)
);
CREATE INDEX season_ratings_player ON season_ratings (player_id);

-- A person's line on a season's board of a family, per scope (0: everywhere, else a server):
-- his matches there and his season rating's ordinal (mu - 3 sigma, the same on every scope).
CREATE TABLE season_lines (
    season    TEXT    NOT NULL,
    scope     BIGINT NOT NULL,
    family    TEXT    NOT NULL,
    player_id BIGINT NOT NULL,
    matches   INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    losses    INTEGER NOT NULL,
    draws     INTEGER NOT NULL,
    rating    DOUBLE PRECISION    NOT NULL,
    last_at   DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (season, scope, family, player_id)
);
CREATE INDEX season_lines_board ON season_lines (season, scope, family, rating DESC, player_id);
CREATE INDEX season_lines_player ON season_lines (player_id, scope);

-- A server's roles for winners: the season's champions and the last tournament's winners.
CREATE TABLE winner_roles (
    guild_id   BIGINT NOT NULL,
    kind       TEXT    NOT NULL,            -- 'season' | 'tournament'
    role_id    BIGINT NOT NULL,
    problem    TEXT    NOT NULL DEFAULT '',  -- why the bot could not give it, last time
    set_by     BIGINT NOT NULL,
    set_at     DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (guild_id, kind)
);

-- Who holds a winner role because the bot gave it (taken from them when the next winners come).
CREATE TABLE winner_holders (
    guild_id BIGINT NOT NULL,
    kind     TEXT    NOT NULL,
    user_id  BIGINT NOT NULL,
    given_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, kind, user_id)
);
