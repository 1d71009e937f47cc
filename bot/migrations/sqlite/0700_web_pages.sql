-- The web companion (python -m bot web): a server's pages are shown only once its managers
-- turn them on (/domino server-settings web:on); NULL or 0 is off. web_name is the server's
-- name as it was when they last saved its settings, the pages' title. Recent finished matches
-- of a server are read newest first.
ALTER TABLE guild_settings ADD COLUMN web INTEGER;
ALTER TABLE guild_settings ADD COLUMN web_name TEXT;
CREATE INDEX record_matches_guild ON record_matches (guild_id, finished_at DESC, table_id);
