-- The bot's budget of requests to Discord, shared by every process (owned by
-- bot/store/budget.py): ``tat`` is when the budget is next free (the database's clock, Unix
-- seconds); a reservation of slots moves it on by one interval a slot, in one statement.
-- ``granted`` is how many slots the last reservation got. One row per budget ("global").
CREATE TABLE discord_budget (
    name    TEXT             NOT NULL PRIMARY KEY,
    tat     DOUBLE PRECISION NOT NULL,
    granted INTEGER          NOT NULL DEFAULT 0
);
