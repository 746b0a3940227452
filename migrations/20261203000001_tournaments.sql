-- Tournaments (rule book §17).
--
-- An event: `format` is `round_robin`, `double_round_robin`, `swiss` or
-- `arena`; `rules` the rule set's JSON as the API gives it; `rounds` a
-- Swiss's number of rounds; `all_at_once` a correspondence round-robin
-- pairing every game at the start; `move_limit` seconds a move (a
-- correspondence event's days times 86400, `correspondence` 1);
-- `duration_ms` an arena's. `starts_at`: when it starts by itself (NULL:
-- when its creator says). `bots`: 1 when bots may join; `invited`: the
-- JSON list of the account ids invited (NULL: open to all). `status`:
-- `open`, `running`, `over` or `canceled`; `round` the round being played
-- (0 before the first); `version` bumped by each change, so that of two
-- processes pairing a round one writes.
CREATE TABLE tournaments (
    id              TEXT    PRIMARY KEY,
    creator_id      TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    format          TEXT    NOT NULL,
    rules           TEXT    NOT NULL,
    rated           BIGINT  NOT NULL,
    rounds          BIGINT,
    all_at_once     BIGINT  NOT NULL,
    move_limit      BIGINT,
    correspondence  BIGINT  NOT NULL,
    duration_ms     BIGINT,
    min_players     BIGINT  NOT NULL,
    max_players     BIGINT  NOT NULL,
    starts_at       BIGINT,
    bots            BIGINT  NOT NULL,
    invited         TEXT,
    status          TEXT    NOT NULL,
    round           BIGINT  NOT NULL,
    version         BIGINT  NOT NULL,
    created_at      BIGINT  NOT NULL,
    started_at      BIGINT,
    ended_at        BIGINT
);
CREATE INDEX tournaments_listed ON tournaments (status, created_at DESC);
CREATE INDEX tournaments_creator ON tournaments (creator_id, created_at DESC);

-- An event's players: `seed` their place in the roster, set at the start
-- (by rating, then joining time); `rating` the rating they joined with;
-- `withdrawn_at` when they left a running event (or were withdrawn);
-- `timeouts` the games of the event they lost on time.
CREATE TABLE tournament_players (
    tournament_id   TEXT    NOT NULL,
    account_id      TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    bot             BIGINT  NOT NULL,
    rating          BIGINT  NOT NULL,
    joined_at       BIGINT  NOT NULL,
    seed            BIGINT,
    withdrawn_at    BIGINT,
    timeouts        BIGINT  NOT NULL DEFAULT 0,
    CONSTRAINT tournament_players_key PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players (account_id);

-- An event's games, round by round: `game_id` NULL for a bye (`first_id`
-- the player sitting out); `outcome` (`first`, `second` or `draw`) copied
-- from the game when it ends; `forfeit` 1 for a game decided without
-- being played over the board.
CREATE TABLE tournament_games (
    tournament_id   TEXT    NOT NULL,
    round           BIGINT  NOT NULL,
    board           BIGINT  NOT NULL,
    game_id         TEXT,
    first_id        TEXT    NOT NULL,
    second_id       TEXT,
    outcome         TEXT,
    forfeit         BIGINT  NOT NULL DEFAULT 0,
    CONSTRAINT tournament_games_key PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_games_game ON tournament_games (game_id);
