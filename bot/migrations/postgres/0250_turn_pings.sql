-- The game message's move log and the turn pings.

-- Who made each action: 'player', 'computer' or 'timeout' (the turn timer played for a person).
-- NULL for actions recorded before this was kept.
ALTER TABLE actions ADD COLUMN made_by TEXT;

-- The turn ping the feed posted in the table's place (deleted once the player moved):
-- its message, the action count at which that player's turn began, and 1 (turn began) or
-- 2 (half the turn timer gone).
ALTER TABLE feeds ADD COLUMN ping_message_id BIGINT;
ALTER TABLE feeds ADD COLUMN ping_turn INTEGER;
ALTER TABLE feeds ADD COLUMN ping_stage INTEGER NOT NULL DEFAULT 0;

-- A person's own choices (/domino settings).
CREATE TABLE player_settings (
    user_id    BIGINT           NOT NULL PRIMARY KEY,
    turn_pings INTEGER          NOT NULL DEFAULT 1,  -- 1: pinged when his turn begins
    updated_at DOUBLE PRECISION NOT NULL
);
