-- Who left a scope's boards, copied onto the week's, month's and season's lines (owned by
-- bot/records/board_sql.py), as record_stats.hidden is: a board's page, its size and a place
-- are then each one range of the board's index, whoever left it (1: hidden, 0: listed).
ALTER TABLE record_periods ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
ALTER TABLE season_lines ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
UPDATE record_periods SET hidden = 1 WHERE EXISTS (SELECT 1 FROM record_privacy v
    WHERE v.user_id = record_periods.player_id AND v.scope = record_periods.scope);
UPDATE season_lines SET hidden = 1 WHERE EXISTS (SELECT 1 FROM record_privacy v
    WHERE v.user_id = season_lines.player_id AND v.scope = season_lines.scope);
DROP INDEX record_periods_board;
CREATE INDEX record_periods_board
    ON record_periods (period, scope, bucket, hidden, wins DESC, diff DESC, player_id);
DROP INDEX season_lines_board;
CREATE INDEX season_lines_board
    ON season_lines (season, scope, family, hidden, rating DESC, player_id);
