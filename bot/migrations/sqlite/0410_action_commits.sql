-- An action and its turn's deadlines in one statement (one step of SQLite's thread, which under
-- load waits for Python's GIL at every step): inserting into this view inserts the action,
-- drops the table's deadlines of the kinds in clear_kinds (a JSON array) and sets those in
-- deadlines (a JSON array of [kind, due_at, seq]); a duplicate action fails all of it.
CREATE VIEW action_commits AS
    SELECT NULL AS table_id, NULL AS seq, NULL AS seat, NULL AS action, NULL AS created_at,
           NULL AS made_by, NULL AS clear_kinds, NULL AS deadlines
    WHERE 0;

CREATE TRIGGER action_commits_insert INSTEAD OF INSERT ON action_commits
BEGIN
    INSERT INTO actions (table_id, seq, seat, action, created_at, made_by)
        VALUES (NEW.table_id, NEW.seq, NEW.seat, NEW.action, NEW.created_at, NEW.made_by);
    DELETE FROM deadlines
        WHERE table_id = NEW.table_id AND kind IN (SELECT value FROM json_each(NEW.clear_kinds));
    INSERT INTO deadlines (table_id, kind, due_at, seq)
        SELECT NEW.table_id, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
               json_extract(value, '$[2]')
        FROM json_each(NEW.deadlines) WHERE true
        ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at, seq = excluded.seq;
END;
