-- forget-me across processes: one row per open table of a person who asked to be forgotten,
-- until the process running that table has ended his part in it and removed him from it. The
-- person is named by a hash of his id (``user_key``), never the id; ``alias`` is the former
-- player id his place takes. While a row exists, a match of that table that finishes is
-- recorded with the alias, not him (owned by bot/records/forget.py).
CREATE TABLE forget_requests (
    table_id     BIGINT  NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_key     TEXT    NOT NULL,
    alias        BIGINT  NOT NULL,
    requested_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, user_key)
);
