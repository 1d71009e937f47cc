-- A rating board's length under a server's minimum of matches (guild_settings.board_minimum,
-- at most 50), kept by the database like the boards' sizes (0821): per scope, bucket and
-- number of matches below 50, how many people's lines of its rating board (listed, rated)
-- have that many. A board of at least N matches is its rated lines (record_board_sizes)
-- less those with fewer: a few rows, however many people it lists. A row goes when it
-- counts nothing.
CREATE TABLE record_board_short (
    scope   INTEGER NOT NULL,
    bucket  TEXT    NOT NULL,
    matches INTEGER NOT NULL,
    lines   INTEGER NOT NULL,
    PRIMARY KEY (scope, bucket, matches)
) WITHOUT ROWID;

-- backfill:begin
INSERT INTO record_board_short (scope, bucket, matches, lines)
SELECT scope, bucket, matches, count(*) FROM record_stats
WHERE player_id > 0 AND hidden = 0 AND rating IS NOT NULL AND matches < 50
GROUP BY scope, bucket, matches;
-- backfill:end

CREATE TRIGGER record_board_short_insert AFTER INSERT ON record_stats
WHEN new.player_id > 0 AND new.hidden = 0 AND new.rating IS NOT NULL AND new.matches < 50
BEGIN
    INSERT INTO record_board_short (scope, bucket, matches, lines)
    VALUES (new.scope, new.bucket, new.matches, 1)
    ON CONFLICT (scope, bucket, matches) DO UPDATE SET lines = lines + 1;
END;

CREATE TRIGGER record_board_short_delete AFTER DELETE ON record_stats
WHEN old.player_id > 0 AND old.hidden = 0 AND old.rating IS NOT NULL AND old.matches < 50
BEGIN
    UPDATE record_board_short SET lines = lines - 1
    WHERE scope = old.scope AND bucket = old.bucket AND matches = old.matches;
    DELETE FROM record_board_short
    WHERE scope = old.scope AND bucket = old.bucket AND matches = old.matches AND lines = 0;
END;

CREATE TRIGGER record_board_short_update AFTER UPDATE ON record_stats
WHEN (old.player_id > 0 AND old.hidden = 0 AND old.rating IS NOT NULL AND old.matches < 50)
    OR (new.player_id > 0 AND new.hidden = 0 AND new.rating IS NOT NULL AND new.matches < 50)
BEGIN
    UPDATE record_board_short SET lines = lines - 1
    WHERE scope = old.scope AND bucket = old.bucket AND matches = old.matches
        AND old.player_id > 0 AND old.hidden = 0 AND old.rating IS NOT NULL
        AND old.matches < 50;
    DELETE FROM record_board_short
    WHERE scope = old.scope AND bucket = old.bucket AND matches = old.matches AND lines = 0;
    INSERT INTO record_board_short (scope, bucket, matches, lines)
    SELECT new.scope, new.bucket, new.matches, 1
    WHERE new.player_id > 0 AND new.hidden = 0 AND new.rating IS NOT NULL AND new.matches < 50
    ON CONFLICT (scope, bucket, matches) DO UPDATE SET lines = lines + 1;
END;
