-- A week's or month's board's length, kept by the database as it writes the lines (like the
-- all-time boards' sizes, 0821, and the seasons', 0947): per period, scope and bucket, how
-- many listed lines (hidden = 0) it has. A board's length is one row, however many people it
-- lists. A row goes when it counts nothing.
CREATE TABLE period_board_sizes (
    period TEXT    NOT NULL,
    scope  INTEGER NOT NULL,
    bucket TEXT    NOT NULL,
    lines  INTEGER NOT NULL,
    PRIMARY KEY (period, scope, bucket)
) WITHOUT ROWID;

-- backfill:begin
INSERT INTO period_board_sizes (period, scope, bucket, lines)
SELECT period, scope, bucket, count(*) FROM record_periods
WHERE hidden = 0
GROUP BY period, scope, bucket;
-- backfill:end

CREATE TRIGGER period_board_sizes_insert AFTER INSERT ON record_periods
WHEN new.hidden = 0
BEGIN
    INSERT INTO period_board_sizes (period, scope, bucket, lines)
    VALUES (new.period, new.scope, new.bucket, 1)
    ON CONFLICT (period, scope, bucket) DO UPDATE SET lines = lines + 1;
END;

CREATE TRIGGER period_board_sizes_delete AFTER DELETE ON record_periods
WHEN old.hidden = 0
BEGIN
    UPDATE period_board_sizes SET lines = lines - 1
    WHERE period = old.period AND scope = old.scope AND bucket = old.bucket;
    DELETE FROM period_board_sizes
    WHERE period = old.period AND scope = old.scope AND bucket = old.bucket AND lines = 0;
END;

-- (a line's figures change with each match: nothing to count unless it is listed or left
-- off, or moves to another board)
CREATE TRIGGER period_board_sizes_update AFTER UPDATE ON record_periods
WHEN (old.hidden = 0 OR new.hidden = 0)
    AND NOT (old.hidden = new.hidden AND old.period = new.period AND old.scope = new.scope
        AND old.bucket = new.bucket)
BEGIN
    UPDATE period_board_sizes SET lines = lines - 1
    WHERE period = old.period AND scope = old.scope AND bucket = old.bucket AND old.hidden = 0;
    DELETE FROM period_board_sizes
    WHERE period = old.period AND scope = old.scope AND bucket = old.bucket AND lines = 0;
    INSERT INTO period_board_sizes (period, scope, bucket, lines)
    SELECT new.period, new.scope, new.bucket, 1
    WHERE new.hidden = 0
    ON CONFLICT (period, scope, bucket) DO UPDATE SET lines = lines + 1;
END;
