-- PostgreSQL twin of ../sqlite/0943_web_player_lines.sql.
-- A person's figures on a server's web pages (bot/web/reader.py), kept by the database in the
-- transaction that records a match: only the matches of the server's public places count
-- (tables.public_place, fixed when the table opened). Per person (player_id > 0) and server:
-- a line per bucket ('all', the family, the variant), his rating per family after his
-- latest rated public match, his results against each computer he met there. A forget-me
-- (his entries passed to an alias) takes his rows. The figures follow the matches in the
-- order they were recorded (streaks: wins in a row).
CREATE TABLE web_player_lines (
    player_id      BIGINT  NOT NULL,
    guild_id       BIGINT  NOT NULL,
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
    last_at        DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (player_id, guild_id, bucket)
);
CREATE TABLE web_player_ratings (
    player_id BIGINT  NOT NULL,
    guild_id  BIGINT  NOT NULL,
    family    TEXT    NOT NULL,
    mu        DOUBLE PRECISION    NOT NULL,
    sigma     DOUBLE PRECISION    NOT NULL,
    matches   INTEGER NOT NULL,
    PRIMARY KEY (player_id, guild_id, family)
);
CREATE TABLE web_player_versus (
    player_id BIGINT  NOT NULL,
    guild_id  BIGINT  NOT NULL,
    computer  TEXT    NOT NULL,
    wins      INTEGER NOT NULL,
    losses    INTEGER NOT NULL,
    draws     INTEGER NOT NULL,
    PRIMARY KEY (player_id, guild_id, computer)
);

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

CREATE FUNCTION web_player_lines_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    guild BIGINT;
    variant TEXT;
    won INTEGER := CASE WHEN NEW.result = 'win' THEN 1 ELSE 0 END;
BEGIN
    SELECT t.guild_id INTO guild FROM tables t
    WHERE t.id = NEW.table_id AND t.public_place <> 0;
    IF guild IS NULL THEN
        RETURN NULL;
    END IF;
    IF NEW.kind = 'computer' THEN
        -- a computer recorded after a person of another side: met once per name
        INSERT INTO web_player_versus AS v
        SELECT h.player_id, guild, NEW.name, CASE WHEN h.result = 'win' THEN 1 ELSE 0 END,
               CASE WHEN h.result = 'loss' THEN 1 ELSE 0 END,
               CASE WHEN h.result = 'draw' THEN 1 ELSE 0 END
        FROM record_entries h
        WHERE h.table_id = NEW.table_id AND h.kind = 'human' AND h.player_id > 0
          AND h.side <> NEW.side
          AND NOT EXISTS (SELECT 1 FROM record_entries c WHERE c.table_id = NEW.table_id
              AND c.kind = 'computer' AND c.name = NEW.name AND c.side <> h.side
              AND c.side <> NEW.side)
        ON CONFLICT (player_id, guild_id, computer) DO UPDATE SET
            wins = v.wins + excluded.wins, losses = v.losses + excluded.losses,
            draws = v.draws + excluded.draws;
        RETURN NULL;
    END IF;
    IF NEW.player_id <= 0 THEN
        RETURN NULL;
    END IF;
    SELECT m.variant INTO variant FROM record_matches m WHERE m.table_id = NEW.table_id;
    INSERT INTO web_player_lines AS l
    SELECT NEW.player_id, guild, b.bucket, 1, won,
           CASE WHEN NEW.result = 'loss' THEN 1 ELSE 0 END,
           CASE WHEN NEW.result = 'draw' THEN 1 ELSE 0 END, NEW.hands_won, NEW.dominoes,
           NEW.blocks_won, NEW.points_for, NEW.points_against, won, won, NEW.finished_at
    FROM (SELECT DISTINCT bucket FROM unnest(ARRAY['all', NEW.family, variant]) AS u(bucket)
          WHERE bucket IS NOT NULL) b
    ON CONFLICT (player_id, guild_id, bucket) DO UPDATE SET
        matches = l.matches + 1, wins = l.wins + excluded.wins,
        losses = l.losses + excluded.losses, draws = l.draws + excluded.draws,
        hands_won = l.hands_won + excluded.hands_won,
        dominoes = l.dominoes + excluded.dominoes,
        blocks_won = l.blocks_won + excluded.blocks_won,
        points_for = l.points_for + excluded.points_for,
        points_against = l.points_against + excluded.points_against,
        streak = CASE WHEN excluded.wins = 1 THEN l.streak + 1 ELSE 0 END,
        best_streak = GREATEST(l.best_streak,
                               CASE WHEN excluded.wins = 1 THEN l.streak + 1 ELSE 0 END),
        last_at = GREATEST(l.last_at, excluded.last_at);
    IF NEW.rated <> 0 THEN
        INSERT INTO web_player_ratings AS r
        VALUES (NEW.player_id, guild, NEW.family, NEW.mu_after, NEW.sigma_after, 1)
        ON CONFLICT (player_id, guild_id, family) DO UPDATE SET
            mu = excluded.mu, sigma = excluded.sigma, matches = r.matches + 1;
    END IF;
    -- the computers on the other sides already recorded (each name once)
    INSERT INTO web_player_versus AS v
    SELECT NEW.player_id, guild, o.name, won,
           CASE WHEN NEW.result = 'loss' THEN 1 ELSE 0 END,
           CASE WHEN NEW.result = 'draw' THEN 1 ELSE 0 END
    FROM (SELECT DISTINCT name FROM record_entries WHERE table_id = NEW.table_id
          AND kind = 'computer' AND side <> NEW.side) o
    ON CONFLICT (player_id, guild_id, computer) DO UPDATE SET
        wins = v.wins + excluded.wins, losses = v.losses + excluded.losses,
        draws = v.draws + excluded.draws;
    RETURN NULL;
END
$$;
CREATE TRIGGER web_player_lines_entry AFTER INSERT ON record_entries FOR EACH ROW
    EXECUTE FUNCTION web_player_lines_entry();

-- A forget-me: his entries go to an alias, his figures on the pages go.
CREATE FUNCTION web_player_lines_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM web_player_lines WHERE player_id = OLD.player_id;
    DELETE FROM web_player_ratings WHERE player_id = OLD.player_id;
    DELETE FROM web_player_versus WHERE player_id = OLD.player_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER web_player_lines_forget AFTER UPDATE OF player_id ON record_entries FOR EACH ROW
    WHEN (OLD.player_id > 0 AND OLD.player_id <> NEW.player_id)
    EXECUTE FUNCTION web_player_lines_forget();
