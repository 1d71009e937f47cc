-- PostgreSQL twin of ../sqlite/0800_periods.sql.
-- Periodic leaderboards (owned by bot/records/periods_store.py): each person's figures per
-- week (from Monday 00:00 UTC) and calendar month, per scope (0: everywhere, else a server) and
-- bucket (all, a family, a variant), ranked by wins then points difference (diff). Computers
-- and former players have no lines. Filled from the recorded matches already there.
CREATE TABLE record_periods (
    period         TEXT    NOT NULL,       -- 'week:2026-11-23' (its Monday), 'month:2026-11'
    scope          BIGINT   NOT NULL,
    bucket         TEXT    NOT NULL,
    player_id      BIGINT   NOT NULL,
    matches        INTEGER NOT NULL,
    wins           INTEGER NOT NULL,
    losses         INTEGER NOT NULL,
    draws          INTEGER NOT NULL,
    points_for     INTEGER NOT NULL,
    points_against INTEGER NOT NULL,
    diff           INTEGER NOT NULL,       -- points_for - points_against
    last_at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (period, scope, bucket, player_id)
);
CREATE INDEX record_periods_board
    ON record_periods (period, scope, bucket, wins DESC, diff DESC, player_id);
CREATE INDEX record_periods_player ON record_periods (player_id);

-- A server's channel for the past week's and month's boards; due_at is the next post's
-- deadline (on the one clock of the process that runs the server's shard).
CREATE TABLE board_channels (
    guild_id   BIGINT   NOT NULL PRIMARY KEY,
    channel_id BIGINT   NOT NULL,
    due_at     DOUBLE PRECISION NOT NULL,
    set_by     BIGINT   NOT NULL,
    set_at     DOUBLE PRECISION NOT NULL
);

-- The boards posted (once each: the post carries the nonce b.<guild>.<period>).
CREATE TABLE board_posts (
    guild_id   BIGINT   NOT NULL,
    period     TEXT    NOT NULL,
    channel_id BIGINT   NOT NULL,
    message_id BIGINT ,
    posted_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, period)
);

INSERT INTO record_periods (period, scope, bucket, player_id, matches, wins, losses, draws,
                            points_for, points_against, diff, last_at)
WITH e AS (
    SELECT e.player_id, e.result, e.points_for, e.points_against, e.finished_at, m.guild_id,
           m.family, m.variant, 'week:' || to_char(date_trunc('week', to_timestamp(e.finished_at) AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week, 'month:' || to_char(to_timestamp(e.finished_at) AT TIME ZONE 'UTC', 'YYYY-MM') AS month
    FROM record_entries e JOIN record_matches m ON m.table_id = e.table_id
    WHERE e.kind = 'human' AND e.player_id > 0 AND e.rated = 1
), p AS (
    SELECT week AS period, player_id, result, points_for, points_against, finished_at,
           guild_id, family, variant FROM e
    UNION ALL
    SELECT month, player_id, result, points_for, points_against, finished_at,
           guild_id, family, variant FROM e
), s AS (
    SELECT period, 0 AS scope, player_id, result, points_for, points_against, finished_at,
           family, variant FROM p
    UNION ALL
    SELECT period, guild_id, player_id, result, points_for, points_against, finished_at,
           family, variant FROM p WHERE guild_id IS NOT NULL
), b AS (
    SELECT period, scope, 'all' AS bucket, player_id, result, points_for, points_against,
           finished_at FROM s
    UNION ALL
    SELECT period, scope, family, player_id, result, points_for, points_against, finished_at
    FROM s
    UNION ALL
    SELECT period, scope, variant, player_id, result, points_for, points_against, finished_at
    FROM s
)
SELECT period, scope, bucket, player_id, count(*),
       sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END),
       sum(CASE WHEN result = 'loss' THEN 1 ELSE 0 END),
       sum(CASE WHEN result = 'draw' THEN 1 ELSE 0 END),
       sum(points_for), sum(points_against), sum(points_for - points_against), max(finished_at)
FROM b GROUP BY period, scope, bucket, player_id;
