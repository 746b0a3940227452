//! The `accounts` table: an account by its name (whatever the case), the
//! deletion of an account with its tokens in one transaction, and the
//! games an account holds seats of. Its tokens are `tokens`.

use std::sync::LazyLock;

use super::account_events::AccountEvent;
use super::challenges::ChallengeRow;
use super::games::{WAITING, select_games};
use super::rows::GameRow;
use super::run::Tx;
use super::sql::{Arg, Statement};
use super::{Store, StoreError, is_unique_violation};

/// An account as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AccountRow {
    /// Its id (a UUID).
    pub id: String,
    /// Its name as written when created.
    pub name: String,
    /// The Argon2id hash of its password (PHC string).
    pub password: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// 1 for a bot account.
    pub bot: i64,
    /// 1 when the account agrees to rated games against bots.
    pub rated_against_bots: i64,
    /// Its acceptance profile, JSON; `None`: any challenge.
    pub accepts: Option<String>,
}

static INSERT_ACCOUNT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO accounts (id, name, name_key, password, created_at, look, bot, rated_against_bots, accepts) \
         VALUES (:id, :name, :name_key, :password, :created_at, :look, :bot, :rated_against_bots, :accepts)",
    )
});
static ACCOUNT_BY_LOOK: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("SELECT name FROM accounts WHERE look = :look LIMIT 1"));
/// An account's settings (rule book §15); `bot` only while it has no
/// rated game, played or unfinished.
static UPDATE_SETTINGS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE accounts SET bot = :bot, rated_against_bots = :rated_against_bots, accepts = :accepts \
         WHERE id = :id AND (:bot = bot OR (NOT EXISTS (SELECT 1 FROM ratings WHERE account_id = :id AND games > 0) \
         AND NOT EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id \
         WHERE s.account_id = :id AND g.rated = 1 AND g.status <> 'over')))",
    )
});
static WITHOUT_LOOK: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("SELECT id, name FROM accounts WHERE look IS NULL LIMIT 500"));
static SET_LOOK: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE accounts SET look = :look WHERE id = :id"));
static ACCOUNT_BY_ID: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT id, name, password, created_at, bot, rated_against_bots, accepts FROM accounts WHERE id = :id",
    )
});
static ACCOUNT_BY_NAME: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT id, name, password, created_at, bot, rated_against_bots, accepts FROM accounts \
         WHERE name_key = :name_key",
    )
});
/// Takes the account's row for the transaction: token inserts of one
/// account queue here (PostgreSQL's row lock; SQLite writes one at a time).
/// The account's id out of the stored seats of its games (the seating
/// form writes it last in a seat, after a comma unless alone).
static FORGET_IN_GAMES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE games SET seating = REPLACE(REPLACE(seating, :after_comma, ''), :alone, '') \
         WHERE id IN (SELECT game_id FROM seats WHERE account_id = :account_id)",
    )
});
static FORGET_SEATS: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE seats SET account_id = NULL WHERE account_id = :account_id"));
static DELETE_EVENTS: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("DELETE FROM account_events WHERE account_id = :account_id"));
static DELETE_TOKENS: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("DELETE FROM account_tokens WHERE account_id = :account_id"));
static DELETE_ACCOUNT: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("DELETE FROM accounts WHERE id = :account_id"));

impl Store {
    /// Stores a new account; `false` when an account of that name (in any
    /// case) exists already (nothing is stored then).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn insert_account(&self, a: &AccountRow, look: &str) -> Result<bool, StoreError> {
        let written = self
            .execute(
                &INSERT_ACCOUNT,
                &[
                    ("id", (&a.id).into()),
                    ("name", (&a.name).into()),
                    ("name_key", a.name.to_lowercase().as_str().into()),
                    ("password", (&a.password).into()),
                    ("created_at", a.created_at.into()),
                    ("look", look.into()),
                    ("bot", a.bot.into()),
                    ("rated_against_bots", a.rated_against_bots.into()),
                    ("accepts", (&a.accepts).into()),
                ],
            )
            .await;
        match written {
            Ok(_) => Ok(true),
            Err(StoreError::Database(e)) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The name of an account whose name looks like `look` (see
    /// `names::look`), if one does.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn account_like(&self, look: &str) -> Result<Option<String>, StoreError> {
        let name: Option<(String,)> = self.row(&ACCOUNT_BY_LOOK, &[("look", look.into())]).await?;
        Ok(name.map(|(name,)| name))
    }

    /// Writes what the names of accounts made before it was kept look
    /// like, by `look`: how many.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn fill_account_looks(&self, look: fn(&str) -> String) -> Result<u64, StoreError> {
        let mut filled = 0;
        loop {
            let rows: Vec<(String, String)> = self.rows(&WITHOUT_LOOK, &[]).await?;
            if rows.is_empty() {
                return Ok(filled);
            }
            for (id, name) in rows {
                self.execute(&SET_LOOK, &[("look", look(&name).as_str().into()), ("id", id.as_str().into())])
                    .await?;
                filled += 1;
            }
        }
    }

    /// Writes an account's settings: whether it is a bot, whether it takes
    /// rated games against bots, its acceptance profile. Whether they were
    /// written: not when it would become a bot after a rated game.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn update_settings(&self, a: &AccountRow) -> Result<bool, StoreError> {
        let done = self
            .execute(
                &UPDATE_SETTINGS,
                &[
                    ("id", (&a.id).into()),
                    ("bot", a.bot.into()),
                    ("rated_against_bots", a.rated_against_bots.into()),
                    ("accepts", (&a.accepts).into()),
                ],
            )
            .await?;
        Ok(done == 1)
    }

    /// The account of this id.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn account_by_id(&self, id: &str) -> Result<Option<AccountRow>, StoreError> {
        self.row(&ACCOUNT_BY_ID, &[("id", id.into())]).await
    }

    /// The account of this name, whatever its case.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn account(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        self.row(&ACCOUNT_BY_NAME, &[("name_key", name.to_lowercase().as_str().into())]).await
    }

    /// Deletes an account and its tokens, and lets go of its seats (they
    /// keep their names; the games no longer say an account holds them),
    /// in one transaction.
    ///
    /// # Errors
    ///
    /// On a database failure; nothing is deleted then.
    pub async fn delete_account(
        &self,
        account_id: &str,
        now: i64,
        close: CloseChallenges,
    ) -> Result<Vec<AccountEvent>, StoreError> {
        let account_id = account_id.to_string();
        self.transaction(move |s, tx| {
            Box::pin(async move { s.delete_account_in(tx, &account_id, now, close).await })
        })
        .await
    }

    async fn delete_account_in(
        &self,
        tx: &mut Tx<'_>,
        account_id: &str,
        now: i64,
        close: CloseChallenges,
    ) -> Result<Vec<AccountEvent>, StoreError> {
        let alone = format!("\"account\":\"{account_id}\"");
        let after_comma = format!(",{alone}");
        FORGET_IN_GAMES
            .query(&[
                ("after_comma", after_comma.as_str().into()),
                ("alone", alone.as_str().into()),
                ("account_id", account_id.into()),
            ])?
            .execute(&mut **tx)
            .await?;
        // Its open challenges are canceled, told to the other side. The rows are taken as a
        // move takes them — games, then challenges, then the other accounts in the order of
        // their ids — so that no two transactions wait for each other in a circle.
        let open: Vec<ChallengeRow> = super::challenges::OPEN_OF_ACCOUNT
            .query(&[("account_id", account_id.into()), ("now", now.into())])?
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(sqlx::FromRow::from_row)
            .collect::<Result<_, _>>()?;
        let (closed, events) = close(&open)?;
        for (row, old_version) in &closed {
            if !Self::write_challenge(tx, row, *old_version).await? {
                return Err(StoreError::Moved("a challenge of the account changed while it was deleted"));
            }
        }
        Self::append_account_events(self.backend, tx, &events).await?;
        Self::delete_account_webhooks(tx, account_id).await?;
        for statement in [&*FORGET_SEATS, &*DELETE_TOKENS, &*DELETE_EVENTS, &*DELETE_ACCOUNT] {
            statement.query(&[("account_id", account_id.into())])?.execute(&mut **tx).await?;
        }
        Ok(events)
    }
}

/// What a deletion makes of the account's open challenges (read in its
/// transaction): each one's new row with the version it was read at, and
/// the events that tell the other side.
pub type ClosedChallenges = (Vec<(ChallengeRow, i64)>, Vec<AccountEvent>);

/// Makes [`ClosedChallenges`] of the rows read.
pub type CloseChallenges = Box<dyn FnOnce(&[ChallengeRow]) -> Result<ClosedChallenges, StoreError> + Send>;

/// Filters of an account's games.
#[derive(Debug, Clone, Default)]
pub struct AccountGames<'a> {
    /// A stored status, or [`WAITING`] (waiting for players).
    pub status: Option<&'a str>,
    /// Only games of this pool (`murray/orthogonal`).
    pub pool: Option<&'a str>,
    /// Only rated games, or only casual ones.
    pub rated: Option<bool>,
    /// After this cursor `(created_at, id)`.
    pub after: Option<(i64, &'a str)>,
}

impl Store {
    /// The games an account holds a seat of, newest first, filtered.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn account_games(
        &self,
        account_id: &str,
        filters: &AccountGames<'_>,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let mut conditions = vec!["id IN (SELECT game_id FROM seats WHERE account_id = :account_id)"];
        let mut args: Vec<(&'static str, Arg<'_>)> =
            vec![("account_id", account_id.into()), ("limit", limit.into())];
        match filters.status {
            Some(WAITING) => conditions.push("open_seats > 0 AND status <> 'over'"),
            Some(status) => {
                conditions.push("status = :status AND open_seats = 0");
                args.push(("status", status.into()));
            }
            None => {}
        }
        if let Some(pool) = filters.pool {
            conditions.push("pool = :pool");
            args.push(("pool", pool.into()));
        }
        // An aborted game (§13) was to be rated and ended unrated: it is listed with the casual ones.
        // (Its stored result, `StoredResult`, is compact JSON with `ended` at its top.)
        match filters.rated {
            Some(true) => {
                conditions.push("rated = 1 AND (result IS NULL OR result NOT LIKE '%\"ended\":\"aborted\"%')")
            }
            Some(false) => conditions.push("(rated = 0 OR result LIKE '%\"ended\":\"aborted\"%')"),
            None => {}
        }
        if let Some((at, id)) = filters.after {
            conditions.push("created_at <= :at AND (created_at < :at OR id < :id)");
            args.push(("at", at.into()));
            args.push(("id", id.into()));
        }
        // One shape per set of filters: built here, each bound by name.
        let statement = Statement::new(&select_games(&format!(
            "WHERE {} ORDER BY created_at DESC, id DESC LIMIT :limit",
            conditions.join(" AND ")
        )));
        self.rows(statement, &args).await
    }
}
