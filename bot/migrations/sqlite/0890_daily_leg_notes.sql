-- Whether the note that opens a daily leg ("the same deal again, from the other seat") was
-- posted in the attempt's thread, so a restart posts a missing one once. Legs already open
-- count as noted.
ALTER TABLE daily_legs ADD COLUMN noted INTEGER NOT NULL DEFAULT 0;
UPDATE daily_legs SET noted = 1;
