-- The quick-match queue (bot/queue/): one place per person at a time, the tables it opened
-- (their thread's mention posted once), the servers' "Play now" posts and two server settings.
CREATE TABLE queue_entries (
    user_id INTEGER PRIMARY KEY,
    scope INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    variant TEXT NOT NULL,
    name TEXT NOT NULL,
    computers INTEGER NOT NULL,
    locale TEXT,
    joined_at REAL NOT NULL,
    fill_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX queue_entries_scope ON queue_entries (scope, joined_at);
CREATE INDEX queue_entries_guild ON queue_entries (guild_id);

CREATE TABLE queue_tables (
    table_id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    people TEXT NOT NULL,
    waited REAL NOT NULL,
    announced INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX queue_tables_unannounced ON queue_tables (guild_id) WHERE announced = 0;

CREATE TABLE queue_expired (
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    variant TEXT NOT NULL,
    locale TEXT,
    expired_at REAL NOT NULL,
    PRIMARY KEY (user_id, expired_at)
);

CREATE TABLE queue_posts (
    guild_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    locale TEXT,
    posted_at REAL NOT NULL
);

ALTER TABLE guild_settings ADD COLUMN queue_expiry INTEGER;
ALTER TABLE guild_settings ADD COLUMN queue_computers_after INTEGER;
