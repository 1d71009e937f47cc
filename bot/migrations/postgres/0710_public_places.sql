-- Whether the server's @everyone role could view the channel a table was opened in (a
-- thread: its channel; a private thread never): the web companion, public on the internet,
-- shows only the finished matches of such places. Tables opened before are not public
-- (unknown means hidden).
ALTER TABLE tables ADD COLUMN public_place INTEGER NOT NULL DEFAULT 0;
