//! Password hashes: Argon2id with OWASP's parameters (19 MiB, 2 passes, 1
//! lane), in the PHC string format.
//!
//! Every hash and check runs on a thread of its own that works at most a
//! given share of the time (`--password-share`), serving clients in turn:
//! a client flooding sign-ins meets its own cap (two waiting, then 429)
//! and waits its turn, never everyone's. Sign-ins for names nobody has are
//! checked against a decoy on a second thread with a smaller share: the
//! same work for each, but a flood of them (from however many networks)
//! waits behind itself, not behind real sign-ins.
//!
//! The real thread runs at the normal priority (its share bounds what it
//! takes) and the decoy's at `nice` 10, neither at the idle priority: an
//! idle-priority thread gets no CPU at all while anything else wants it,
//! so on a busy machine a check never ended. And whatever the machine is
//! doing, a sign-in is answered within [`ANSWER_WITHIN`]: a check not done
//! by then is answered 503 with `Retry-After` (it finishes unseen). The
//! checks of one account take their turns as one client, whatever the
//! networks they come from (see `Accounts::sign_in`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::TryRng;

use super::{AccountError, Password};
use crate::compute::pools::{Busy, Pool, Priority, Share};

/// Hashes and checks waiting at once, in all, on each thread.
const QUEUE: usize = 64;
/// Checks one client may have waiting or running at once, on each thread.
const PER_CLIENT: usize = 2;
/// The longest a check waits for its thread.
const MAX_WAIT: Duration = Duration::from_secs(2);
/// The longest a sign-in waits for its check, from asking to answer.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(3);
/// The decoy thread's share of a core, as a part of the real one's.
const DECOY_SHARE_FACTOR: f64 = 0.34;

/// The Argon2id of every password: OWASP's minimum for Argon2id.
fn argon2() -> Argon2<'static> {
    // 19 MiB, 2 passes, 1 lane: valid parameters, so this cannot fail.
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes and checks passwords on a thread of its own.
#[derive(Debug)]
pub struct Hasher {
    pool: Pool,
    /// Where names nobody has are checked against the decoy.
    decoys: Pool,
    /// What a name that does not exist is checked against.
    decoy: String,
    /// Checks done (for the tests: one per sign-in, whatever the name).
    checks: AtomicU64,
}

impl Hasher {
    /// The hasher, with its thread working at most `share` of the time,
    /// and its decoy hash made now.
    ///
    /// # Errors
    ///
    /// No randomness for the decoy's salt, or the hash failed.
    pub fn new(share: Share) -> Result<Hasher, AccountError> {
        let decoy = hash_now(&Password::parse(format!("{:x}", rand::rngs::SysRng.try_next_u64()?))?)?;
        Ok(Hasher {
            pool: Pool::new("password", 1, QUEUE, Priority::Normal, share, Some(MAX_WAIT)),
            decoys: Pool::new(
                "password-decoy",
                1,
                QUEUE,
                Priority::Low,
                share.times(DECOY_SHARE_FACTOR),
                Some(MAX_WAIT),
            ),
            decoy,
            checks: AtomicU64::new(0),
        })
    }

    /// The hash of `password`, for `client`.
    ///
    /// # Errors
    ///
    /// [`AccountError::TooMany`] past the client's checks at once,
    /// [`AccountError::Busy`] when the queue is full or the wait too long.
    pub async fn hash(&self, client: &str, password: Password) -> Result<String, AccountError> {
        self.run(&self.pool, client, move || hash_now(&password)).await?
    }

    /// Whether `password` is the one `stored` hashes; with no stored hash
    /// (no such account), checks it against the decoy and answers `false`:
    /// the same work either way.
    ///
    /// # Errors
    ///
    /// As [`Hasher::hash`]; a stored hash that does not read.
    pub async fn verify(
        &self,
        client: &str,
        password: Password,
        stored: Option<String>,
    ) -> Result<bool, AccountError> {
        self.checks.fetch_add(1, Ordering::Relaxed);
        let known = stored.is_some();
        let pool = if known { &self.pool } else { &self.decoys };
        let hash = stored.unwrap_or_else(|| self.decoy.clone());
        let right = self
            .run(pool, client, move || {
                let parsed = PasswordHash::new(&hash).map_err(|e| AccountError::Hash(e.to_string()))?;
                Ok::<_, AccountError>(argon2().verify_password(password.expose(), &parsed).is_ok())
            })
            .await??;
        Ok(known && right)
    }

    /// Password checks done since start.
    pub fn checks(&self) -> u64 {
        self.checks.load(Ordering::Relaxed)
    }

    async fn run<T: Send + 'static>(
        &self,
        pool: &Pool,
        client: &str,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AccountError> {
        let answer = pool.submit(client, Some(PER_CLIENT), job).map_err(|e| match e {
            Busy::Client { limit } => AccountError::TooMany(limit),
            Busy::Full { .. } => AccountError::Busy,
        })?;
        // Dropping the answer's receiver when the time is up lets a check
        // that has not begun be skipped.
        match tokio::time::timeout(ANSWER_WITHIN, answer).await {
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(Ok(Err(_))) | Err(_) => Err(AccountError::Busy),
            Ok(Err(_)) => Err(AccountError::Hash("the password thread stopped".into())),
        }
    }
}

/// Hashes `password` with a fresh salt, here and now.
fn hash_now(password: &Password) -> Result<String, AccountError> {
    let mut salt = [0u8; 16];
    rand::rngs::SysRng.try_fill_bytes(&mut salt)?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| AccountError::Hash(e.to_string()))?;
    let hash =
        argon2().hash_password(password.expose(), &salt).map_err(|e| AccountError::Hash(e.to_string()))?;
    Ok(hash.to_string())
}
