-- PostgreSQL twin of ../sqlite/0944_board_short_lines.sql.
-- A rating board's length under a server's minimum of matches (guild_settings.board_minimum,
-- at most 50), kept by the database like the boards' sizes (0821, 0822: once a statement):
-- per scope, bucket and number of matches below 50, how many people's lines of its rating
-- board (listed, rated) have that many. A board of at least N matches is its rated lines
-- (record_board_sizes) less those with fewer: a few rows, however many people it lists. A
-- row goes when it counts nothing.
CREATE TABLE record_board_short (
    scope   BIGINT  NOT NULL,
    bucket  TEXT    NOT NULL,
    matches INTEGER NOT NULL,
    lines   INTEGER NOT NULL,
    PRIMARY KEY (scope, bucket, matches)
);

-- backfill:begin
INSERT INTO record_board_short (scope, bucket, matches, lines)
SELECT scope, bucket, matches, count(*) FROM record_stats
WHERE player_id > 0 AND hidden = 0 AND rating IS NOT NULL AND matches < 50
GROUP BY scope, bucket, matches;
-- backfill:end

CREATE FUNCTION record_board_short_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_board_short AS b (scope, bucket, matches, lines)
        SELECT scope, bucket, matches, count(*) FROM new_lines
        WHERE player_id > 0 AND hidden = 0 AND rating IS NOT NULL AND matches < 50
        GROUP BY scope, bucket, matches
        ON CONFLICT (scope, bucket, matches) DO UPDATE SET lines = b.lines + excluded.lines;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        UPDATE record_board_short b SET lines = b.lines - d.lines
        FROM (SELECT scope, bucket, matches, count(*) AS lines FROM old_lines
            WHERE player_id > 0 AND hidden = 0 AND rating IS NOT NULL AND matches < 50
            GROUP BY scope, bucket, matches) d
        WHERE b.scope = d.scope AND b.bucket = d.bucket AND b.matches = d.matches;
    ELSE
        INSERT INTO record_board_short AS b (scope, bucket, matches, lines)
        SELECT scope, bucket, matches, sum(n)
        FROM (SELECT scope, bucket, matches, 1 AS n FROM new_lines
            WHERE player_id > 0 AND hidden = 0 AND rating IS NOT NULL AND matches < 50
            UNION ALL
            SELECT scope, bucket, matches, -1 FROM old_lines
            WHERE player_id > 0 AND hidden = 0 AND rating IS NOT NULL AND matches < 50) AS d
        GROUP BY scope, bucket, matches
        HAVING sum(n) <> 0
        ON CONFLICT (scope, bucket, matches) DO UPDATE SET lines = b.lines + excluded.lines;
    END IF;
    DELETE FROM record_board_short b
    WHERE b.lines = 0 AND (b.scope, b.bucket) IN (SELECT scope, bucket FROM old_lines);
    RETURN NULL;
END
$$;

CREATE TRIGGER record_board_short_insert AFTER INSERT ON record_stats
    REFERENCING NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION record_board_short_written();
CREATE TRIGGER record_board_short_delete AFTER DELETE ON record_stats
    REFERENCING OLD TABLE AS old_lines
    FOR EACH STATEMENT EXECUTE FUNCTION record_board_short_written();
CREATE TRIGGER record_board_short_update AFTER UPDATE ON record_stats
    REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION record_board_short_written();
