-- PostgreSQL twin of ../sqlite/0962_request_notices.sql.
-- A click forwarded between processes (table_requests, see 0961) wakes the process that runs
-- its table at once: NOTIFY domino_requests with the table's id; its answer wakes the asking
-- process: 'a' and the table's id. Both are sent when the writing transaction commits
-- (bot/store/notices.py); each side also looks every few seconds, for a notification lost
-- while its listening connection was down.
CREATE FUNCTION table_request_noticed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('domino_requests', NEW.table_id::text);
    ELSE
        PERFORM pg_notify('domino_requests', 'a' || NEW.table_id);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER table_request_made AFTER INSERT ON table_requests
    FOR EACH ROW EXECUTE FUNCTION table_request_noticed();
CREATE TRIGGER table_request_answered AFTER UPDATE OF answered_at ON table_requests
    FOR EACH ROW WHEN (NEW.answered_at IS NOT NULL AND OLD.answered_at IS NULL)
    EXECUTE FUNCTION table_request_noticed();
