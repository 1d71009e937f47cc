-- The daily deal (owned by bot/daily/store.py). One deal per UTC day and variant: its seed is
-- drawn at random by the day's first attempt (nobody can work it out ahead), and the expert's
-- own play of it (JSON: [[seat, action], ...]) is kept once computed.
CREATE TABLE daily_deals (
    day     TEXT    NOT NULL,
    variant TEXT    NOT NULL,
    seed    BIGINT  NOT NULL,
    expert  TEXT,
    PRIMARY KEY (day, variant)
);

-- One attempt per person, day and variant; ``day`` is the UTC day it started on. ``name`` is
-- the account's global name (the global board shows it); ``result`` the points difference over
-- its legs, once they are all played; ``published`` whether its result was posted.
CREATE TABLE daily_attempts (
    day         TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    guild_id    BIGINT,
    channel_id  BIGINT,
    locale      TEXT,
    legs        INTEGER NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    result      INTEGER,
    finished_at DOUBLE PRECISION,
    published   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, variant, user_id)
);
CREATE INDEX daily_attempts_user ON daily_attempts (user_id, day);
CREATE INDEX daily_attempts_open ON daily_attempts (finished_at, published);

-- Each leg of an attempt is a stored table (the same deal, the seats' hands turned by ``leg``);
-- ``points`` is the leg's difference once its match ended.
CREATE TABLE daily_legs (
    table_id BIGINT  NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    day      TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    user_id  BIGINT  NOT NULL,
    leg      INTEGER NOT NULL,
    points   INTEGER,
    UNIQUE (day, variant, user_id, leg)
);
