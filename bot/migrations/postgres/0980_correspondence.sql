-- Correspondence tables (hours or days per move).

-- A person's choice to be told of his turn at a correspondence table by direct message
-- (1) rather than by a mention in the table's thread (0).
ALTER TABLE player_settings ADD COLUMN turn_dms INTEGER NOT NULL DEFAULT 0;

-- A server's time-out rule at its correspondence tables: NULL, the bot plays for the person
-- (a computer takes his seats after three time-outs in a row); N, his side loses the match at
-- his N-th time-out in a row.
ALTER TABLE guild_settings ADD COLUMN timeout_loss INTEGER;

-- Vacations: a person's correspondence tables pause from started_at until ends_at.
CREATE TABLE vacations (
    user_id    BIGINT           NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    ends_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, started_at)
);
