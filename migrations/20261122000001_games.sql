-- Persisted games. One set for SQLite and PostgreSQL: the SQL is the same
-- (SQLite reads BIGINT as INTEGER). Times are Unix milliseconds.
CREATE TABLE games (
    id          TEXT    PRIMARY KEY,
    version     BIGINT  NOT NULL,
    rules       TEXT    NOT NULL,  -- the complete rule set, JSON
    seed        TEXT    NOT NULL,  -- u64 as decimal text
    players     TEXT    NOT NULL,  -- JSON array of player names
    position    TEXT    NOT NULL,  -- position string
    status      TEXT    NOT NULL CHECK (status IN ('opening', 'playing', 'over')),
    result      TEXT,              -- JSON, when over
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL
);
CREATE INDEX games_listing ON games (created_at DESC, id DESC);
CREATE INDEX games_status_listing ON games (status, created_at DESC, id DESC);

CREATE TABLE seats (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    player      INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    token_hash  TEXT    NOT NULL,  -- SHA-256 of the token, hex; never the token
    PRIMARY KEY (game_id, player),
    CONSTRAINT seats_token_unique UNIQUE (token_hash)
);

CREATE TABLE moves (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    ply         INTEGER NOT NULL,
    player      INTEGER NOT NULL,
    notation    TEXT    NOT NULL,
    captures    TEXT    NOT NULL,  -- JSON array of cells
    gain        INTEGER NOT NULL,
    at          BIGINT  NOT NULL,
    CONSTRAINT moves_game_ply PRIMARY KEY (game_id, ply)
);

CREATE TABLE idempotency (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    key         TEXT    NOT NULL,
    player      INTEGER NOT NULL,
    status      INTEGER NOT NULL,
    body        TEXT    NOT NULL,
    PRIMARY KEY (game_id, player, key)
);
