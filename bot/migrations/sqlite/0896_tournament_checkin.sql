-- Whether an event has a check-in before each round (the host's choice at its creation; off:
-- every entrant plays every round). Events created before had one.
ALTER TABLE tournaments ADD COLUMN checkin INTEGER NOT NULL DEFAULT 1;
