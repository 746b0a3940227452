//! The `account_tokens` table: an account's personal access tokens, by the
//! hash of their secret (never the secret).

use std::sync::LazyLock;

use super::sql::{Execute, Statement};
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

/// A token with its account's name and whether it is a bot.
#[derive(sqlx::FromRow)]
struct TokenOfAccount {
    #[sqlx(flatten)]
    token: TokenRow,
    name: String,
    bot: i64,
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
        self.transaction(move |_, tx| {
            Box::pin(async move {
                tx.execute(&LOCK_ACCOUNT, &[("account_id", (&t.account_id).into())]).await?;
                let args = [
                    ("id", (&t.id).into()),
                    ("account_id", (&t.account_id).into()),
                    ("label", (&t.label).into()),
                    ("scopes", (&t.scopes).into()),
                    ("token_hash", (&token_hash).into()),
                    ("created_at", t.created_at.into()),
                    ("most", most.into()),
                ];
                Ok(tx.execute(&INSERT_TOKEN, &args).await? == 1)
            })
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
        let row: Option<TokenOfAccount> =
            self.row(&TOKEN_BY_HASH, &[("token_hash", token_hash.into())]).await?;
        Ok(row.map(|r| (r.token, r.name, r.bot != 0)))
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
        let (after_at, after_id) = after.unwrap_or((i64::MIN, ""));
        let args = [
            ("account_id", account_id.into()),
            ("after_at", after_at.into()),
            ("after_id", after_id.into()),
            ("limit", limit.into()),
        ];
        self.rows(&TOKENS_OF, &args).await
    }

    /// Revokes token `id` of the account; whether it had one of that id.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn revoke_token(&self, account_id: &str, id: &str) -> Result<bool, StoreError> {
        Ok(self.execute(&REVOKE, &[("id", id.into()), ("account_id", account_id.into())]).await? == 1)
    }
}
