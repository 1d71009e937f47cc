-- PostgreSQL twin of ../sqlite/0821_board_sizes.sql.
-- The length of each all-time board (owned by bot/records/store.py), kept by the database in
-- the transaction that writes the summary lines it counts: a board's size is one row, however
-- many people it lists. Per scope and bucket, people's lines (player_id > 0) listed on its
-- boards (hidden = 0: by wins; of those with a rating: by rating) and left off for inactivity
-- (hidden = 2). A row goes when it counts nothing, so the table is a function of
-- record_stats (a copy of the database rebuilds it as it copies the lines). Writers of
-- record_stats take the records' advisory lock first, so that two never wait for each other's
-- rows of this table.
CREATE TABLE record_board_sizes (
    scope        BIGINT  NOT NULL,
    bucket       TEXT    NOT NULL,
    listed       INTEGER NOT NULL,
    listed_rated INTEGER NOT NULL,
    idle         INTEGER NOT NULL,
    idle_rated   INTEGER NOT NULL,
    PRIMARY KEY (scope, bucket)
);

INSERT INTO record_board_sizes (scope, bucket, listed, listed_rated, idle, idle_rated)
SELECT scope, bucket, count(*) FILTER (WHERE hidden = 0),
       count(*) FILTER (WHERE hidden = 0 AND rating IS NOT NULL),
       count(*) FILTER (WHERE hidden = 2),
       count(*) FILTER (WHERE hidden = 2 AND rating IS NOT NULL)
FROM record_stats WHERE player_id > 0 AND hidden IN (0, 2) GROUP BY scope, bucket;

CREATE FUNCTION record_board_sizes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        IF OLD.player_id > 0 AND OLD.hidden IN (0, 2) THEN
            UPDATE record_board_sizes SET listed = listed - (OLD.hidden = 0)::int,
                listed_rated = listed_rated - (OLD.hidden = 0 AND OLD.rating IS NOT NULL)::int,
                idle = idle - (OLD.hidden = 2)::int,
                idle_rated = idle_rated - (OLD.hidden = 2 AND OLD.rating IS NOT NULL)::int
            WHERE scope = OLD.scope AND bucket = OLD.bucket;
            DELETE FROM record_board_sizes
            WHERE scope = OLD.scope AND bucket = OLD.bucket AND listed = 0 AND idle = 0;
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        IF NEW.player_id > 0 AND NEW.hidden IN (0, 2) THEN
            INSERT INTO record_board_sizes AS b (scope, bucket, listed, listed_rated, idle,
                idle_rated)
            VALUES (NEW.scope, NEW.bucket, (NEW.hidden = 0)::int,
                (NEW.hidden = 0 AND NEW.rating IS NOT NULL)::int, (NEW.hidden = 2)::int,
                (NEW.hidden = 2 AND NEW.rating IS NOT NULL)::int)
            ON CONFLICT (scope, bucket) DO UPDATE SET listed = b.listed + excluded.listed,
                listed_rated = b.listed_rated + excluded.listed_rated,
                idle = b.idle + excluded.idle, idle_rated = b.idle_rated + excluded.idle_rated;
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER record_board_sizes_insert AFTER INSERT ON record_stats FOR EACH ROW
    WHEN (NEW.player_id > 0 AND NEW.hidden IN (0, 2))
    EXECUTE FUNCTION record_board_sizes_count();
CREATE TRIGGER record_board_sizes_delete AFTER DELETE ON record_stats FOR EACH ROW
    WHEN (OLD.player_id > 0 AND OLD.hidden IN (0, 2))
    EXECUTE FUNCTION record_board_sizes_count();
-- (only when what a line counts for may change: most updates of a line change its figures)
CREATE TRIGGER record_board_sizes_update AFTER UPDATE ON record_stats FOR EACH ROW
    WHEN (OLD.scope <> NEW.scope OR OLD.bucket <> NEW.bucket OR OLD.hidden <> NEW.hidden
        OR (OLD.player_id > 0) <> (NEW.player_id > 0)
        OR (OLD.rating IS NULL) <> (NEW.rating IS NULL))
    EXECUTE FUNCTION record_board_sizes_count();
