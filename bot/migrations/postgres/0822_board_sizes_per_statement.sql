-- PostgreSQL twin of ../sqlite/0822_board_sizes_per_statement.sql.
-- The boards' sizes (0821) counted once per statement instead of once per line: a statement
-- that writes many lines of one board (a server's idle weeks changed, its data dropped, a
-- copy's batch) changed the same row of record_board_sizes once per line, and PostgreSQL
-- walks every earlier version of a row changed again in the same transaction (300,000 lines
-- of one server: minutes instead of seconds). Each statement's lines (its transition tables)
-- now change each board's row once, by their sum.
DROP TRIGGER record_board_sizes_insert ON record_stats;
DROP TRIGGER record_board_sizes_delete ON record_stats;
DROP TRIGGER record_board_sizes_update ON record_stats;
DROP FUNCTION record_board_sizes_count();

-- What a statement's lines add to each board (negative: what its removed lines took away),
-- for the boards it changes; a board's row goes when it counts nothing.
CREATE FUNCTION record_board_sizes_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_board_sizes AS b (scope, bucket, listed, listed_rated, idle,
            idle_rated)
        SELECT scope, bucket, count(*) FILTER (WHERE hidden = 0),
            count(*) FILTER (WHERE hidden = 0 AND rating IS NOT NULL),
            count(*) FILTER (WHERE hidden = 2),
            count(*) FILTER (WHERE hidden = 2 AND rating IS NOT NULL)
        FROM new_lines WHERE player_id > 0 AND hidden IN (0, 2) GROUP BY scope, bucket
        ON CONFLICT (scope, bucket) DO UPDATE SET listed = b.listed + excluded.listed,
            listed_rated = b.listed_rated + excluded.listed_rated,
            idle = b.idle + excluded.idle, idle_rated = b.idle_rated + excluded.idle_rated;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        UPDATE record_board_sizes b SET listed = b.listed - d.listed,
            listed_rated = b.listed_rated - d.listed_rated, idle = b.idle - d.idle,
            idle_rated = b.idle_rated - d.idle_rated
        FROM (SELECT scope, bucket, count(*) FILTER (WHERE hidden = 0) AS listed,
                count(*) FILTER (WHERE hidden = 0 AND rating IS NOT NULL) AS listed_rated,
                count(*) FILTER (WHERE hidden = 2) AS idle,
                count(*) FILTER (WHERE hidden = 2 AND rating IS NOT NULL) AS idle_rated
            FROM old_lines WHERE player_id > 0 AND hidden IN (0, 2) GROUP BY scope, bucket) d
        WHERE b.scope = d.scope AND b.bucket = d.bucket;
    ELSE
        INSERT INTO record_board_sizes AS b (scope, bucket, listed, listed_rated, idle,
            idle_rated)
        SELECT scope, bucket, sum(l), sum(lr), sum(i), sum(ir)
        FROM (SELECT scope, bucket, (hidden = 0)::int AS l,
                (hidden = 0 AND rating IS NOT NULL)::int AS lr, (hidden = 2)::int AS i,
                (hidden = 2 AND rating IS NOT NULL)::int AS ir
            FROM new_lines WHERE player_id > 0 AND hidden IN (0, 2)
            UNION ALL
            SELECT scope, bucket, -(hidden = 0)::int, -(hidden = 0 AND rating IS NOT NULL)::int,
                -(hidden = 2)::int, -(hidden = 2 AND rating IS NOT NULL)::int
            FROM old_lines WHERE player_id > 0 AND hidden IN (0, 2)) AS d
        GROUP BY scope, bucket
        HAVING sum(l) <> 0 OR sum(lr) <> 0 OR sum(i) <> 0 OR sum(ir) <> 0
        ON CONFLICT (scope, bucket) DO UPDATE SET listed = b.listed + excluded.listed,
            listed_rated = b.listed_rated + excluded.listed_rated,
            idle = b.idle + excluded.idle, idle_rated = b.idle_rated + excluded.idle_rated;
    END IF;
    DELETE FROM record_board_sizes b
    WHERE b.listed = 0 AND b.idle = 0
        AND (b.scope, b.bucket) IN (SELECT scope, bucket FROM old_lines);
    RETURN NULL;
END
$$;

CREATE TRIGGER record_board_sizes_insert AFTER INSERT ON record_stats
    REFERENCING NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION record_board_sizes_written();
CREATE TRIGGER record_board_sizes_delete AFTER DELETE ON record_stats
    REFERENCING OLD TABLE AS old_lines
    FOR EACH STATEMENT EXECUTE FUNCTION record_board_sizes_written();
CREATE TRIGGER record_board_sizes_update AFTER UPDATE ON record_stats
    REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION record_board_sizes_written();
