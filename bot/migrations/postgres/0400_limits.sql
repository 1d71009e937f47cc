-- The limits count a person's open tables in the database (every bot process's): when he last
-- opened one is read by host.
CREATE INDEX tables_host ON tables (host_id, created_at);
