-- PostgreSQL twin of ../sqlite/0950_queue.sql.
-- The quick-match queue (bot/queue/): one place per person at a time, the tables it opened
-- (their thread's mention posted once), the servers' "Play now" posts and two server settings.
CREATE TABLE queue_entries (
    user_id BIGINT PRIMARY KEY,
    scope BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    variant TEXT NOT NULL,
    name TEXT NOT NULL,
    computers INTEGER NOT NULL,
    locale TEXT,
    joined_at DOUBLE PRECISION NOT NULL,
    fill_at DOUBLE PRECISION NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX queue_entries_scope ON queue_entries (scope, joined_at);
CREATE INDEX queue_entries_guild ON queue_entries (guild_id);

CREATE TABLE queue_tables (
    table_id BIGINT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    people TEXT NOT NULL,
    waited DOUBLE PRECISION NOT NULL,
    announced INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX queue_tables_unannounced ON queue_tables (guild_id) WHERE announced = 0;

CREATE TABLE queue_expired (
    user_id BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    variant TEXT NOT NULL,
    locale TEXT,
    expired_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, expired_at)
);

CREATE TABLE queue_posts (
    guild_id BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    locale TEXT,
    posted_at DOUBLE PRECISION NOT NULL
);

ALTER TABLE guild_settings ADD COLUMN queue_expiry INTEGER;
ALTER TABLE guild_settings ADD COLUMN queue_computers_after INTEGER;
