-- Which process runs each shard's tables (owned by bot/store/leases.py). A process runs a
-- shard's clock and feeds only while it holds the shard's lease, renewing ``expires_at`` on a
-- heartbeat; another process may take the shard once ``expires_at`` has passed. Times are the
-- database's own clock (Unix seconds), so the processes' clocks never have to agree.
CREATE TABLE shard_leases (
    shard_id    INTEGER          NOT NULL PRIMARY KEY,
    shard_count INTEGER          NOT NULL CHECK (shard_count > 0 AND shard_id < shard_count),
    owner       TEXT             NOT NULL,
    epoch       BIGINT           NOT NULL DEFAULT 1,  -- one more at every change of owner
    acquired_at DOUBLE PRECISION NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL
);
