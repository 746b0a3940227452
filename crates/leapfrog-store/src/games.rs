//! The `games` table: a game stored with its seats, its changes other than
//! moves, and the listing.

use std::sync::LazyLock;

use super::account_events::AccountEvent;
use super::rows::{Commit, EventRow, GameRow, SeatRow};
use super::run::Tx;
use super::sql::{Arg, Args, Execute, Statement};
use super::{Backend, CHANNEL, Store, StoreError, is_unique_violation};

/// The listing filter of games waiting with public seats: never a stored
/// status.
pub const WAITING: &str = "waiting";

/// The columns of `games`, in `GameRow` order.
pub(super) const GAME_COLUMNS: [&str; 23] = [
    "id",
    "version",
    "rules",
    "seed",
    "players",
    "position",
    "status",
    "result",
    "created_at",
    "updated_at",
    "client",
    "abandoned_at",
    "computers",
    "seating",
    "open_seats",
    "public_seats",
    "move_limit",
    "turn_at",
    "rematch",
    "rated",
    "pool",
    "computer_due",
    "events",
];

/// `SELECT` of every column of `games`, followed by `rest`.
pub(super) fn select_games(rest: &str) -> String {
    format!("SELECT {} FROM games {rest}", GAME_COLUMNS.join(", "))
}

/// Each column of `g` under its name.
fn game_args(g: &GameRow) -> [(&'static str, Arg<'_>); 23] {
    [
        ("id", (&g.id).into()),
        ("version", g.version.into()),
        ("rules", (&g.rules).into()),
        ("seed", (&g.seed).into()),
        ("players", (&g.players).into()),
        ("position", (&g.position).into()),
        ("status", (&g.status).into()),
        ("result", (&g.result).into()),
        ("created_at", g.created_at.into()),
        ("updated_at", g.updated_at.into()),
        ("client", (&g.client).into()),
        ("abandoned_at", g.abandoned_at.into()),
        ("computers", (&g.computers).into()),
        ("seating", (&g.seating).into()),
        ("open_seats", g.open_seats.into()),
        ("public_seats", g.public_seats.into()),
        ("move_limit", g.move_limit.into()),
        ("turn_at", g.turn_at.into()),
        ("rematch", (&g.rematch).into()),
        ("rated", g.rated.into()),
        ("pool", (&g.pool).into()),
        ("computer_due", g.computer_due.into()),
        ("events", g.events.into()),
    ]
}

static INSERT_GAME: LazyLock<Statement> = LazyLock::new(|| {
    let values: Vec<String> = GAME_COLUMNS.iter().map(|c| format!(":{c}")).collect();
    Statement::new(&format!("INSERT INTO games ({}) VALUES ({})", GAME_COLUMNS.join(", "), values.join(", ")))
});
static INSERT_SEAT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO seats (game_id, player, name, token_hash, invite_hash, claim_hash, account_id) \
         VALUES (:game, :player, :name, :token_hash, :invite_hash, :claim_hash, :account_id)",
    )
});
/// A change other than a move: every column such a change writes, if the
/// game is still at `:old_version`.
static UPDATE_GAME: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE games SET version = :version, players = :players, position = :position, status = :status, \
         result = :result, updated_at = :updated_at, computers = :computers, seating = :seating, \
         open_seats = :open_seats, public_seats = :public_seats, turn_at = :turn_at, \
         abandoned_at = :abandoned_at, computer_due = :computer_due, events = :events \
         WHERE id = :id AND version = :old_version",
    )
});
/// A seat's new holder; its invitation stays (a private seat left opens
/// private again).
static UPDATE_SEAT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE seats SET name = :name, token_hash = :token_hash, account_id = :account_id \
         WHERE game_id = :game AND player = :player",
    )
});
/// The old game points to its rematch, one version and one event on, if
/// it has none yet and is still at `:old_version`.
static MARK_REMATCH: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE games SET rematch = :rematch, version = :version, updated_at = :at, events = :events \
         WHERE id = :id AND rematch IS NULL AND version = :old_version",
    )
});
/// PostgreSQL: tells every process that game `:game` changed.
pub(super) static NOTIFY: LazyLock<Statement> =
    LazyLock::new(|| Statement::new(&format!("SELECT pg_notify('{CHANNEL}', :game)")));
static GAME: LazyLock<Statement> = LazyLock::new(|| Statement::new(&select_games("WHERE id = :id")));
static UNFINISHED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT count(*) FROM games WHERE client = :client AND status IN ('opening', 'playing') \
         AND abandoned_at IS NULL",
    )
});
static UNFINISHED_COMPUTER: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT computers FROM games WHERE client = :client AND status IN ('opening', 'playing') \
         AND abandoned_at IS NULL AND open_seats = 0 AND computers IS NOT NULL",
    )
});

/// The listing's query shapes, one per filter, so that each uses its
/// index: games newest first (`games_listing`), of one status
/// (`games_status_listing`) or waiting with public seats (`games_lobby`,
/// asked for as the status `waiting`), from the start or after a cursor
/// (`:at`, `:id`), at most `:limit` rows. An `OR` of "no filter" and "this
/// status" in one shape made SQLite scan every game.
fn listing(status: Option<&str>, after: bool) -> &'static Statement {
    // `created_at <= :at AND (created_at < :at OR id < :id)`: the keyset
    // condition as a range on the index's leading time column.
    const AFTER: &str = "created_at <= :at AND (created_at < :at OR id < :id)";
    const LOBBY: &str = "public_seats > 0 AND status <> 'over'";
    // A game waiting for players is stored as opening (or playing, without
    // an opening): it is `waiting`, not listed under its stored status.
    const STATUS: &str = "status = :status AND open_seats = 0";
    static SHAPES: LazyLock<[Statement; 6]> = LazyLock::new(|| {
        let shape = |filter: &str| {
            let filter = if filter.is_empty() { String::new() } else { format!("WHERE {filter} ") };
            Statement::new(&select_games(&format!("{filter}ORDER BY created_at DESC, id DESC LIMIT :limit")))
        };
        [
            shape(""),
            shape(LOBBY),
            shape(STATUS),
            shape(AFTER),
            shape(&format!("{LOBBY} AND {AFTER}")),
            shape(&format!("{STATUS} AND {AFTER}")),
        ]
    });
    let filter = match status {
        None => 0,
        Some(WAITING) => 1,
        Some(_) => 2,
    };
    &SHAPES[filter + if after { 3 } else { 0 }]
}

impl Store {
    /// Stores a new game and its seats.
    ///
    /// # Errors
    ///
    /// On a database failure; nothing is stored then.
    pub async fn insert_game(&self, g: &GameRow, seats: &[SeatRow]) -> Result<(), StoreError> {
        let (g, seats) = (g.clone(), seats.to_vec());
        if self.group.writes_games() {
            // SQLite: with the moves, on the committer's own connection.
            return self.group.insert(g, seats).await;
        }
        self.transaction(move |_, tx| Box::pin(async move { Self::insert_rows(tx, &g, &seats).await })).await
    }

    /// A game's row and its seats' rows, within `tx`.
    pub(super) async fn insert_rows<E: Execute>(
        tx: &mut E,
        g: &GameRow,
        seats: &[SeatRow],
    ) -> Result<(), StoreError> {
        tx.execute(&INSERT_GAME, &game_args(g)).await?;
        for s in seats {
            let args: &Args = &[
                ("game", (&g.id).into()),
                ("player", s.player.into()),
                ("name", (&s.name).into()),
                ("token_hash", (&s.token_hash).into()),
                ("invite_hash", (&s.invite_hash).into()),
                ("claim_hash", (&s.claim_hash).into()),
                ("account_id", (&s.account_id).into()),
            ];
            tx.execute(&INSERT_SEAT, args).await?;
        }
        Ok(())
    }

    /// Stores `next`, the rematch of game `old` (at `version`), if `old`
    /// has none yet and is still at that version: `old` then points to it,
    /// one version on, with its `rematch` event, all in one transaction.
    /// A conflict when another change came first (nothing is stored then).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn insert_rematch(
        &self,
        old: &str,
        version: i64,
        event: &EventRow,
        next: &GameRow,
        seats: &[SeatRow],
    ) -> Result<Commit, StoreError> {
        let (old, event, next, seats) = (old.to_string(), event.clone(), next.clone(), seats.to_vec());
        let done = |c: &Commit| *c == Commit::Done;
        self.transaction_kept_if(done, move |s, tx| {
            Box::pin(async move { s.insert_rematch_in(tx, &old, version, &event, &next, &seats).await })
        })
        .await
    }

    async fn insert_rematch_in(
        &self,
        tx: &mut Tx<'_>,
        old: &str,
        version: i64,
        event: &EventRow,
        next: &GameRow,
        seats: &[SeatRow],
    ) -> Result<Commit, StoreError> {
        let marked = tx
            .execute(
                &MARK_REMATCH,
                &[
                    ("id", old.into()),
                    ("rematch", (&next.id).into()),
                    ("at", next.created_at.into()),
                    ("version", (version + 1).into()),
                    ("old_version", version.into()),
                    ("events", (event.seq + 1).into()),
                ],
            )
            .await?;
        if marked != 1 || Self::write_events(tx, old, std::slice::from_ref(event)).await? == Commit::Conflict
        {
            return Ok(Commit::Conflict);
        }
        Self::insert_rows(tx, next, seats).await?;
        if self.backend == Backend::Postgres {
            tx.execute(&NOTIFY, &[("game", old.into())]).await?;
        }
        Ok(Commit::Done)
    }

    /// One game.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.row(&GAME, &[("id", id.into())]).await
    }

    /// Games newest first, optionally of one status (or [`WAITING`]:
    /// waiting with public seats), after a cursor `(created_at, id)`.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn list_games(
        &self,
        status: Option<&str>,
        limit: i64,
        after: Option<(i64, String)>,
    ) -> Result<Vec<GameRow>, StoreError> {
        let args = listing_args(status, limit, after.as_ref().map(|(at, id)| (*at, id.as_str())));
        self.rows(listing(status, after.is_some()), &args).await
    }

    /// How the database would run the listing with these filters: SQLite's
    /// `EXPLAIN QUERY PLAN` or PostgreSQL's `EXPLAIN`, one line per step.
    /// For checking that each filter uses its index.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn listing_plan(&self, status: Option<&str>, after: bool) -> Result<String, StoreError> {
        let explain = match self.backend {
            Backend::Sqlite => "EXPLAIN QUERY PLAN ",
            Backend::Postgres => "EXPLAIN ",
        };
        let plan = listing(status, after).prefixed(explain);
        let args = listing_args(status, 50, after.then_some((i64::MAX, "~")));
        let lines: Vec<String> = match self.backend {
            // SQLite's plan: (id, parent, unused, detail).
            Backend::Sqlite => {
                let rows: Vec<(i64, i64, i64, String)> = self.rows(plan, &args).await?;
                rows.into_iter().map(|r| r.3).collect()
            }
            Backend::Postgres => {
                self.rows::<(String,)>(plan, &args).await?.into_iter().map(|(l,)| l).collect()
            }
        };
        Ok(lines.join("\n"))
    }

    /// The games `client` created that are neither over nor abandoned.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn unfinished_games_of(&self, client: &str) -> Result<i64, StoreError> {
        Ok(self.one::<(i64,)>(&UNFINISHED, &[("client", client.into())]).await?.0)
    }

    /// The games `client` created that are neither over nor abandoned and
    /// where the computer holds every seat.
    ///
    /// # Errors
    ///
    /// On a database failure or a damaged row.
    pub async fn unfinished_computer_games_of(&self, client: &str) -> Result<i64, StoreError> {
        // At most the client's cap of unfinished games: read and counted here.
        let rows: Vec<(String,)> = self.rows(&UNFINISHED_COMPUTER, &[("client", client.into())]).await?;
        let mut n = 0;
        for (levels,) in &rows {
            let levels: Vec<Option<String>> = serde_json::from_str(levels)
                .map_err(|e| StoreError::Damaged { what: "computers", detail: e.to_string() })?;
            n += i64::from(!levels.is_empty() && levels.iter().all(Option::is_some));
        }
        Ok(n)
    }

    /// Stores a change of a game other than a move (a seat joined or left,
    /// a resignation, an abandonment) if the stored game is still at
    /// `version`: the game's new state, its events and, if given, one
    /// seat's new holder, together or not at all. On PostgreSQL the other processes are told the game changed.
    ///
    /// # Errors
    ///
    /// On a database failure; a lost race is `Ok(Commit::Conflict)`.
    pub async fn update_game(
        &self,
        g: &GameRow,
        version: i64,
        seat: Option<&SeatRow>,
        events: &[EventRow],
        accounts: &[AccountEvent],
    ) -> Result<Commit, StoreError> {
        let (g, seat, events, accounts) = (g.clone(), seat.cloned(), events.to_vec(), accounts.to_vec());
        let done = |c: &Commit| *c == Commit::Done;
        self.transaction_kept_if(done, move |s, tx| {
            Box::pin(async move {
                Self::write_update(s.backend, tx, &g, version, seat.as_ref(), (&events, &accounts)).await
            })
        })
        .await
    }

    /// Writes a change other than a move within `tx`, which the caller
    /// commits on [`Commit::Done`] and rolls back otherwise.
    pub(super) async fn write_update(
        backend: Backend,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        g: &GameRow,
        version: i64,
        seat: Option<&SeatRow>,
        (events, accounts): (&[EventRow], &[AccountEvent]),
    ) -> Result<Commit, StoreError> {
        let updated = UPDATE_GAME
            .query(&[
                ("id", (&g.id).into()),
                ("old_version", version.into()),
                ("version", g.version.into()),
                ("players", (&g.players).into()),
                ("position", (&g.position).into()),
                ("status", (&g.status).into()),
                ("result", (&g.result).into()),
                ("updated_at", g.updated_at.into()),
                ("computers", (&g.computers).into()),
                ("seating", (&g.seating).into()),
                ("open_seats", g.open_seats.into()),
                ("public_seats", g.public_seats.into()),
                ("turn_at", g.turn_at.into()),
                ("abandoned_at", g.abandoned_at.into()),
                ("computer_due", g.computer_due.into()),
                ("events", g.events.into()),
            ])?
            .execute(&mut **tx)
            .await?
            .rows_affected();
        if updated != 1 {
            return Ok(Commit::Conflict);
        }
        if let Some(s) = seat {
            let written = UPDATE_SEAT
                .query(&[
                    ("game", (&g.id).into()),
                    ("player", s.player.into()),
                    ("name", (&s.name).into()),
                    ("token_hash", (&s.token_hash).into()),
                    ("account_id", (&s.account_id).into()),
                ])?
                .execute(&mut **tx)
                .await;
            match written {
                Ok(r) if r.rows_affected() == 1 => {}
                Ok(_) => return Ok(Commit::Conflict),
                Err(e) if is_unique_violation(&e) => return Ok(Commit::Conflict),
                Err(e) => return Err(e.into()),
            }
        }
        if Self::write_events(tx, &g.id, events).await? == Commit::Conflict {
            return Ok(Commit::Conflict);
        }
        if backend == Backend::Postgres {
            NOTIFY.query(&[("game", (&g.id).into())])?.execute(&mut **tx).await?;
        }
        Self::append_account_events(backend, tx, accounts).await?;
        Ok(Commit::Done)
    }
}

/// The listing's arguments: the status if filtered (not for `waiting`),
/// the cursor if given, the limit — in the order the listing numbers them.
fn listing_args<'a>(
    status: Option<&'a str>,
    limit: i64,
    after: Option<(i64, &'a str)>,
) -> Vec<(&'static str, Arg<'a>)> {
    let mut args = Vec::with_capacity(4);
    if let Some(status) = status.filter(|s| *s != WAITING) {
        args.push(("status", Arg::Text(status)));
    }
    if let Some((at, id)) = after {
        args.push(("at", Arg::Int(at)));
        args.push(("id", Arg::Text(id)));
    }
    args.push(("limit", Arg::Int(limit)));
    args
}
