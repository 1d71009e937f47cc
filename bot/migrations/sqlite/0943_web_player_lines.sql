-- A person's figures on a server's web pages (bot/web/reader.py), kept by the database in the
-- transaction that records a match: only the matches of the server's public places count
-- (tables.public_place, fixed when the table opened). Per person (player_id > 0) and server:
-- a line per bucket ('all', the family, the variant), his rating per family after his
-- latest rated public match, his results against each computer he met there. A forget-me
-- (his entries passed to an alias) takes his rows. The figures follow the matches in the
-- order they were recorded (streaks: wins in a row).
CREATE TABLE web_player_lines (
    player_id      INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    bucket         TEXT    NOT NULL,
    matches        INTEGER NOT NULL,
    wins           INTEGER NOT NULL,
    losses         INTEGER NOT NULL,
    draws          INTEGER NOT NULL,
    hands_won      INTEGER NOT NULL,
    dominoes       INTEGER NOT NULL,
    blocks_won     INTEGER NOT NULL,
    points_for     INTEGER NOT NULL,
    points_against INTEGER NOT NULL,
    streak         INTEGER NOT NULL,
    best_streak    INTEGER NOT NULL,
    last_at        REAL    NOT NULL,
    PRIMARY KEY (player_id, guild_id, bucket)
) WITHOUT ROWID;
CREATE TABLE web_player_ratings (
    player_id INTEGER NOT NULL,
    guild_id  INTEGER NOT NULL,
    family    TEXT    NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    matches   INTEGER NOT NULL,
    PRIMARY KEY (player_id, guild_id, family)
) WITHOUT ROWID;
CREATE TABLE web_player_versus (
    player_id INTEGER NOT NULL,
    guild_id  INTEGER NOT NULL,
    computer  TEXT    NOT NULL,
    wins      INTEGER NOT NULL,
    losses    INTEGER NOT NULL,
    draws     INTEGER NOT NULL,
    PRIMARY KEY (player_id, guild_id, computer)
) WITHOUT ROWID;

-- backfill:begin
INSERT INTO web_player_lines
WITH pub AS (
    SELECT t.guild_id, e.player_id, e.family, m.variant, e.result, e.hands_won, e.dominoes,
           e.blocks_won, e.points_for, e.points_against, e.finished_at, e.table_id
    FROM record_entries e JOIN tables t ON t.id = e.table_id
    JOIN record_matches m ON m.table_id = e.table_id
    WHERE e.player_id > 0 AND e.kind = 'human' AND t.public_place <> 0
      AND t.guild_id IS NOT NULL
), b AS (
    SELECT 'all' AS bucket, * FROM pub
    UNION ALL SELECT family, * FROM pub
    UNION ALL SELECT variant, * FROM pub WHERE variant <> family
), g AS (
    SELECT *, sum(CASE WHEN result = 'win' THEN 0 ELSE 1 END) OVER (
        PARTITION BY player_id, guild_id, bucket ORDER BY finished_at, table_id
        ROWS UNBOUNDED PRECEDING) AS grp
    FROM b
), runs AS (
    SELECT player_id, guild_id, bucket, grp,
           sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS run
    FROM g GROUP BY player_id, guild_id, bucket, grp
), tally AS (
    SELECT player_id, guild_id, bucket, count(*) AS matches,
           sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS wins,
           sum(CASE WHEN result = 'loss' THEN 1 ELSE 0 END) AS losses,
           sum(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS draws,
           sum(hands_won) AS hands_won, sum(dominoes) AS dominoes, sum(blocks_won) AS blocks_won,
           sum(points_for) AS points_for, sum(points_against) AS points_against,
           max(grp) AS grp, max(finished_at) AS last_at
    FROM g GROUP BY player_id, guild_id, bucket
)
SELECT t.player_id, t.guild_id, t.bucket, t.matches, t.wins, t.losses, t.draws, t.hands_won,
       t.dominoes, t.blocks_won, t.points_for, t.points_against, last.run, best.run, t.last_at
FROM tally t
JOIN runs last ON last.player_id = t.player_id AND last.guild_id = t.guild_id
    AND last.bucket = t.bucket AND last.grp = t.grp
JOIN (SELECT player_id, guild_id, bucket, max(run) AS run FROM runs
      GROUP BY player_id, guild_id, bucket) best
    ON best.player_id = t.player_id AND best.guild_id = t.guild_id AND best.bucket = t.bucket;

INSERT INTO web_player_ratings
WITH rated AS (
    SELECT e.player_id, t.guild_id, e.family, e.mu_after, e.sigma_after,
           row_number() OVER (PARTITION BY e.player_id, t.guild_id, e.family
                              ORDER BY e.finished_at DESC, e.table_id DESC) AS latest,
           count(*) OVER (PARTITION BY e.player_id, t.guild_id, e.family) AS matches
    FROM record_entries e JOIN tables t ON t.id = e.table_id
    WHERE e.player_id > 0 AND e.kind = 'human' AND e.rated <> 0 AND t.public_place <> 0
      AND t.guild_id IS NOT NULL
)
SELECT player_id, guild_id, family, mu_after, sigma_after, matches FROM rated WHERE latest = 1;

INSERT INTO web_player_versus
SELECT player_id, guild_id, name,
       sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END),
       sum(CASE WHEN result = 'loss' THEN 1 ELSE 0 END),
       sum(CASE WHEN result = 'draw' THEN 1 ELSE 0 END)
FROM (
    SELECT DISTINCT e.player_id, t.guild_id, e.table_id, o.name, e.result
    FROM record_entries e JOIN tables t ON t.id = e.table_id
    JOIN record_entries o ON o.table_id = e.table_id AND o.kind = 'computer'
        AND o.side <> e.side
    WHERE e.player_id > 0 AND e.kind = 'human' AND t.public_place <> 0
      AND t.guild_id IS NOT NULL
) met
GROUP BY player_id, guild_id, name;
-- backfill:end

CREATE TRIGGER web_player_lines_entry AFTER INSERT ON record_entries
WHEN new.player_id > 0 AND new.kind = 'human'
BEGIN
    INSERT INTO web_player_lines
    SELECT new.player_id, t.guild_id,
           CASE k.k WHEN 0 THEN 'all' WHEN 1 THEN new.family ELSE m.variant END,
           1, new.result = 'win', new.result = 'loss', new.result = 'draw', new.hands_won,
           new.dominoes, new.blocks_won, new.points_for, new.points_against,
           new.result = 'win', new.result = 'win', new.finished_at
    FROM tables t JOIN record_matches m ON m.table_id = t.id
    JOIN (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) k
    WHERE t.id = new.table_id AND t.public_place <> 0 AND t.guild_id IS NOT NULL
      AND (k.k < 2 OR m.variant <> new.family)
    ON CONFLICT (player_id, guild_id, bucket) DO UPDATE SET
        matches = matches + 1, wins = wins + excluded.wins, losses = losses + excluded.losses,
        draws = draws + excluded.draws, hands_won = hands_won + excluded.hands_won,
        dominoes = dominoes + excluded.dominoes, blocks_won = blocks_won + excluded.blocks_won,
        points_for = points_for + excluded.points_for,
        points_against = points_against + excluded.points_against,
        streak = CASE WHEN excluded.wins = 1 THEN streak + 1 ELSE 0 END,
        best_streak = max(best_streak, CASE WHEN excluded.wins = 1 THEN streak + 1 ELSE 0 END),
        last_at = max(last_at, excluded.last_at);
    INSERT INTO web_player_ratings
    SELECT new.player_id, t.guild_id, new.family, new.mu_after, new.sigma_after, 1
    FROM tables t
    WHERE t.id = new.table_id AND t.public_place <> 0 AND t.guild_id IS NOT NULL
      AND new.rated <> 0
    ON CONFLICT (player_id, guild_id, family) DO UPDATE SET
        mu = excluded.mu, sigma = excluded.sigma, matches = matches + 1;
    -- the computers on the other sides already recorded (each name once)
    INSERT INTO web_player_versus
    SELECT new.player_id, t.guild_id, o.name, new.result = 'win', new.result = 'loss',
           new.result = 'draw'
    FROM tables t
    JOIN (SELECT DISTINCT name FROM record_entries WHERE table_id = new.table_id
          AND kind = 'computer' AND side <> new.side) o
    WHERE t.id = new.table_id AND t.public_place <> 0 AND t.guild_id IS NOT NULL
    ON CONFLICT (player_id, guild_id, computer) DO UPDATE SET
        wins = wins + excluded.wins, losses = losses + excluded.losses,
        draws = draws + excluded.draws;
END;

-- A computer recorded after a person of another side: met once per name.
CREATE TRIGGER web_player_versus_computer AFTER INSERT ON record_entries
WHEN new.kind = 'computer'
BEGIN
    INSERT INTO web_player_versus
    SELECT h.player_id, t.guild_id, new.name, h.result = 'win', h.result = 'loss',
           h.result = 'draw'
    FROM tables t
    JOIN record_entries h ON h.table_id = new.table_id AND h.kind = 'human'
        AND h.player_id > 0 AND h.side <> new.side
    WHERE t.id = new.table_id AND t.public_place <> 0 AND t.guild_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM record_entries c WHERE c.table_id = new.table_id
          AND c.kind = 'computer' AND c.name = new.name AND c.side <> h.side
          AND c.side <> new.side)
    ON CONFLICT (player_id, guild_id, computer) DO UPDATE SET
        wins = wins + excluded.wins, losses = losses + excluded.losses,
        draws = draws + excluded.draws;
END;

-- A forget-me: his entries go to an alias, his figures on the pages go.
CREATE TRIGGER web_player_lines_forget AFTER UPDATE OF player_id ON record_entries
WHEN old.player_id > 0 AND old.player_id <> new.player_id
BEGIN
    DELETE FROM web_player_lines WHERE player_id = old.player_id;
    DELETE FROM web_player_ratings WHERE player_id = old.player_id;
    DELETE FROM web_player_versus WHERE player_id = old.player_id;
END;
