-- PostgreSQL twin of ../sqlite/0945_web_player_curve.sql.
-- The curve of a person's rating on a server's web pages (bot/web/reader.py), kept by the
-- database in the transaction that records a match, like his figures (0943): per person
-- (player_id > 0), server and family, his rating after his rated matches of the server's
-- public places, numbered in the order they were recorded (seq 1, 2, ...). The curve is
-- thinned as it grows, so that a long history stays about a hundred points and the chart
-- still shows its whole shape: of n points, the k-th is kept while n - k < 24 * (k & -k)
-- (the 24 latest; then every 2nd, every 4th, ... each for twice as long: about 12 more
-- points each time the history doubles), and the first always. A point once dropped never
-- comes back. A forget-me (his entries passed to an alias) takes his rows. The pages
-- (bot/web/reader.py CURVE_LATEST) count a curve from his entries by the same rule.
CREATE TABLE web_player_curve (
    player_id   BIGINT  NOT NULL,
    guild_id    BIGINT  NOT NULL,
    family      TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, guild_id, family, seq)
);

-- backfill:begin
INSERT INTO web_player_curve
SELECT player_id, guild_id, family, k, finished_at, mu_after, sigma_after FROM (
    SELECT e.player_id, t.guild_id, e.family, e.finished_at, e.mu_after, e.sigma_after,
           row_number() OVER (PARTITION BY e.player_id, t.guild_id, e.family
                              ORDER BY e.finished_at, e.table_id) AS k,
           count(*) OVER (PARTITION BY e.player_id, t.guild_id, e.family) AS n
    FROM record_entries e JOIN tables t ON t.id = e.table_id
    WHERE e.player_id > 0 AND e.kind = 'human' AND e.rated <> 0 AND t.public_place <> 0
      AND t.guild_id IS NOT NULL
) rated
WHERE k = 1 OR n - k < 24 * (k & -k);
-- backfill:end

CREATE FUNCTION web_player_curve_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    guild BIGINT;
    latest INTEGER;
BEGIN
    SELECT t.guild_id INTO guild FROM tables t
    WHERE t.id = NEW.table_id AND t.public_place <> 0;
    IF guild IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT coalesce(max(c.seq), 0) + 1 INTO latest FROM web_player_curve c
    WHERE c.player_id = NEW.player_id AND c.guild_id = guild AND c.family = NEW.family;
    INSERT INTO web_player_curve
    VALUES (NEW.player_id, guild, NEW.family, latest, NEW.finished_at, NEW.mu_after,
            NEW.sigma_after);
    DELETE FROM web_player_curve
    WHERE player_id = NEW.player_id AND guild_id = guild AND family = NEW.family
      AND seq > 1 AND latest - seq >= 24 * (seq & -seq);
    RETURN NULL;
END
$$;
CREATE TRIGGER web_player_curve_entry AFTER INSERT ON record_entries FOR EACH ROW
    WHEN (NEW.player_id > 0 AND NEW.kind = 'human' AND NEW.rated <> 0)
    EXECUTE FUNCTION web_player_curve_entry();

-- A forget-me: his entries go to an alias, his curves go.
CREATE FUNCTION web_player_curve_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM web_player_curve WHERE player_id = OLD.player_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER web_player_curve_forget AFTER UPDATE OF player_id ON record_entries FOR EACH ROW
    WHEN (OLD.player_id > 0 AND OLD.player_id <> NEW.player_id)
    EXECUTE FUNCTION web_player_curve_forget();
