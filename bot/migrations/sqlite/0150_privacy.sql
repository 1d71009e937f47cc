-- Servers the bot was removed from (owned by bot/records/store.py). Their per-server data
-- (leaderboard choices, server-scoped summary lines) is dropped once ``left_at`` is older than
-- the grace period; the row goes when the bot comes back or the data is dropped.
CREATE TABLE departed_guilds (
    guild_id BIGINT           NOT NULL PRIMARY KEY,
    left_at  DOUBLE PRECISION NOT NULL
);
