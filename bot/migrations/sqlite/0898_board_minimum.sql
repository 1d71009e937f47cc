-- A server's minimum of matches before a person is listed on its rating boards (all time and
-- the season's; NULL: the bot's default of 5). The rating boards' indexes carry the line's
-- matches, so a page, its size and a place stay one range of the index with the minimum.
ALTER TABLE guild_settings ADD COLUMN board_minimum INTEGER;
DROP INDEX record_stats_by_rating;
CREATE INDEX record_stats_by_rating
    ON record_stats (scope, bucket, hidden, rating DESC, player_id, matches);
DROP INDEX season_lines_board;
CREATE INDEX season_lines_board
    ON season_lines (season, scope, family, hidden, rating DESC, player_id, matches);
-- A season's board by wins (then by the season's rating), the order the web pages offer.
CREATE INDEX season_lines_wins
    ON season_lines (season, scope, family, hidden, wins DESC, rating DESC, player_id);
