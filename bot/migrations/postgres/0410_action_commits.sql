-- SQLite gets a view that writes an action with its turn's deadlines in one statement; on
-- PostgreSQL one statement with WITH does it (bot/store/repositories.py): nothing to create.
SELECT 1;
