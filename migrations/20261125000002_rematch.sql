-- Play again (rule book §11 as the service applies it). One set for SQLite
-- and PostgreSQL.
--
-- `games.rematch`: the id of the game that replays this one, once a seat
-- asked for it (the first ask creates it; every later one finds it).
-- `seats.claim_hash`: in a rematch, the hash of the old seat's token: its
-- holder claims the new seat with the old token and gets the new one.
ALTER TABLE games ADD COLUMN rematch TEXT;
ALTER TABLE seats ADD COLUMN claim_hash TEXT;
