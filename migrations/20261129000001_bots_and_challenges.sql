-- Bot accounts and challenges (rule book §15).
--
-- `bot`: 1 for a bot account (for good, once it is one). `rated_against_bots`:
-- 1 when a person agrees to rated games against bots. `accepts`: the
-- account's acceptance profile as JSON (what challenges it takes), or NULL
-- for "any challenge, any number of games".
ALTER TABLE accounts ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN rated_against_bots BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN accepts TEXT;

-- A challenge: from an account, to one (`challenged_id`, its name kept
-- beside it) or to anyone with its id (NULL). `rules` is the rule set's
-- JSON as the API gives it; `seats` the number of players, `seat` the
-- challenger's; `accepted` the JSON list, seat by seat, of the accounts
-- seated so far (id, name, bot; null for a free seat), the challenger's
-- included, `version` bumped by each change. `status`: `open`,
-- `accepted`, `declined`, `canceled`; an open one past `expires_at` is
-- expired. Its game, once full, has the challenge's id.
CREATE TABLE challenges (
    id              TEXT    PRIMARY KEY,
    challenger_id   TEXT    NOT NULL,
    challenged_id   TEXT,
    challenged_name TEXT,
    rules           TEXT    NOT NULL,
    seats           BIGINT  NOT NULL,
    seat            BIGINT  NOT NULL,
    move_limit      BIGINT,
    rated           BIGINT  NOT NULL,
    status          TEXT    NOT NULL,
    reason          TEXT,
    accepted        TEXT    NOT NULL,
    version         BIGINT  NOT NULL,
    created_at      BIGINT  NOT NULL,
    expires_at      BIGINT  NOT NULL
);
CREATE INDEX challenges_challenger ON challenges (challenger_id, created_at DESC);
CREATE INDEX challenges_challenged ON challenges (challenged_id, created_at DESC);
