-- Each account's event log (rule book §15): what concerns the account —
-- challenges sent to it or answered, its games started, its turns, their
-- ends — one row an event, numbered from 0 without gaps per account,
-- written in the transaction of the change it tells of. `data` is the
-- event's JSON exactly as the account's streams send it; `kind` its SSE
-- event name. `accounts.events` is the next number.
CREATE TABLE account_events (
    account_id  TEXT    NOT NULL,
    seq         BIGINT  NOT NULL,
    kind        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    at          BIGINT  NOT NULL,
    CONSTRAINT account_events_account_seq PRIMARY KEY (account_id, seq)
);
ALTER TABLE accounts ADD COLUMN events BIGINT NOT NULL DEFAULT 0;
