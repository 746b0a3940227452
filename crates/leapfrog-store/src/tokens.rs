//! The `account_tokens` table: an account's personal access tokens, by the
//! hash of their secret (never the secret).

use std::sync::LazyLock;

use sqlx::{Connection, Row};

use super::sql::Statement;
use super::{Store, StoreError};

/// A personal access token as stored: never its secret.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TokenRow {
    /// Its id (a UUID), by which it is listed and revoked.
    pub id: String,
    /// The account it acts for.
    pub account_id: String,
    /// Its label.
    pub label: String,
    /// Its scopes, comma-separated.
    pub scopes: String,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Locks the account row, so that two tokens made at once count each other.
static LOCK_ACCOUNT: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE accounts SET name = name WHERE id = :account_id"));
/// A token, unless the account has `:most` already.
static INSERT_TOKEN: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO account_tokens (id, account_id, label, scopes, token_hash, created_at) \
         SELECT :id, :account_id, :label, :scopes, :token_hash, :created_at \
         WHERE (SELECT COUNT(*) FROM account_tokens WHERE account_id = :account_id) < :most",
    )
});
static TOKEN_BY_HASH: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT t.id, t.account_id, t.label, t.scopes, t.created_at, a.name, a.bot FROM account_tokens t \
         JOIN accounts a ON a.id = t.account_id WHERE t.token_hash = :token_hash",
    )
});
static TOKENS_OF: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT id, account_id, label, scopes, created_at FROM account_tokens \
         WHERE account_id = :account_id AND (created_at > :after_at OR (created_at = :after_at AND id > :after_id)) \
         ORDER BY created_at, id LIMIT :limit",
    )
});
static REVOKE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("DELETE FROM account_tokens WHERE id = :id AND account_id = :account_id")
});

impl Store {
    /// Stores a token (its hash, never its secret) unless its account has
    /// `most` tokens already: whether it was stored.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn insert_token(&self, t: &TokenRow, token_hash: &str, most: i64) -> Result<bool, StoreError> {
        let (t, token_hash) = (t.clone(), token_hash.to_string());
        self.on_db(move |s| async move {
            let mut conn = s.write().await?;
            let mut tx = conn.begin().await?;
            LOCK_ACCOUNT.query(&[("account_id", (&t.account_id).into())])?.execute(&mut *tx).await?;
            let stored = INSERT_TOKEN
                .query(&[
                    ("id", (&t.id).into()),
                    ("account_id", (&t.account_id).into()),
                    ("label", (&t.label).into()),
                    ("scopes", (&t.scopes).into()),
                    ("token_hash", (&token_hash).into()),
                    ("created_at", t.created_at.into()),
                    ("most", most.into()),
                ])?
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            Ok(stored == 1)
        })
        .await
    }

    /// The token whose secret has this hash, with its account's name and
    /// whether it is a bot; a
    /// revoked token, or one of a deleted account, is none.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn token(&self, token_hash: &str) -> Result<Option<(TokenRow, String, bool)>, StoreError> {
        let token_hash = token_hash.to_string();
        self.on_db(move |s| async move {
            let row = TOKEN_BY_HASH
                .query(&[("token_hash", (&token_hash).into())])?
                .fetch_optional(&mut *s.read().await?)
                .await?;
            let Some(row) = row else { return Ok(None) };
            let token: TokenRow = sqlx::FromRow::from_row(&row)?;
            Ok(Some((token, row.try_get("name")?, row.try_get::<i64, _>("bot")? != 0)))
        })
        .await
    }

    /// The tokens of an account, oldest first: at most `limit`, after the
    /// token made at `after` (time and id), if given.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tokens_of(
        &self,
        account_id: &str,
        after: Option<(i64, &str)>,
        limit: i64,
    ) -> Result<Vec<TokenRow>, StoreError> {
        let account_id = account_id.to_string();
        let (after_at, after_id) = after.map_or((i64::MIN, String::new()), |(at, id)| (at, id.to_string()));
        self.on_db(move |s| async move {
            let rows = TOKENS_OF
                .query(&[
                    ("account_id", (&account_id).into()),
                    ("after_at", after_at.into()),
                    ("after_id", (&after_id).into()),
                    ("limit", limit.into()),
                ])?
                .fetch_all(&mut *s.read().await?)
                .await?;
            Ok(rows.iter().map(sqlx::FromRow::from_row).collect::<Result<_, _>>()?)
        })
        .await
    }

    /// Revokes token `id` of the account; whether it had one of that id.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn revoke_token(&self, account_id: &str, id: &str) -> Result<bool, StoreError> {
        let (account_id, id) = (account_id.to_string(), id.to_string());
        self.on_db(move |s| async move {
            let done = REVOKE
                .query(&[("id", (&id).into()), ("account_id", (&account_id).into())])?
                .execute(&mut *s.write().await?)
                .await?
                .rows_affected();
            Ok(done == 1)
        })
        .await
    }
}
