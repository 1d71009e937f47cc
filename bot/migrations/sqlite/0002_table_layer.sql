-- The table layer: what each table's public messages show (the feed's marks), the one clock's
-- deadlines, and the people a challenge invites. The same SQL for SQLite and PostgreSQL.

-- How far a table's public messages have been brought. The feed publishes, then moves a mark:
-- after a crash it resumes from the marks (hand results and the match end are posted with a
-- nonce, so a post whose mark was not written is not posted twice).
CREATE TABLE feeds (
    table_id        BIGINT  NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    shown_seq       INTEGER NOT NULL DEFAULT -1,  -- the game message shows the state after this many actions
    game_hand       INTEGER,                      -- the hand the current game message belongs to
    hands_announced INTEGER NOT NULL DEFAULT 0,   -- hand results posted (hands 1..N)
    match_announced INTEGER NOT NULL DEFAULT 0,   -- 1 once the match end is posted
    lobby_shown     TEXT                          -- the state the lobby message shows
);

-- Every deadline of every table: one row per (table, kind); ``seq`` is the table's version when
-- it was set (a deadline for an older version is void).
CREATE TABLE deadlines (
    table_id BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    due_at   DOUBLE PRECISION NOT NULL,
    seq      INTEGER NOT NULL,
    PRIMARY KEY (table_id, kind)
);
CREATE INDEX deadlines_due ON deadlines (due_at);

-- The people a challenge invites, and their answers.
CREATE TABLE invitees (
    table_id BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,       -- the order the host named them in
    answer   TEXT CHECK (answer IN ('accepted', 'declined')),
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX invitees_user ON invitees (user_id);

-- Why a table closed without a result ('cancelled', 'expired', 'declined').
ALTER TABLE tables ADD COLUMN closed_reason TEXT;
CREATE INDEX tables_guild ON tables (guild_id, status);
CREATE INDEX tables_messages ON tables (message_id);
CREATE INDEX tables_lobby_messages ON tables (lobby_message_id);

-- Tables that exist already are published up to now.
INSERT INTO feeds (table_id, hands_announced, match_announced)
SELECT t.id,
       (SELECT count(*) FROM hand_results h WHERE h.table_id = t.id),
       CASE WHEN t.status IN ('finished', 'cancelled') THEN 1 ELSE 0 END
FROM tables t;
