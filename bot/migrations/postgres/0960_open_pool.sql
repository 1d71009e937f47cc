-- Open tables across servers (owned by bot/store/places.py).
-- pool_servers: the servers whose managers joined the open pool (no row: not in it).
-- pool_opt_outs: the people who asked never to be seated with people of other servers.
-- table_places: each place (server, channel) a table across servers is shown in, place 0 the
-- owner's; written with the table. Each place has its own thread, game message and marks of
-- what was published there (as ``feeds`` for a table of one place); ``people`` are the ids of
-- the players who play from that place (JSON list). A place that is dropped (its server left
-- the pool, removed the bot or deleted the channel) loses its row.
CREATE TABLE pool_servers (
    guild_id  BIGINT           NOT NULL PRIMARY KEY,
    joined_at DOUBLE PRECISION NOT NULL,
    set_by    BIGINT
);
CREATE TABLE pool_opt_outs (
    user_id BIGINT           NOT NULL PRIMARY KEY,
    at      DOUBLE PRECISION NOT NULL
);
CREATE TABLE table_places (
    table_id            BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    place               INTEGER NOT NULL,
    guild_id            BIGINT  NOT NULL,
    channel_id          BIGINT  NOT NULL,
    thread_id           BIGINT,
    message_id          BIGINT,
    people              TEXT    NOT NULL,
    shown_seq           INTEGER NOT NULL DEFAULT -1,
    game_hand           INTEGER,
    hands_announced     INTEGER NOT NULL DEFAULT 0,
    match_announced     INTEGER NOT NULL DEFAULT 0,
    takeovers_announced INTEGER NOT NULL DEFAULT 0,
    ping_message_id     BIGINT,
    ping_turn           INTEGER,
    ping_stage          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, place)
);
CREATE INDEX table_places_guild ON table_places (guild_id);
CREATE INDEX table_places_channel ON table_places (channel_id);
