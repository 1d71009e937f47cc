-- The final places of a finished event (owned by bot/tournaments/store.py), one row per person
-- of each entrant (a pair's two members share its place), written in the transaction that ends
-- the event. They outlive the event's standings being computed again (the podium achievement's
-- back-fill reads them); forget-me turns the person's id into his alias.
CREATE TABLE tournament_places (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,
    entry         INTEGER NOT NULL,
    guild_id      BIGINT  NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    finished_at   REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_places_user ON tournament_places (user_id);
CREATE INDEX tournament_places_podium ON tournament_places (place, finished_at);
