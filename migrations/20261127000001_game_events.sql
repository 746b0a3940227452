-- Each game's event log: every change of a game is one or more events,
-- numbered from 0 without gaps, written in the transaction that makes the
-- change. `data` is the event's JSON exactly as every stream sends it
-- (encoded once, when the change is made); `kind` its SSE event name.
-- Streams replay the log (`Last-Event-ID` is a `seq`), and another process
-- on PostgreSQL, told "game X changed", reads the events after the last
-- one it sent. One set for SQLite and PostgreSQL.
CREATE TABLE game_events (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    seq         BIGINT  NOT NULL,
    kind        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    at          BIGINT  NOT NULL,
    CONSTRAINT game_events_game_seq PRIMARY KEY (game_id, seq)
);
-- How many events the game's log holds: the next event's `seq`. NULL for
-- games stored before the log: their events are made from their rows
-- (moves, resignations, the end, the rematch) on their first read, once.
ALTER TABLE games ADD COLUMN events BIGINT;
