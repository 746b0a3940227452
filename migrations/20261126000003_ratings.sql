-- Rated games and Glicko-2 ratings (rule book §13). One set for SQLite and
-- PostgreSQL.
--
-- `games.rated`: 1 for a rated game. Its rating changes are written into
-- its `result` when it ends, in the same transaction as the end.
-- `ratings`: an account's rating in one pool (`murray/orthogonal`), with
-- the number of rated games it counts; a row is written by the end of the
-- account's first rated game in the pool, and each later end checks the
-- count it read (so two ends never overwrite each other).
-- `games.pool`: the preset and direction set (`murray/orthogonal`) of a
-- game whose rules are a preset's at some size, for filtering an
-- account's games; NULL for custom rules and for games stored before it.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN pool TEXT;

CREATE TABLE ratings (
    account_id  TEXT             NOT NULL,
    pool        TEXT             NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT           NOT NULL,
    updated_at  BIGINT           NOT NULL,
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX ratings_leaderboard ON ratings (pool, rating DESC, account_id);
