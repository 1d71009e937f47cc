-- SQLite has no notifications: a process that runs a table across servers keeps looking at
-- the forwarded clicks (table_requests, see 0961) every 0.1 s, and an asking process at its
-- answer. Its PostgreSQL twin adds the triggers that wake either at once (NOTIFY
-- domino_requests).
SELECT 1;
