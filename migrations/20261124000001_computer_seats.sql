-- Computer seats (rule book §11). One set for SQLite and PostgreSQL.
--
-- `games.computers`: for a game with computer seats, a JSON array with one
-- entry per seat, the level that plays it or null for a person (NULL when
-- every seat is a person's). A computer seat's row in `seats` holds no
-- token: its `token_hash` is `computer:<game>:<player>`, never a SHA-256.
-- `moves.computer`: 1 when the computer made the move.
ALTER TABLE games ADD COLUMN computers TEXT;
ALTER TABLE moves ADD COLUMN computer BIGINT NOT NULL DEFAULT 0;
-- The games a computer may have to move in, found again after a restart.
CREATE INDEX games_with_computers ON games (updated_at) WHERE computers IS NOT NULL AND status <> 'over';
