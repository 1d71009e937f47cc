-- The computer level "expert" gets its own fixed player id (-5, bot/records/record.py), like the
-- other levels. Matches it played before were recorded under an id derived from its name
-- (-(1000 + crc32("expert") mod 10^9) = -327208234): they move to the fixed id, so its figures,
-- rating and the people's results against it stay whole.
UPDATE record_entries SET player_id = -5 WHERE player_id = -327208234;
UPDATE record_stats SET player_id = -5 WHERE player_id = -327208234;
UPDATE record_ratings SET player_id = -5 WHERE player_id = -327208234;
UPDATE record_players SET player_id = -5 WHERE player_id = -327208234;
