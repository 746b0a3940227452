//! The `ratings` table: an account's Glicko-2 rating per pool, read before
//! a rated game's end and written with it, and the leaderboards.

use std::sync::LazyLock;

use super::account_events::AccountEvent;
use super::batch::{MoveWrite, write_moves};
use super::rows::{Commit, EventRow, GameRow, KeyRecord, MoveRow, SeatRow};
use super::run::Tx;
use super::sql::Statement;
use super::{Store, StoreError, is_unique_violation};

/// A rating as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    /// The account.
    pub account_id: String,
    /// The pool (`murray/orthogonal`).
    pub pool: String,
    /// Glicko rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games it counts.
    pub games: i64,
}

/// A rating to write with a game's end: the row, and the number of games
/// the row counted when read (0: no row yet).
#[derive(Debug, Clone, PartialEq)]
pub struct RatingWrite {
    /// The new rating, its `games` one more than `games_before`.
    pub row: RatingRow,
    /// What the row counted when read.
    pub games_before: i64,
}

/// What changes with a rated game's end, besides its row.
#[derive(Debug, Clone)]
pub enum EndWrite<'a> {
    /// The last move (with its key record, if any).
    Move(&'a MoveRow, Option<&'a KeyRecord>),
    /// A change of the seats (a resignation, a time-out).
    Seats(Option<&'a SeatRow>),
}

/// An [`EndWrite`] that owns its rows (it crosses to the database's
/// runtime).
enum OwnedEnd {
    Move(MoveRow, Option<KeyRecord>),
    Seats(Option<SeatRow>),
}

impl OwnedEnd {
    fn of(end: EndWrite<'_>) -> OwnedEnd {
        match end {
            EndWrite::Move(mv, key) => OwnedEnd::Move(mv.clone(), key.cloned()),
            EndWrite::Seats(seat) => OwnedEnd::Seats(seat.cloned()),
        }
    }

    fn borrow(&self) -> EndWrite<'_> {
        match self {
            OwnedEnd::Move(mv, key) => EndWrite::Move(mv, key.as_ref()),
            OwnedEnd::Seats(seat) => EndWrite::Seats(seat.as_ref()),
        }
    }
}

static RATING: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT account_id, pool, rating, deviation, volatility, games FROM ratings \
         WHERE account_id = :account_id AND pool = :pool",
    )
});
static RATINGS_OF: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT account_id, pool, rating, deviation, volatility, games FROM ratings \
         WHERE account_id = :account_id ORDER BY pool",
    )
});
static INSERT_RATING: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, updated_at) \
         VALUES (:account_id, :pool, :rating, :deviation, :volatility, :games, :at)",
    )
});
static UPDATE_RATING: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE ratings SET rating = :rating, deviation = :deviation, volatility = :volatility, \
         games = :games, updated_at = :at WHERE account_id = :account_id AND pool = :pool AND games = :games_before",
    )
});
/// The leaderboard of a pool, provisional players left out, from the top
/// or after a cursor (`:rating`, `:account_id`); a people's pool lists no
/// bot, whatever rows a bot has in it.
static LEADERBOARD: LazyLock<[Statement; 2]> = LazyLock::new(|| {
    let shape = |after: &str| {
        Statement::new(&format!(
            "SELECT r.account_id, a.name, r.rating, r.deviation, r.volatility, r.games, a.bot FROM ratings r \
             JOIN accounts a ON a.id = r.account_id WHERE r.pool = :pool AND r.deviation <= :provisional \
             AND (a.bot = 0 OR r.pool LIKE '%/bots') {after} \
             ORDER BY r.rating DESC, r.account_id LIMIT :limit"
        ))
    };
    [shape(""), shape("AND (r.rating < :rating OR (r.rating = :rating AND r.account_id > :account_id))")]
});

/// A line of a leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The account's id.
    pub account_id: String,
    /// Its name.
    pub name: String,
    /// Its rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated games it counts.
    pub games: i64,
    /// Whether the account is a bot.
    pub bot: bool,
}

impl Store {
    /// An account's rating in a pool, if it has played a rated game there.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn rating(&self, account_id: &str, pool: &str) -> Result<Option<RatingRow>, StoreError> {
        self.row(&RATING, &[("account_id", account_id.into()), ("pool", pool.into())]).await
    }

    /// An account's ratings, by pool.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn ratings_of(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.rows(&RATINGS_OF, &[("account_id", account_id.into())]).await
    }

    /// A page of a pool's leaderboard: deviation at most `provisional`,
    /// best first, after `(rating, account_id)` if given.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn leaderboard(
        &self,
        pool: &str,
        provisional: f64,
        limit: i64,
        after: Option<(f64, &str)>,
    ) -> Result<Vec<Ranked>, StoreError> {
        let mut args = vec![
            ("pool", pool.into()),
            ("provisional", super::sql::Arg::Float(provisional)),
            ("limit", limit.into()),
        ];
        if let Some((rating, id)) = after {
            args.push(("rating", super::sql::Arg::Float(rating)));
            args.push(("account_id", id.into()));
        }
        // (account_id, name, rating, deviation, volatility, games, bot)
        type Line = (String, String, f64, f64, f64, i64, i64);
        let lines: Vec<Line> = self.rows(&LEADERBOARD[usize::from(after.is_some())], &args).await?;
        let ranked = |(account_id, name, rating, deviation, _, games, bot): Line| Ranked {
            account_id,
            name,
            rating,
            deviation,
            games,
            bot: bot != 0,
        };
        Ok(lines.into_iter().map(ranked).collect())
    }

    /// Commits a rated game's end: its row (if still at `version`), its
    /// last move or seat change with its events, and every player's new rating (if each is
    /// still as read), in one transaction — or nothing. A conflict when the
    /// game moved or a rating changed meanwhile (read again and retry).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn commit_rated_end(
        &self,
        game: &GameRow,
        version: i64,
        end: EndWrite<'_>,
        (events, accounts): (&[EventRow], &[AccountEvent]),
        ratings: &[RatingWrite],
        at: i64,
    ) -> Result<Commit, StoreError> {
        let (game, ratings, end, events, accounts) =
            (game.clone(), ratings.to_vec(), OwnedEnd::of(end), events.to_vec(), accounts.to_vec());
        let done = |c: &Commit| *c == Commit::Done;
        self.transaction_kept_if(done, move |s, tx| {
            Box::pin(async move {
                s.commit_rated_end_in(tx, (&game, version), end.borrow(), (&events, &accounts), &ratings, at)
                    .await
            })
        })
        .await
    }

    async fn commit_rated_end_in(
        &self,
        tx: &mut Tx<'_>,
        (game, version): (&GameRow, i64),
        end: EndWrite<'_>,
        logs: (&[EventRow], &[AccountEvent]),
        ratings: &[RatingWrite],
        at: i64,
    ) -> Result<Commit, StoreError> {
        let done = match end {
            EndWrite::Move(mv, key) => {
                let (events, accounts) = (logs.0.to_vec(), logs.1.to_vec());
                let (game, mv, key) = (game.clone(), mv.clone(), key.cloned());
                let write = MoveWrite { game, version, mv, key, events, accounts };
                write_moves(tx, self.backend, &[&write]).await?.pop().unwrap_or(Commit::Conflict)
            }
            EndWrite::Seats(seat) => Self::write_update(self.backend, tx, game, version, seat, logs).await?,
        };
        if done == Commit::Conflict {
            return Ok(Commit::Conflict);
        }
        // In the order of the accounts' ids, as every transaction takes rows.
        let mut ordered: Vec<&RatingWrite> = ratings.iter().collect();
        ordered.sort_by(|a, b| a.row.account_id.cmp(&b.row.account_id));
        for w in ordered {
            let r = &w.row;
            let args = [
                ("account_id", (&r.account_id).into()),
                ("pool", (&r.pool).into()),
                ("rating", super::sql::Arg::Float(r.rating)),
                ("deviation", super::sql::Arg::Float(r.deviation)),
                ("volatility", super::sql::Arg::Float(r.volatility)),
                ("games", r.games.into()),
                ("at", at.into()),
            ];
            let written = if w.games_before == 0 {
                INSERT_RATING.query(&args)?.execute(&mut **tx).await
            } else {
                let mut args = args.to_vec();
                args.push(("games_before", w.games_before.into()));
                UPDATE_RATING.query(&args)?.execute(&mut **tx).await
            };
            match written {
                Ok(r) if r.rows_affected() == 1 => {}
                Ok(_) => return Ok(Commit::Conflict),
                Err(e) if is_unique_violation(&e) => return Ok(Commit::Conflict),
                Err(e) => return Err(e.into()),
            }
        }
        Ok(Commit::Done)
    }
}
