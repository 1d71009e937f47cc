-- PostgreSQL twin of ../sqlite/0947_season_board_sizes.sql.
-- A season's board's length, kept by the database as it writes the lines (like the all-time
-- boards' sizes, 0821 and 0944; once a statement): per season, scope and family, how many
-- listed lines (hidden = 0) have each number of matches, 50 standing for 50 or more (a
-- server's minimum is at most 50). A board of at least N matches (by rating, with the scope's
-- minimum) is the sum of its rows from N up; by wins, all its rows: a few rows, however many
-- people it lists. A row goes when it counts nothing.
CREATE TABLE season_board_sizes (
    season  TEXT    NOT NULL,
    scope   BIGINT  NOT NULL,
    family  TEXT    NOT NULL,
    matches INTEGER NOT NULL,
    lines   INTEGER NOT NULL,
    PRIMARY KEY (season, scope, family, matches)
);

-- backfill:begin
INSERT INTO season_board_sizes (season, scope, family, matches, lines)
SELECT season, scope, family, least(matches, 50), count(*) FROM season_lines
WHERE hidden = 0
GROUP BY season, scope, family, least(matches, 50);
-- backfill:end

CREATE FUNCTION season_board_sizes_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO season_board_sizes AS b (season, scope, family, matches, lines)
        SELECT season, scope, family, least(matches, 50), count(*) FROM new_lines
        WHERE hidden = 0
        GROUP BY season, scope, family, least(matches, 50)
        ON CONFLICT (season, scope, family, matches) DO UPDATE SET lines = b.lines + excluded.lines;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        UPDATE season_board_sizes b SET lines = b.lines - d.lines
        FROM (SELECT season, scope, family, least(matches, 50) AS matches, count(*) AS lines
            FROM old_lines WHERE hidden = 0
            GROUP BY season, scope, family, least(matches, 50)) d
        WHERE b.season = d.season AND b.scope = d.scope AND b.family = d.family
            AND b.matches = d.matches;
    ELSE
        INSERT INTO season_board_sizes AS b (season, scope, family, matches, lines)
        SELECT season, scope, family, matches, sum(n)
        FROM (SELECT season, scope, family, least(matches, 50) AS matches, 1 AS n
            FROM new_lines WHERE hidden = 0
            UNION ALL
            SELECT season, scope, family, least(matches, 50), -1
            FROM old_lines WHERE hidden = 0) AS d
        GROUP BY season, scope, family, matches
        HAVING sum(n) <> 0
        ON CONFLICT (season, scope, family, matches) DO UPDATE SET lines = b.lines + excluded.lines;
    END IF;
    DELETE FROM season_board_sizes b
    WHERE b.lines = 0
        AND (b.season, b.scope, b.family) IN (SELECT season, scope, family FROM old_lines);
    RETURN NULL;
END
$$;

CREATE TRIGGER season_board_sizes_insert AFTER INSERT ON season_lines
    REFERENCING NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION season_board_sizes_written();
CREATE TRIGGER season_board_sizes_delete AFTER DELETE ON season_lines
    REFERENCING OLD TABLE AS old_lines
    FOR EACH STATEMENT EXECUTE FUNCTION season_board_sizes_written();
CREATE TRIGGER season_board_sizes_update AFTER UPDATE ON season_lines
    REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION season_board_sizes_written();
