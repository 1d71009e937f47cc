-- PostgreSQL twin of ../sqlite/0948_period_board_sizes.sql.
-- A week's or month's board's length, kept by the database as it writes the lines (like the
-- all-time boards' sizes, 0821, and the seasons', 0947; once a statement): per period, scope
-- and bucket, how many listed lines (hidden = 0) it has. A board's length is one row,
-- however many people it lists. A row goes when it counts nothing.
CREATE TABLE period_board_sizes (
    period TEXT    NOT NULL,
    scope  BIGINT  NOT NULL,
    bucket TEXT    NOT NULL,
    lines  INTEGER NOT NULL,
    PRIMARY KEY (period, scope, bucket)
);

-- backfill:begin
INSERT INTO period_board_sizes (period, scope, bucket, lines)
SELECT period, scope, bucket, count(*) FROM record_periods
WHERE hidden = 0
GROUP BY period, scope, bucket;
-- backfill:end

CREATE FUNCTION period_board_sizes_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO period_board_sizes AS b (period, scope, bucket, lines)
        SELECT period, scope, bucket, count(*) FROM new_lines
        WHERE hidden = 0
        GROUP BY period, scope, bucket
        ON CONFLICT (period, scope, bucket) DO UPDATE SET lines = b.lines + excluded.lines;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        UPDATE period_board_sizes b SET lines = b.lines - d.lines
        FROM (SELECT period, scope, bucket, count(*) AS lines FROM old_lines WHERE hidden = 0
            GROUP BY period, scope, bucket) d
        WHERE b.period = d.period AND b.scope = d.scope AND b.bucket = d.bucket;
    ELSE
        INSERT INTO period_board_sizes AS b (period, scope, bucket, lines)
        SELECT period, scope, bucket, sum(n)
        FROM (SELECT period, scope, bucket, 1 AS n FROM new_lines WHERE hidden = 0
            UNION ALL
            SELECT period, scope, bucket, -1 FROM old_lines WHERE hidden = 0) AS d
        GROUP BY period, scope, bucket
        HAVING sum(n) <> 0
        ON CONFLICT (period, scope, bucket) DO UPDATE SET lines = b.lines + excluded.lines;
    END IF;
    DELETE FROM period_board_sizes b
    WHERE b.lines = 0
        AND (b.period, b.scope, b.bucket) IN (SELECT period, scope, bucket FROM old_lines);
    RETURN NULL;
END
$$;

CREATE TRIGGER period_board_sizes_insert AFTER INSERT ON record_periods
    REFERENCING NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION period_board_sizes_written();
CREATE TRIGGER period_board_sizes_delete AFTER DELETE ON record_periods
    REFERENCING OLD TABLE AS old_lines
    FOR EACH STATEMENT EXECUTE FUNCTION period_board_sizes_written();
CREATE TRIGGER period_board_sizes_update AFTER UPDATE ON record_periods
    REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION period_board_sizes_written();
