-- A person's results against each computer level, per scope (0: everywhere, else a guild id),
-- kept with every recorded match (bot/records/store.py) so that /domino stats reads a few rows
-- however many matches he played. A match counts once against each computer level among the
-- person's opponents (computer partners do not count).
CREATE TABLE record_versus (
    scope       INTEGER NOT NULL,
    player_id   INTEGER NOT NULL,
    computer_id INTEGER NOT NULL,         -- the level's pseudo-player id (record_players names it)
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, player_id, computer_id)
) WITHOUT ROWID;

-- The matches recorded before: every scope a person has summary lines in.
CREATE TEMPORARY TABLE versus_before AS
SELECT DISTINCT e.table_id, e.player_id, e.result, o.player_id AS computer_id
FROM record_entries e
JOIN record_entries o ON o.table_id = e.table_id AND o.side <> e.side
WHERE e.player_id > 0 AND o.kind = 'computer';

INSERT INTO record_versus (scope, player_id, computer_id, wins, losses, draws)
SELECT 0, v.player_id, v.computer_id,
       sum(CASE WHEN v.result = 'win' THEN 1 ELSE 0 END),
       sum(CASE WHEN v.result = 'loss' THEN 1 ELSE 0 END),
       sum(CASE WHEN v.result = 'draw' THEN 1 ELSE 0 END)
FROM versus_before v
GROUP BY v.player_id, v.computer_id;

INSERT INTO record_versus (scope, player_id, computer_id, wins, losses, draws)
SELECT m.guild_id, v.player_id, v.computer_id,
       sum(CASE WHEN v.result = 'win' THEN 1 ELSE 0 END),
       sum(CASE WHEN v.result = 'loss' THEN 1 ELSE 0 END),
       sum(CASE WHEN v.result = 'draw' THEN 1 ELSE 0 END)
FROM versus_before v
JOIN record_matches m ON m.table_id = v.table_id
WHERE m.guild_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM record_stats s
    WHERE s.scope = m.guild_id AND s.bucket = 'all' AND s.player_id = v.player_id
)
GROUP BY m.guild_id, v.player_id, v.computer_id;

DROP TABLE versus_before;
