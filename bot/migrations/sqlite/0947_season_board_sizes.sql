-- A season's board's length, kept by the database as it writes the lines (like the all-time
-- boards' sizes, 0821 and 0944): per season, scope and family, how many listed lines
-- (hidden = 0) have each number of matches, 50 standing for 50 or more (a server's minimum is
-- at most 50). A board of at least N matches (by rating, with the scope's minimum) is the
-- sum of its rows from N up; by wins, all its rows: a few rows, however many people it
-- lists. A row goes when it counts nothing.
CREATE TABLE season_board_sizes (
    season  TEXT    NOT NULL,
    scope   INTEGER NOT NULL,
    family  TEXT    NOT NULL,
    matches INTEGER NOT NULL,
    lines   INTEGER NOT NULL,
    PRIMARY KEY (season, scope, family, matches)
) WITHOUT ROWID;

-- backfill:begin
INSERT INTO season_board_sizes (season, scope, family, matches, lines)
SELECT season, scope, family, min(matches, 50), count(*) FROM season_lines
WHERE hidden = 0
GROUP BY season, scope, family, min(matches, 50);
-- backfill:end

CREATE TRIGGER season_board_sizes_insert AFTER INSERT ON season_lines
WHEN new.hidden = 0
BEGIN
    INSERT INTO season_board_sizes (season, scope, family, matches, lines)
    VALUES (new.season, new.scope, new.family, min(new.matches, 50), 1)
    ON CONFLICT (season, scope, family, matches) DO UPDATE SET lines = lines + 1;
END;

CREATE TRIGGER season_board_sizes_delete AFTER DELETE ON season_lines
WHEN old.hidden = 0
BEGIN
    UPDATE season_board_sizes SET lines = lines - 1
    WHERE season = old.season AND scope = old.scope AND family = old.family
        AND matches = min(old.matches, 50);
    DELETE FROM season_board_sizes
    WHERE season = old.season AND scope = old.scope AND family = old.family
        AND matches = min(old.matches, 50) AND lines = 0;
END;

-- (a line's rating and wins change with each match: nothing to count unless it is listed or
-- left off, moves to another count of matches, or to another board)
CREATE TRIGGER season_board_sizes_update AFTER UPDATE ON season_lines
WHEN (old.hidden = 0 OR new.hidden = 0)
    AND NOT (old.hidden = new.hidden AND min(old.matches, 50) = min(new.matches, 50)
        AND old.season = new.season AND old.scope = new.scope AND old.family = new.family)
BEGIN
    UPDATE season_board_sizes SET lines = lines - 1
    WHERE season = old.season AND scope = old.scope AND family = old.family
        AND matches = min(old.matches, 50) AND old.hidden = 0;
    DELETE FROM season_board_sizes
    WHERE season = old.season AND scope = old.scope AND family = old.family
        AND matches = min(old.matches, 50) AND lines = 0;
    INSERT INTO season_board_sizes (season, scope, family, matches, lines)
    SELECT new.season, new.scope, new.family, min(new.matches, 50), 1
    WHERE new.hidden = 0
    ON CONFLICT (season, scope, family, matches) DO UPDATE SET lines = lines + 1;
END;
