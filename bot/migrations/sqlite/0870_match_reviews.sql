-- Match reviews (owned by bot/review/store.py): the expert's judgement of one person's
-- decisions in one finished match, kept so that a review is computed once. ``version`` is the
-- judgement's version (bot/review/judge.py): a stored review of another version is computed
-- again. ``data`` is the judged decisions as JSON (moves of the person's own tiles only).
CREATE TABLE match_reviews (
    table_id   INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    data       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX match_reviews_user ON match_reviews (user_id);
