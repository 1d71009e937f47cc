-- The event of a server that finished last (its winners hold the server's tournament winners'
-- role): read by guild and finishing time.
CREATE INDEX tournament_places_server ON tournament_places (guild_id, finished_at);
