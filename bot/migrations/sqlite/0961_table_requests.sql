-- Clicks at a table across servers that reached a process which does not run the table (its
-- server is another process's): owned by bot/store/places.py. The process that runs the table
-- applies each request and writes the answer (the seat that acted, whether the hand ended, or
-- the error as JSON: its class, template and parameters); the asking process reads it back.
-- One request per person and table state (``seq``): a second click for the same state is the
-- same request.
CREATE TABLE table_requests (
    table_id    BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    seq         INTEGER          NOT NULL,
    action      TEXT             NOT NULL,
    made_at     DOUBLE PRECISION NOT NULL,
    answered_at DOUBLE PRECISION,
    seat        INTEGER,
    hand_ended  INTEGER          NOT NULL DEFAULT 0,
    error       TEXT,
    PRIMARY KEY (table_id, user_id, seq)
);
CREATE INDEX table_requests_open ON table_requests (answered_at);
