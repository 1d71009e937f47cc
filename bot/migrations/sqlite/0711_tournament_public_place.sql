-- Whether the server's @everyone role could view the channel a tournament was created in: the
-- web companion, public on the internet, shows only such events (and their boards' matches).
-- Events created before are not public (unknown means hidden).
ALTER TABLE tournaments ADD COLUMN public_place INTEGER NOT NULL DEFAULT 0;
