//! Accounts and personal access tokens (rule book §13): a lasting name
//! with a password, and tokens made with them that act for the account
//! within their scopes. Anonymous play with seat tokens is untouched.
//!
//! A password is kept only as an Argon2id hash (`password`), hashed and
//! checked on one thread of the lowest priority, clients in turn, so that
//! a flood of sign-ins cannot slow play. A wrong name and a wrong password
//! get the same refusal after the same work: a name that does not exist is
//! checked against a hash made at start. A token's secret is shown once
//! and kept only as its SHA-256; a revoked token, or one of a deleted
//! account, stops working at once on every process (each request reads
//! the database).
//!
//! Its parts: `account` (the plain values it hands out: an account, a
//! token, a rating), `credentials` (names, passwords, labels, scopes and
//! tokens as they are read), `password` (the hasher), `rating` (Glicko-2).

mod account;
mod credentials;
mod password;
pub mod rating;

use std::sync::Arc;

pub use credentials::{AccessToken, AccountName, Label, Password, Scope, Scopes};
pub use password::Hasher;

pub use account::{Account, AccountRating, Ranked, Token};
use leapfrog_store::{AccountRow, Store, StoreError, TokenRow};

/// Why an action on an account was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// A name, password, label or scope that breaks the rules.
    #[error("{detail}")]
    Invalid {
        /// What is wrong.
        detail: String,
        /// The field.
        field: &'static str,
    },
    /// The name is taken (in any case).
    #[error("the name '{0}' is taken (names are the same whatever their case)")]
    Taken(String),
    /// A wrong name or password: the same refusal for both.
    #[error("the name or the password is wrong")]
    Credentials,
    /// No token, or one that is wrong, revoked or of a deleted account.
    #[error(
        "send a personal access token as 'Authorization: Bearer lfpat_…' (this one is unknown or revoked)"
    )]
    Unauthenticated,
    /// The token lacks the scope the operation needs.
    #[error("this token has no '{0}' scope, which this needs")]
    Scope(Scope),
    /// The token's account is not the one named.
    #[error("a token acts only for its own account")]
    NotYours,
    /// No account has this name, or no token this id.
    #[error("{0}")]
    NotFound(String),
    /// The client has its most password checks waiting.
    #[error("this client has {0} sign-ins waiting, the most it may; wait for one to end")]
    TooMany(usize),
    /// A name that looks like an account's.
    #[error(
        "'{name}' looks like the name of the account '{account}' (in another case, or with a look-alike letter): choose another name"
    )]
    LooksLike {
        /// The name asked for.
        name: String,
        /// The account's name.
        account: String,
    },
    /// The account has its most personal access tokens.
    #[error("this account has {0} tokens, the most it may: revoke one first")]
    TooManyTokens(usize),
    /// The password checks are busy.
    #[error("the server is busy checking passwords; retry shortly")]
    Busy,
    /// No randomness for a salt or a token.
    #[error("no randomness: {0}")]
    Randomness(#[from] rand::rngs::SysError),
    /// The password hash failed or a stored one did not read.
    #[error("password hash: {0}")]
    Hash(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Changes to an account's settings; `None` leaves one as it is.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Make it a bot (never back).
    pub bot: Option<bool>,
    /// Agree to rated games against bots, or not.
    pub rated_against_bots: Option<bool>,
    /// A new acceptance profile, or `Some(None)` to accept anything.
    pub accepts: Option<Option<leapfrog_wire::profile::Accepts>>,
}

/// The most personal access tokens an account may have at once.
pub const MAX_TOKENS: usize = 50;

/// Who a token acts for, and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The account's id.
    pub account_id: String,
    /// The account's name.
    pub name: String,
    /// The token's scopes.
    pub scopes: Scopes,
    /// Whether the account is a bot (rule book §15).
    pub bot: bool,
}

impl Principal {
    /// The account as a seat's holder.
    pub fn seat_account(&self) -> leapfrog_core::game::SeatAccount {
        leapfrog_core::game::SeatAccount { id: self.account_id.clone(), bot: self.bot }
    }

    /// Refuses unless the token has `scope`.
    ///
    /// # Errors
    ///
    /// [`AccountError::Scope`].
    pub fn needs(&self, scope: Scope) -> Result<(), AccountError> {
        if self.scopes.has(scope) { Ok(()) } else { Err(AccountError::Scope(scope)) }
    }

    /// Refuses unless this is the account named `name` (whatever its case).
    ///
    /// # Errors
    ///
    /// [`AccountError::NotYours`].
    pub fn is(&self, name: &str) -> Result<(), AccountError> {
        if self.name.eq_ignore_ascii_case(name) { Ok(()) } else { Err(AccountError::NotYours) }
    }
}

/// A new token: its record and its secret, shown once.
#[derive(Debug)]
pub struct NewToken {
    /// The token as listed.
    pub listed: Token,
    /// Its secret.
    pub token: AccessToken,
}

/// The accounts service.
#[derive(Debug, Clone)]
pub struct Accounts {
    store: Store,
    hasher: Arc<Hasher>,
}

impl Accounts {
    /// The accounts of `store`, passwords checked by `hasher`.
    pub fn new(store: Store, hasher: Arc<Hasher>) -> Accounts {
        Accounts { store, hasher }
    }

    /// Creates an account for `client`.
    ///
    /// # Errors
    ///
    /// [`AccountError::Taken`] when the name is taken in any case (of
    /// concurrent sign-ups of one name exactly one wins); the hasher busy;
    /// store failures.
    pub async fn create(
        &self,
        name: &AccountName,
        password: Password,
        bot: bool,
        client: &str,
    ) -> Result<Account, AccountError> {
        if self.store.account(name.as_str()).await?.is_some() {
            return Err(AccountError::Taken(name.as_str().to_string()));
        }
        let look = leapfrog_core::names::look(name.as_str());
        if let Some(account) = self.store.account_like(&look).await? {
            return Err(AccountError::LooksLike { name: name.as_str().to_string(), account });
        }
        let hash = self.hasher.hash(client, password).await?;
        let row = AccountRow {
            id: uuid::Uuid::new_v4().to_string(),
            name: name.as_str().to_string(),
            password: hash,
            created_at: leapfrog_process::now_ms(),
            bot: i64::from(bot),
            rated_against_bots: 0,
            accepts: None,
        };
        if !self.store.insert_account(&row, &look).await? {
            return Err(AccountError::Taken(name.as_str().to_string()));
        }
        Ok(Account::from(&row))
    }

    /// Refuses a name for a seat no account holds that looks like an
    /// account's name (whatever its case, or with a look-alike letter).
    ///
    /// # Errors
    ///
    /// [`AccountError::LooksLike`]; store failures.
    pub async fn check_seat_name(&self, name: &str) -> Result<(), AccountError> {
        match self.store.account_like(&leapfrog_core::names::look(name)).await? {
            Some(account) => Err(AccountError::LooksLike { name: name.to_string(), account }),
            None => Ok(()),
        }
    }

    /// The account whose name and password these are.
    ///
    /// # Errors
    ///
    /// [`AccountError::Credentials`] for a wrong name or a wrong password
    /// alike, after one password check either way; the hasher busy; store
    /// failures.
    pub async fn sign_in(
        &self,
        name: &str,
        password: Password,
        client: &str,
    ) -> Result<Account, AccountError> {
        let account = self.store.account(name).await?;
        let stored = account.as_ref().map(|a| a.password.clone());
        // The checks of one account take their turns as one client, from
        // however many networks they come: a flood of sign-ins to one
        // account waits behind itself. A name that does not exist is
        // checked against the hash made at start: the same work, the same
        // answer, on the decoy's thread, its client the network.
        let turn = account.as_ref().map_or_else(|| client.to_string(), |a| format!("account {}", a.id));
        let right = self.hasher.verify(&turn, password, stored).await?;
        match account {
            Some(account) if right => Ok(Account::from(&account)),
            _ => Err(AccountError::Credentials),
        }
    }

    /// Makes a token for `account` with a label and scopes.
    ///
    /// # Errors
    ///
    /// No randomness; store failures.
    pub async fn create_token(
        &self,
        account: &Account,
        label: &Label,
        scopes: Scopes,
    ) -> Result<NewToken, AccountError> {
        let token = AccessToken::generate()?;
        let row = TokenRow {
            id: uuid::Uuid::new_v4().to_string(),
            account_id: account.id.clone(),
            label: label.as_str().to_string(),
            scopes: scopes.to_string(),
            created_at: leapfrog_process::now_ms(),
        };
        if !self.store.insert_token(&row, token.hash().as_str(), MAX_TOKENS as i64).await? {
            return Err(AccountError::TooManyTokens(MAX_TOKENS));
        }
        Ok(NewToken { listed: Token::from(&row), token })
    }

    /// Who `token` acts for.
    ///
    /// # Errors
    ///
    /// [`AccountError::Unauthenticated`] for a token that is unknown,
    /// revoked or of a deleted account; store failures.
    pub async fn authenticate(&self, token: &AccessToken) -> Result<Principal, AccountError> {
        let (row, name, bot) =
            self.store.token(token.hash().as_str()).await?.ok_or(AccountError::Unauthenticated)?;
        let scopes = row
            .scopes
            .parse()
            .map_err(|_| AccountError::Hash(format!("token {} has scopes '{}'", row.id, row.scopes)))?;
        Ok(Principal { account_id: row.account_id, name, scopes, bot })
    }

    /// The tokens of `who`'s account, without their secrets.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn tokens(&self, who: &Principal) -> Result<Vec<Token>, AccountError> {
        Ok(self
            .store
            .tokens_of(&who.account_id, None, MAX_TOKENS as i64)
            .await?
            .iter()
            .map(Token::from)
            .collect())
    }

    /// A page of the tokens of `who`'s account, oldest first: at most
    /// `limit`, after the token made at `after` (time and id).
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn tokens_page(
        &self,
        who: &Principal,
        after: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<Token>, AccountError> {
        Ok(self
            .store
            .tokens_of(&who.account_id, after, limit as i64)
            .await?
            .iter()
            .map(Token::from)
            .collect())
    }

    /// Revokes token `id` of `who`'s account; it stops working at once.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`] when the account has no such token;
    /// store failures.
    pub async fn revoke(&self, who: &Principal, id: &str) -> Result<(), AccountError> {
        if self.store.revoke_token(&who.account_id, id).await? {
            Ok(())
        } else {
            Err(AccountError::NotFound(format!("this account has no token {id}")))
        }
    }

    /// The account of this name, whatever its case.
    ///
    /// # Errors
    ///
    /// [`AccountError::NotFound`]; store failures.
    pub async fn profile(&self, name: &str) -> Result<Account, AccountError> {
        Ok(Account::from(&self.row(name).await?))
    }

    /// The stored account of this name, whatever its case.
    async fn row(&self, name: &str) -> Result<AccountRow, AccountError> {
        self.store
            .account(name)
            .await?
            .ok_or_else(|| AccountError::NotFound(format!("there is no account {name}")))
    }

    /// Changes the settings of `who`'s account (rule book §15): each one
    /// given; the account as it is then.
    ///
    /// # Errors
    ///
    /// [`AccountError::Invalid`] for a bot made a person again, an account
    /// made a bot after a rated game, a bot agreeing to rated games against
    /// bots, or a profile that contradicts itself; store failures.
    pub async fn update(&self, who: &Principal, change: Settings) -> Result<Account, AccountError> {
        let invalid = |detail: &str, field| Err(AccountError::Invalid { detail: detail.to_string(), field });
        let mut row = self.row(&who.name).await?;
        let was = Account::from(&row);
        if let Some(bot) = change.bot {
            if was.bot && !bot {
                return invalid("a bot stays a bot: make another account to play as a person", "bot");
            }
            row.bot = i64::from(bot);
        }
        if let Some(agrees) = change.rated_against_bots {
            if (was.bot || change.bot == Some(true)) && agrees {
                return invalid("a bot plays rated games against bots in any case", "rated_against_bots");
            }
            row.rated_against_bots = i64::from(agrees);
        }
        if let Some(accepts) = change.accepts {
            if let Some(a) = &accepts {
                a.check().map_err(|(detail, field)| AccountError::Invalid { detail, field })?;
            }
            row.accepts = accepts
                .map(|a| serde_json::to_string(&a))
                .transpose()
                .map_err(|e| AccountError::Hash(format!("the acceptance profile does not encode: {e}")))?;
        }
        if !self.store.update_settings(&row).await? {
            return invalid("an account with rated games, played or unfinished, cannot become a bot", "bot");
        }
        Ok(Account::from(&row))
    }

    /// A page of pool `pool`'s leaderboard, best first: at most `limit`
    /// accounts out of their provisional period, after `after` (a rating
    /// and an account's id).
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn leaderboard(
        &self,
        pool: &str,
        limit: usize,
        after: Option<(f64, &str)>,
    ) -> Result<Vec<Ranked>, AccountError> {
        let rows = self.store.leaderboard(pool, rating::PROVISIONAL_ABOVE, limit as i64, after).await?;
        Ok(rows
            .into_iter()
            .map(|r| Ranked {
                account_id: r.account_id,
                name: r.name,
                rating: r.rating,
                deviation: r.deviation,
                games: r.games,
                bot: r.bot,
            })
            .collect())
    }

    /// The account's ratings, by pool.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn ratings(&self, account: &Account) -> Result<Vec<AccountRating>, AccountError> {
        Ok(self.store.ratings_of(&account.id).await?.iter().map(AccountRating::from).collect())
    }
}

#[cfg(test)]
mod tests;
