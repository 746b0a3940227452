-- Quotas and hygiene. One set for SQLite and PostgreSQL.
--
-- `client`: who created the game (the client's address as the server saw
-- it), for the cap on unfinished games per client. `abandoned_at`: set by
-- the background sweep when a game has had no move for the configured time
-- (Unix milliseconds); an abandoned game no longer counts against its
-- creator's cap, and a move clears it.
ALTER TABLE games ADD COLUMN client TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN abandoned_at BIGINT;
CREATE INDEX games_client_unfinished ON games (client, status);

-- Idempotency keys: which move a key made, and the move it asked for, not
-- the whole answer (the answer is rebuilt from the game's history). Kept for
-- a configured time (24 h by default), then swept. The older table kept
-- whole answers forever; its records are retries' aids, not history, and
-- are not carried over.
DROP TABLE idempotency;
CREATE TABLE move_keys (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    player      INTEGER NOT NULL,
    key         TEXT    NOT NULL,
    ply         INTEGER NOT NULL,  -- the ply of the move it made
    version     BIGINT  NOT NULL,  -- the game's version after that move
    request     TEXT    NOT NULL,  -- the move asked for, in notation
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, player, key)
);
CREATE INDEX move_keys_age ON move_keys (created_at);
