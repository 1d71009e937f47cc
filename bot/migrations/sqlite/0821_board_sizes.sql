-- The length of each all-time board (owned by bot/records/store.py), kept by the database in
-- the transaction that writes the summary lines it counts: a board's size is one row, however
-- many people it lists. Per scope and bucket, people's lines (player_id > 0) listed on its
-- boards (hidden = 0: by wins; of those with a rating: by rating) and left off for inactivity
-- (hidden = 2). A row goes when it counts nothing, so the table is a function of
-- record_stats (a copy of the database rebuilds it as it copies the lines).
CREATE TABLE record_board_sizes (
    scope        INTEGER NOT NULL,
    bucket       TEXT    NOT NULL,
    listed       INTEGER NOT NULL,
    listed_rated INTEGER NOT NULL,
    idle         INTEGER NOT NULL,
    idle_rated   INTEGER NOT NULL,
    PRIMARY KEY (scope, bucket)
) WITHOUT ROWID;

INSERT INTO record_board_sizes (scope, bucket, listed, listed_rated, idle, idle_rated)
SELECT scope, bucket, sum(hidden = 0), sum(hidden = 0 AND rating IS NOT NULL), sum(hidden = 2),
       sum(hidden = 2 AND rating IS NOT NULL)
FROM record_stats WHERE player_id > 0 AND hidden IN (0, 2) GROUP BY scope, bucket;

CREATE TRIGGER record_board_sizes_insert AFTER INSERT ON record_stats
WHEN new.player_id > 0 AND new.hidden IN (0, 2)
BEGIN
    INSERT INTO record_board_sizes (scope, bucket, listed, listed_rated, idle, idle_rated)
    VALUES (new.scope, new.bucket, new.hidden = 0, new.hidden = 0 AND new.rating IS NOT NULL,
            new.hidden = 2, new.hidden = 2 AND new.rating IS NOT NULL)
    ON CONFLICT (scope, bucket) DO UPDATE SET listed = listed + excluded.listed,
        listed_rated = listed_rated + excluded.listed_rated, idle = idle + excluded.idle,
        idle_rated = idle_rated + excluded.idle_rated;
END;

CREATE TRIGGER record_board_sizes_delete AFTER DELETE ON record_stats
WHEN old.player_id > 0 AND old.hidden IN (0, 2)
BEGIN
    UPDATE record_board_sizes SET listed = listed - (old.hidden = 0),
        listed_rated = listed_rated - (old.hidden = 0 AND old.rating IS NOT NULL),
        idle = idle - (old.hidden = 2),
        idle_rated = idle_rated - (old.hidden = 2 AND old.rating IS NOT NULL)
    WHERE scope = old.scope AND bucket = old.bucket;
    DELETE FROM record_board_sizes
    WHERE scope = old.scope AND bucket = old.bucket AND listed = 0 AND idle = 0;
END;

-- (only when what a line counts for may change: most updates of a line change its figures)
CREATE TRIGGER record_board_sizes_update AFTER UPDATE ON record_stats
WHEN old.scope <> new.scope OR old.bucket <> new.bucket OR old.hidden <> new.hidden
    OR (old.player_id > 0) <> (new.player_id > 0) OR (old.rating IS NULL) <> (new.rating IS NULL)
BEGIN
    UPDATE record_board_sizes SET listed = listed - (old.hidden = 0),
        listed_rated = listed_rated - (old.hidden = 0 AND old.rating IS NOT NULL),
        idle = idle - (old.hidden = 2),
        idle_rated = idle_rated - (old.hidden = 2 AND old.rating IS NOT NULL)
    WHERE scope = old.scope AND bucket = old.bucket AND old.player_id > 0;
    DELETE FROM record_board_sizes
    WHERE scope = old.scope AND bucket = old.bucket AND listed = 0 AND idle = 0;
    INSERT INTO record_board_sizes (scope, bucket, listed, listed_rated, idle, idle_rated)
    SELECT new.scope, new.bucket, new.hidden = 0, new.hidden = 0 AND new.rating IS NOT NULL,
           new.hidden = 2, new.hidden = 2 AND new.rating IS NOT NULL
    WHERE new.player_id > 0 AND new.hidden IN (0, 2)
    ON CONFLICT (scope, bucket) DO UPDATE SET listed = listed + excluded.listed,
        listed_rated = listed_rated + excluded.listed_rated, idle = idle + excluded.idle,
        idle_rated = idle_rated + excluded.idle_rated;
END;
