-- Per-server settings of /domino server-settings, rematch offers at a match's end, and the
-- tables opened with /domino practice (owned by bot/store/table_extras.py).

-- What a server chose: the defaults of /domino new (NULL: the bot's own), the role allowed to
-- host (NULL: anyone) and the channels tables may be opened in (JSON list; NULL: any).
CREATE TABLE guild_settings (
    guild_id    BIGINT  NOT NULL PRIMARY KEY,
    variant     TEXT,
    target      INTEGER,
    turn_timer  INTEGER,
    host_role   BIGINT,
    channels    TEXT,
    updated_at  DOUBLE PRECISION NOT NULL
);

-- The rematch offered at the end of a finished table: the message carrying the button, and the
-- table it started once every person accepted.
CREATE TABLE rematches (
    table_id    BIGINT  NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    message_id  BIGINT,
    started_id  BIGINT,
    closed      INTEGER NOT NULL DEFAULT 0
);

-- Who accepted a table's rematch.
CREATE TABLE rematch_votes (
    table_id    BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

-- Tables opened with /domino practice (only they offer hints).
CREATE TABLE practice_tables (
    table_id    BIGINT  NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE
);
