-- Accounts and their personal access tokens (rule book §13). One set for
-- SQLite and PostgreSQL.
--
-- `accounts.name_key`: the name in lower case, unique: `Ann` and `ann` are
-- one account. `accounts.password`: the Argon2id hash of the password in
-- the PHC string format, never the password.
-- `account_tokens.token_hash`: SHA-256 (hex) of the token's secret, never
-- the secret; `scopes`: comma-separated (`play`, `account`).
-- `seats.account_id`: the account that holds a seat, when one does; set to
-- NULL when the account is deleted (the seat keeps its name).
CREATE TABLE accounts (
    id          TEXT    PRIMARY KEY,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL UNIQUE,
    password    TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

CREATE TABLE account_tokens (
    id          TEXT    PRIMARY KEY,
    account_id  TEXT    NOT NULL REFERENCES accounts (id),
    label       TEXT    NOT NULL,
    scopes      TEXT    NOT NULL,
    token_hash  TEXT    NOT NULL UNIQUE,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX account_tokens_account ON account_tokens (account_id);

ALTER TABLE seats ADD COLUMN account_id TEXT;
CREATE INDEX seats_account ON seats (account_id);
