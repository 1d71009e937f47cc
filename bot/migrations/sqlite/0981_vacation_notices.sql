-- A vacation's work at each correspondence table it pauses, written in the transaction that
-- stores the vacation: the process that runs the table moves its turn's deadlines (paused),
-- then posts the notice once in each place of the table (posted). Place 0 is a table's own
-- place; a table across servers has a row for each of its places (table_places).
CREATE TABLE vacation_notices (
    user_id    BIGINT           NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    table_id   BIGINT           NOT NULL,
    place      INTEGER          NOT NULL,
    ends_at    DOUBLE PRECISION NOT NULL,
    paused     INTEGER          NOT NULL DEFAULT 0,
    posted     INTEGER          NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, started_at, table_id, place)
);
CREATE INDEX vacation_notices_unpaused ON vacation_notices (table_id) WHERE paused = 0;
CREATE INDEX vacation_notices_unposted ON vacation_notices (table_id, place) WHERE posted = 0;
