-- PostgreSQL twin of ../sqlite/0962_request_notices.sql.
-- A click forwarded between processes (table_requests, see 0961) wakes the process that runs
-- its table at once: NOTIFY domino_requests with the table's id, sent when the asking
-- transaction commits (bot/store/notices.py). The process that runs the table also looks at the
-- table every few seconds, for a notification lost while its listening connection was down.
CREATE FUNCTION table_request_made() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('domino_requests', NEW.table_id::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER table_request_made AFTER INSERT ON table_requests
    FOR EACH ROW EXECUTE FUNCTION table_request_made();
