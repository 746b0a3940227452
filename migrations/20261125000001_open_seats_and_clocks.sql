-- Open seats, resignation and move time limits (rule book §11). One set for
-- SQLite and PostgreSQL; existing games keep working (every new column is
-- empty or zero for them: all seats held, no limit, no resignation).
--
-- `games.seating`: JSON, one entry per seat, for a game with open or
-- resigned seats: `{"open": "public" | "private"}` while the seat waits for
-- someone, `{"resigned": "resigned" | "timed_out"}` once its holder resigned
-- or the clock resigned it; `{}` otherwise. NULL when every seat is simply
-- held. `open_seats` / `public_seats`: how many seats are open, and how
-- many of them are public (the lobby lists games with public ones).
-- `move_limit`: seconds a seat has for a move, NULL for none; `turn_at`:
-- when the seat to move got its turn (Unix milliseconds). A person's
-- private seat keeps the hash of its invitation in `seats.invite_hash`.
ALTER TABLE games ADD COLUMN seating TEXT;
ALTER TABLE games ADD COLUMN open_seats INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN public_seats INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN move_limit BIGINT;
ALTER TABLE games ADD COLUMN turn_at BIGINT;
ALTER TABLE seats ADD COLUMN invite_hash TEXT;

-- The lobby: games waiting with public seats, newest first.
CREATE INDEX games_lobby ON games (created_at DESC, id DESC) WHERE public_seats > 0 AND status <> 'over';
-- The clock: games with a move time limit that are not over.
CREATE INDEX games_clock ON games (turn_at) WHERE move_limit IS NOT NULL AND status <> 'over';
