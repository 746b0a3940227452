-- The computer's turns, found by an index and claimed by one process (a
-- fleet of servers on one PostgreSQL no longer loads every unfinished game
-- with a computer seat on every process every few seconds). One set for
-- SQLite and PostgreSQL.
--
-- `games.computer_due`: when the computer's turn began (Unix milliseconds)
-- in a game where a computer seat is to move; NULL when a person is to
-- move, the game waits for players or is over. `games.claimed_until`: a
-- process that picked the game up for the computer has it until then.
ALTER TABLE games ADD COLUMN computer_due BIGINT;
ALTER TABLE games ADD COLUMN claimed_until BIGINT;
-- Existing games with computer seats may be the computer's to move: each
-- is looked at once, which clears the mark where a person is to move.
UPDATE games SET computer_due = COALESCE(turn_at, updated_at) WHERE computers IS NOT NULL AND status <> 'over';
DROP INDEX games_with_computers;
CREATE INDEX games_computer_due ON games (computer_due) WHERE computer_due IS NOT NULL;
