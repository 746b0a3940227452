//! The `challenges` table: a challenge by its id, an account's challenges
//! newest first, acceptances recorded if the challenge is still as read,
//! and the last acceptance written with its game in one transaction —
//! the game's id is the challenge's, so however many accept at once, one
//! game is made.

use std::sync::LazyLock;

use super::account_events::AccountEvent;
use super::rows::{GameRow, SeatRow};
use super::sql::Statement;
use super::{Store, StoreError, is_unique_violation};

/// A challenge as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ChallengeRow {
    /// Its id (a UUID), also its game's.
    pub id: String,
    /// Who sent it.
    pub challenger_id: String,
    /// To whom; `None`: anyone with its id.
    pub challenged_id: Option<String>,
    /// That account's name.
    pub challenged_name: Option<String>,
    /// The rule set, JSON as the API gives it.
    pub rules: String,
    /// How many seats its game has.
    pub seats: i64,
    /// The challenger's seat.
    pub seat: i64,
    /// Seconds a move, if limited.
    pub move_limit: Option<i64>,
    /// 1 for rated.
    pub rated: i64,
    /// `open`, `accepted`, `declined` or `canceled`.
    pub status: String,
    /// A decline's reason key.
    pub reason: Option<String>,
    /// JSON: per seat, the account seated (or null).
    pub accepted: String,
    /// Bumped by every change.
    pub version: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds; an open challenge is expired from then.
    pub expires_at: i64,
}

/// How a change of a challenge went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeWrite {
    /// Written.
    Done,
    /// The challenge changed since it was read.
    Moved,
    /// Its game exists already: another acceptance made it.
    GameExists,
}

const COLUMNS: &str = "id, challenger_id, challenged_id, challenged_name, rules, seats, seat, move_limit, rated, status, reason, \
                       accepted, version, created_at, expires_at";

static INSERT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "INSERT INTO challenges ({COLUMNS}) VALUES (:id, :challenger_id, :challenged_id, :challenged_name, :rules, :seats, :seat, \
         :move_limit, :rated, :status, :reason, :accepted, :version, :created_at, :expires_at)"
    ))
});
static BY_ID: LazyLock<Statement> =
    LazyLock::new(|| Statement::new(&format!("SELECT {COLUMNS} FROM challenges WHERE id = :id")));
static OF_ACCOUNT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE (challenger_id = :account OR challenged_id = :account) \
         AND (created_at < :before_at OR (created_at = :before_at AND id < :before_id)) \
         ORDER BY created_at DESC, id DESC LIMIT :limit"
    ))
});
/// A challenge's change, only of the row read (its version) and of its
/// challenger (the owner whose row the service judged).
static UPDATE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE challenges SET status = :status, reason = :reason, accepted = :accepted, version = :version \
         WHERE id = :id AND version = :old_version AND challenger_id = :challenger_id",
    )
});
/// The open challenges an account sent or was sent, not yet expired.
pub(super) static OPEN_OF_ACCOUNT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE status = 'open' AND expires_at > :now \
         AND (challenger_id = :account_id OR challenged_id = :account_id)"
    ))
});
static UNFINISHED_IDS_OF_ACCOUNT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id \
         WHERE s.account_id = :account AND g.status <> 'over' AND g.abandoned_at IS NULL \
         ORDER BY g.created_at LIMIT :limit",
    )
});
static UNFINISHED_OF_ACCOUNT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id \
         WHERE s.account_id = :account AND g.status <> 'over' AND g.abandoned_at IS NULL",
    )
});

impl Store {
    /// Stores a new challenge.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn insert_challenge(
        &self,
        c: &ChallengeRow,
        accounts: &[AccountEvent],
    ) -> Result<(), StoreError> {
        let (c, accounts) = (c.clone(), accounts.to_vec());
        self.transaction(move |s, tx| {
            Box::pin(async move {
                INSERT
                    .query(&[
                        ("id", (&c.id).into()),
                        ("challenger_id", (&c.challenger_id).into()),
                        ("challenged_id", (&c.challenged_id).into()),
                        ("challenged_name", (&c.challenged_name).into()),
                        ("rules", (&c.rules).into()),
                        ("seats", c.seats.into()),
                        ("seat", c.seat.into()),
                        ("move_limit", c.move_limit.into()),
                        ("rated", c.rated.into()),
                        ("status", (&c.status).into()),
                        ("reason", (&c.reason).into()),
                        ("accepted", (&c.accepted).into()),
                        ("version", c.version.into()),
                        ("created_at", c.created_at.into()),
                        ("expires_at", c.expires_at.into()),
                    ])?
                    .execute(&mut **tx)
                    .await?;
                Self::append_account_events(s.backend, tx, &accounts).await
            })
        })
        .await
    }

    /// Challenge `id`, if there is one.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        self.row(&BY_ID, &[("id", id.into())]).await
    }

    /// The challenges an account sent or was sent, newest first: at most
    /// `limit`, before the one made at `before` (time and id).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn challenges_of(
        &self,
        account_id: &str,
        before: Option<(i64, &str)>,
        limit: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        // With no cursor, every id is "before" the empty one only if it
        // sorts first: compare with a string above any UUID instead.
        let (before_at, before_id) = before.unwrap_or((i64::MAX, "~"));
        let args = [
            ("account", account_id.into()),
            ("before_at", before_at.into()),
            ("before_id", before_id.into()),
            ("limit", limit.into()),
        ];
        self.rows(&OF_ACCOUNT, &args).await
    }

    /// Writes `c`'s status, reason and acceptances if it is still at
    /// `old_version`, with the accounts' events; with `game`, stores the
    /// game too, in the same transaction (nothing, if any part fails).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn update_challenge(
        &self,
        c: &ChallengeRow,
        old_version: i64,
        game: Option<(&GameRow, &[SeatRow])>,
        accounts: &[AccountEvent],
    ) -> Result<ChallengeWrite, StoreError> {
        let (c, accounts) = (c.clone(), accounts.to_vec());
        let game = game.map(|(g, seats)| (g.clone(), seats.to_vec()));
        let keep = |w: &ChallengeWrite| *w == ChallengeWrite::Done;
        self.transaction_kept_if(keep, move |s, tx| {
            Box::pin(async move {
                if !Self::write_challenge(tx, &c, old_version).await? {
                    return Ok(ChallengeWrite::Moved);
                }
                if let Some((g, seats)) = &game {
                    match Store::insert_rows(tx, g, seats).await {
                        Ok(()) => {}
                        Err(StoreError::Database(e)) if is_unique_violation(&e) => {
                            return Ok(ChallengeWrite::GameExists);
                        }
                        Err(e) => return Err(e),
                    }
                }
                Self::append_account_events(s.backend, tx, &accounts).await?;
                if let Some((g, _)) = &game
                    && s.backend == super::Backend::Postgres
                {
                    super::games::NOTIFY.query(&[("game", (&g.id).into())])?.execute(&mut **tx).await?;
                }
                Ok(ChallengeWrite::Done)
            })
        })
        .await
    }

    /// Writes `c`'s status, reason and acceptances in `tx` if it is still
    /// at `old_version`; whether it was.
    pub(super) async fn write_challenge(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        c: &ChallengeRow,
        old_version: i64,
    ) -> Result<bool, StoreError> {
        let changed = UPDATE
            .query(&[
                ("status", (&c.status).into()),
                ("reason", (&c.reason).into()),
                ("accepted", (&c.accepted).into()),
                ("version", c.version.into()),
                ("id", (&c.id).into()),
                ("old_version", old_version.into()),
                ("challenger_id", (&c.challenger_id).into()),
            ])?
            .execute(&mut **tx)
            .await?
            .rows_affected();
        Ok(changed == 1)
    }

    /// The ids of an account's unfinished games, oldest first, at most `limit`.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn unfinished_game_ids_of_account(
        &self,
        account_id: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let ids: Vec<(String,)> = self
            .rows(&UNFINISHED_IDS_OF_ACCOUNT, &[("account", account_id.into()), ("limit", limit.into())])
            .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// How many unfinished games (neither over nor abandoned) an account
    /// holds a seat of.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn unfinished_games_of_account(&self, account_id: &str) -> Result<u64, StoreError> {
        let (n,): (i64,) = self.one(&UNFINISHED_OF_ACCOUNT, &[("account", account_id.into())]).await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
