-- Take-overs are published from the store, like hand results: the action after which a
-- computer took a person's seats is made_by 'takeover' (a time-out like 'timeout'), and the
-- feed marks how far they were announced (take-overs of actions before this number).
ALTER TABLE feeds ADD COLUMN takeovers_announced INTEGER NOT NULL DEFAULT 0;
