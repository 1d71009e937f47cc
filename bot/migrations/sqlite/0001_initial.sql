-- Tables, seats, matches with their append-only action log, hand results, players.
-- Times are Unix seconds (REAL) from the service's clock; JSON columns hold TEXT.

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER,
    thread_id        INTEGER,
    host_id          INTEGER NOT NULL,
    variant          TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    turn_timer       INTEGER NOT NULL DEFAULT 120,
    locale           TEXT,
    message_id       INTEGER,
    lobby_message_id INTEGER,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);
CREATE INDEX tables_status ON tables (status);
CREATE INDEX tables_channel ON tables (channel_id, status);

CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER,
    name      TEXT    NOT NULL,
    kind      TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
    ai_level  TEXT,
    timeouts  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE matches (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    ruleset     TEXT    NOT NULL,
    seed        INTEGER NOT NULL,
    deal        TEXT,
    started_at  REAL    NOT NULL,
    finished_at REAL,
    outcome     TEXT
);

CREATE TABLE actions (
    table_id   INTEGER NOT NULL REFERENCES matches (table_id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE hand_results (
    table_id    INTEGER NOT NULL REFERENCES matches (table_id) ON DELETE CASCADE,
    hand_number INTEGER NOT NULL,
    result      TEXT    NOT NULL,
    PRIMARY KEY (table_id, hand_number)
) WITHOUT ROWID;

CREATE TABLE players (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    locale     TEXT,
    updated_at REAL NOT NULL
);

-- The log is append-only: no action row may change or disappear while its table exists.
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;
