-- Per-server limits of /domino server-settings, applied when a table is opened on top of the
-- bot's own (bot/limits.py): NULL or 0 leaves the bot's.
ALTER TABLE guild_settings ADD COLUMN lobbies_per_member INTEGER;
ALTER TABLE guild_settings ADD COLUMN matches_per_member INTEGER;
ALTER TABLE guild_settings ADD COLUMN open_tables INTEGER;
ALTER TABLE guild_settings ADD COLUMN cooldown INTEGER;
