-- The boards' sizes counted once per statement on PostgreSQL (see
-- ../postgres/0822_board_sizes_per_statement.sql). SQLite has no statement triggers and no
-- such cost: a row changed again in one transaction is changed in place. Nothing changes here.
SELECT 1;
