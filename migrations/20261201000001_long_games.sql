-- Long games (rule book §11, §16): vacation days, conditional moves and
-- webhooks.

-- Vacation: the days an account has left in `vacation_year` (UTC); in a
-- later year it starts again from the server's allowance. `vacation_until`:
-- the end of a vacation started ahead (Unix milliseconds), NULL for none.
ALTER TABLE accounts ADD COLUMN vacation_left BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN vacation_year BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN vacation_from BIGINT;
ALTER TABLE accounts ADD COLUMN vacation_until BIGINT;

-- A seat's conditional moves: `lines` (JSON, lists of plies, the
-- opponent's first) stand for the position at ply `ply`, when the
-- opponent is to move; private to the seat until played.
CREATE TABLE conditional_moves (
    game_id     TEXT    NOT NULL,
    player      BIGINT  NOT NULL,
    ply         BIGINT  NOT NULL,
    lines       TEXT    NOT NULL,
    updated_at  BIGINT  NOT NULL,
    CONSTRAINT conditional_moves_seat PRIMARY KEY (game_id, player)
);

-- An account's webhook endpoints. `events`: the kinds sent, as
-- `,kind,kind,` (`*`: all). `secret` signs deliveries (it must be kept to
-- sign); `old_secret` signs too until `old_until`, during a rotation.
-- `failing_since`: the first failure since the last success; `disabled`:
-- why it was switched off (NULL while on).
CREATE TABLE webhooks (
    id              TEXT    PRIMARY KEY,
    account_id      TEXT    NOT NULL REFERENCES accounts (id),
    url             TEXT    NOT NULL,
    events          TEXT    NOT NULL,
    secret          TEXT    NOT NULL,
    old_secret      TEXT,
    old_until       BIGINT,
    created_at      BIGINT  NOT NULL,
    failing_since   BIGINT,
    disabled        TEXT
);
CREATE INDEX webhooks_account ON webhooks (account_id);

-- The outbox: one row per event and endpoint, written in the transaction
-- of the event. `id` is the `webhook-id` every try sends. `status`:
-- `pending` (tried at `next_at`), `delivered`, `failed` (every try spent),
-- `dropped` (its endpoint was switched off or deleted). A process holds a
-- delivery it is sending until `claimed_until`, under its `claim` (random,
-- one a claiming round).
CREATE TABLE webhook_deliveries (
    id              TEXT    PRIMARY KEY,
    webhook_id      TEXT    NOT NULL,
    kind            TEXT    NOT NULL,
    body            TEXT    NOT NULL,
    created_at      BIGINT  NOT NULL,
    status          TEXT    NOT NULL,
    tries           BIGINT  NOT NULL DEFAULT 0,
    next_at         BIGINT,
    claimed_until   BIGINT  NOT NULL DEFAULT 0,
    claim           TEXT,
    last_status     BIGINT,
    last_error      TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_claim ON webhook_deliveries (claim) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at);
