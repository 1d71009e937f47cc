-- A Swiss event's knockout playoff of its top 4 or 8 (0: none) and its seeds once the Swiss
-- rounds are over (JSON entry numbers, best first), and how an individual event's
-- seats are filled when its people are not a multiple of four. ``seat_fill`` adds 'mixed' (byes
-- while they leave fewer seats idle, else computers) to the older ``fill`` column, whose check
-- allows only 'computer' and 'bye' (NULL: ``fill`` says).
ALTER TABLE tournaments ADD COLUMN playoff INTEGER NOT NULL DEFAULT 0 CHECK (playoff IN (0, 4, 8));
ALTER TABLE tournaments ADD COLUMN seat_fill TEXT CHECK (seat_fill IN ('computer', 'bye', 'mixed'));
ALTER TABLE tournaments ADD COLUMN playoff_seeds TEXT;
