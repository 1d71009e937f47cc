-- Arena events (bot/tournaments/arena_rounds.py): an event of a fixed duration where whoever
-- waits is paired again at once. ``arena`` is its duration in seconds (NULL: not an arena; the
-- event's ``system`` column, whose check predates arenas, then says swiss), ``arena_ends_at``
-- when its pairing stops (set at its start); ``arena_version`` counts the changes its
-- standings post shows, ``arena_posted`` the version that post shows and ``arena_posted_at``
-- when it was last edited (at most once a minute).
ALTER TABLE tournaments ADD COLUMN arena INTEGER;
ALTER TABLE tournaments ADD COLUMN arena_ends_at DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN arena_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN arena_posted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN arena_posted_at DOUBLE PRECISION;

-- Each entrant of an arena: away (left: not paired until he joins again), since when he
-- waits, and the board he sits at now (NULL: none). Seating sets ``board_round`` from NULL in
-- the transaction that opens the table, so nobody is seated twice, also across a kill.
CREATE TABLE tournament_arena (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entry         INTEGER NOT NULL,
    away          INTEGER NOT NULL DEFAULT 0,
    since         DOUBLE PRECISION NOT NULL,
    board_round   INTEGER,
    board         INTEGER,
    PRIMARY KEY (tournament_id, entry)
);
