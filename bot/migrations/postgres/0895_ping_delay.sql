-- A server's idle ping: seconds a person may be idle on his turn before the bot mentions him
-- (NULL: the bot's default; 0: no pings at this server's tables).
ALTER TABLE guild_settings ADD COLUMN ping_delay INTEGER;
