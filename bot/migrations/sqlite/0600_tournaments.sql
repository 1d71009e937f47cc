-- Tournaments (bot/tournaments/store.py): an event, its entries, rounds, boards (the pairings
-- and their results), check-ins, corrections, what was published, and its clock's deadlines.

-- One event of a server. ``round`` is the round being prepared or played (0 before the first).
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      BIGINT  NOT NULL,
    channel_id    BIGINT  NOT NULL,
    host_id       BIGINT  NOT NULL,
    name          TEXT    NOT NULL,
    variant       TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',    -- the variant's options (JSON)
    format        TEXT    NOT NULL CHECK (format IN ('pairs', 'individual', 'single')),
    system        TEXT    NOT NULL DEFAULT 'swiss' CHECK (system IN ('swiss', 'knockout')),
    rounds        INTEGER NOT NULL,
    hands         INTEGER,                          -- a round of this many hands ...
    points        INTEGER,                          -- ... or to this many points
    time_limit    INTEGER NOT NULL,                 -- seconds a round may last
    grace         INTEGER NOT NULL,                 -- seconds a seated person has to click in
    fill          TEXT    NOT NULL DEFAULT 'computer' CHECK (fill IN ('computer', 'bye')),
    max_entrants  INTEGER NOT NULL,
    start_at      DOUBLE PRECISION,                 -- NULL: when the host presses Start
    status        TEXT    NOT NULL DEFAULT 'registration'
                  CHECK (status IN ('registration', 'running', 'paused', 'finished', 'cancelled')),
    round         INTEGER NOT NULL DEFAULT 0,
    locale        TEXT,
    winner_role   BIGINT,
    paused_left   TEXT,                             -- a paused event's deadlines (JSON)
    created_at    DOUBLE PRECISION NOT NULL,
    updated_at    DOUBLE PRECISION NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
-- One open event per channel.
CREATE UNIQUE INDEX tournaments_channel_open ON tournaments (channel_id)
    WHERE status IN ('registration', 'running', 'paused');

-- An entrant: one person, or a pair (the partner confirms: status 'invited' until then).
CREATE TABLE tournament_entries (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entry         INTEGER NOT NULL,                 -- 1, 2, ... in the order of registration
    user_id       BIGINT  NOT NULL,
    name          TEXT    NOT NULL,
    partner_id    BIGINT,
    partner_name  TEXT,
    status        TEXT    NOT NULL CHECK (status IN ('invited', 'active', 'withdrawn')),
    joined_round  INTEGER NOT NULL DEFAULT 1,       -- the first round it may be paired in
    rating        DOUBLE PRECISION NOT NULL DEFAULT 0,  -- at registration (the last tie-break)
    missed        INTEGER NOT NULL DEFAULT 0,       -- rounds missed (two: withdrawn)
    created_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, entry)
);

-- Who is in which entry: a person is in one entry of an event at most.
CREATE TABLE tournament_people (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,
    entry         INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_people_user ON tournament_people (user_id);

-- A round: paired, then playing from ``started_at`` until ``ends_at`` (the time limit), done.
CREATE TABLE tournament_rounds (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('checkin', 'playing', 'done')),
    started_at    DOUBLE PRECISION,
    ends_at       DOUBLE PRECISION,
    PRIMARY KEY (tournament_id, number)
);

-- A board of a round: who sits where, its dominoes table, its result. ``seats`` holds the entry
-- of each seat (NULL: a computer); ``sides`` the entries of each side; a bye has one side.
CREATE TABLE tournament_boards (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    seats         TEXT    NOT NULL,
    sides         TEXT    NOT NULL,
    people        TEXT    NOT NULL DEFAULT '[]',    -- the person of each seat (NULL: computer)
    table_id      BIGINT,
    status        TEXT    NOT NULL CHECK (status IN ('waiting', 'playing', 'done')),
    last_hand     INTEGER NOT NULL DEFAULT 0,       -- time is up: scored after the hand in play
    points        TEXT,                             -- the points of each side once done (JSON)
    how           TEXT,                             -- played | time | forfeit | bye | corrected
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_boards_table ON tournament_boards (table_id);

-- Check-ins before a round ('checkin') and clicks in at a board's table ('present').
CREATE TABLE tournament_checkins (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('checkin', 'present')),
    user_id       BIGINT  NOT NULL,
    at            DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, round, kind, user_id)
);

-- The event's history of result corrections.
CREATE TABLE tournament_corrections (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    user_id       BIGINT  NOT NULL,
    reason        TEXT    NOT NULL,
    before        TEXT    NOT NULL,
    after         TEXT    NOT NULL,
    at            DOUBLE PRECISION NOT NULL
);
CREATE INDEX tournament_corrections_event ON tournament_corrections (tournament_id);

-- What was published (announcement, pairings, standings, podium ...): one mark per post,
-- written after the post (posts carry a nonce, so a lost mark never doubles a post).
CREATE TABLE tournament_posts (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    key           TEXT    NOT NULL,
    message_id    BIGINT,
    PRIMARY KEY (tournament_id, key)
);

-- The event's deadlines for the one clock: one row per kind; ``seq`` is the round it is for.
CREATE TABLE tournament_deadlines (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL,
    due_at        DOUBLE PRECISION NOT NULL,
    seq           INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, kind)
);

-- Who may run events on a server besides those with Manage Server (NULL: nobody else).
CREATE TABLE tournament_servers (
    guild_id        BIGINT NOT NULL PRIMARY KEY,
    organiser_role  BIGINT
);
