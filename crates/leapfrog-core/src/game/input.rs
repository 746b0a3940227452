//! Values that arrive from outside, each parsed once into a type that is
//! known good past its constructor: a player's name, a seat's token, an
//! idempotency key, a cursor of the game listing.

use std::fmt;

use sha2::{Digest, Sha256};

/// The longest player name, in characters.
pub const MAX_NAME: usize = 64;
/// The longest idempotency key, in bytes.
pub const MAX_KEY: usize = 200;

/// Why a value from outside was refused; the message says what a valid
/// one looks like.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// A name that is empty or too long once trimmed, or holds a control
    /// or format character.
    #[error(transparent)]
    Name(#[from] crate::names::NameError),
    /// An empty token.
    #[error("send the seat's token as 'Authorization: Bearer <token>'")]
    Token,
    /// An empty, long or non-ASCII idempotency key.
    #[error("Idempotency-Key must be 1 to {MAX_KEY} visible ASCII characters")]
    Key,
    /// A cursor this server did not give out.
    #[error("the cursor is not one this server gave out")]
    Cursor,
}

/// A player's name: 1 to [`MAX_NAME`] characters, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerName(String);

impl PlayerName {
    /// Trims `name` and checks it (see [`crate::names`]).
    ///
    /// # Errors
    ///
    /// [`InputError::Name`] when it is empty, too long, or holds a control
    /// or format character.
    pub fn parse(name: &str) -> Result<PlayerName, InputError> {
        Ok(PlayerName(crate::names::check(name, "player's name", MAX_NAME)?))
    }

    /// A name as stored: checked when it came in, unless it came before
    /// the checks; then its forbidden characters are shown as U+FFFD.
    pub fn stored(name: &str) -> PlayerName {
        PlayerName(crate::names::sanitized(name))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A seat's secret: whoever holds it plays the seat. Only its hash is
/// stored.
#[derive(Clone, PartialEq, Eq)]
pub struct SeatToken(String);

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(***)")
    }
}

/// The SHA-256 of a [`SeatToken`], in hex: what the store keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenHash(String);

impl TokenHash {
    /// The hash of these digest bytes, in hex.
    pub fn of(digest: &[u8]) -> TokenHash {
        TokenHash(hex(digest))
    }

    /// The hash in hex.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl SeatToken {
    /// A token as a client sent it (surrounding spaces trimmed).
    ///
    /// # Errors
    ///
    /// [`InputError::Token`] when it is empty.
    pub fn parse(token: &str) -> Result<SeatToken, InputError> {
        let token = token.trim();
        if token.is_empty() {
            return Err(InputError::Token);
        }
        Ok(SeatToken(token.to_string()))
    }

    /// The token of 32 random bytes (the service draws them), in hex.
    pub fn of_bytes(bytes: &[u8; 32]) -> SeatToken {
        SeatToken(hex(bytes))
    }

    /// The token, to show its holder once.
    pub fn reveal(&self) -> &str {
        &self.0
    }

    /// Its hash, as the store keeps it.
    pub fn hash(&self) -> TokenHash {
        TokenHash(hex(&Sha256::digest(self.0.as_bytes())))
    }
}

/// A client's key for a move request: a retry with the same key gets the
/// first answer. 1 to [`MAX_KEY`] visible ASCII characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// Checks a key as a client sent it.
    ///
    /// # Errors
    ///
    /// [`InputError::Key`] when it is empty, too long or not visible ASCII.
    pub fn parse(key: &str) -> Result<IdempotencyKey, InputError> {
        if key.is_empty()
            || key.len() > MAX_KEY
            || !key.bytes().all(|b| (b' '..=b'~').contains(&b) || b == b'\t')
        {
            return Err(InputError::Key);
        }
        Ok(IdempotencyKey(key.to_string()))
    }

    /// The key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Where a page of the game listing goes on: after the game created at
/// `created_at` (Unix milliseconds) with id `id`. Opaque to clients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCursor {
    /// The last listed game's creation time.
    pub created_at: i64,
    /// The last listed game's id.
    pub id: String,
}

impl GameCursor {
    /// Reads a cursor this server gave out.
    ///
    /// # Errors
    ///
    /// [`InputError::Cursor`] for anything else.
    pub fn parse(cursor: &str) -> Result<GameCursor, InputError> {
        let (at, id) = cursor.strip_prefix('g').and_then(|c| c.split_once('.')).ok_or(InputError::Cursor)?;
        let created_at = i64::from_str_radix(at, 16).map_err(|_| InputError::Cursor)?;
        Ok(GameCursor { created_at, id: id.to_string() })
    }
}

impl fmt::Display for GameCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "g{:x}.{}", self.created_at, self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_one_to_sixty_four_characters() {
        assert_eq!(PlayerName::parse("  Ann ").unwrap().as_str(), "Ann");
        assert_eq!(PlayerName::parse(&"é".repeat(64)).unwrap().as_str().chars().count(), 64);
        assert!(matches!(PlayerName::parse(&"é".repeat(65)), Err(InputError::Name(_))));
        assert!(matches!(PlayerName::parse("   "), Err(InputError::Name(_))));
        assert!(matches!(PlayerName::parse("Ann\u{202E}"), Err(InputError::Name(_))));
    }

    #[test]
    fn a_token_is_kept_only_as_its_hash_and_never_printed() {
        let token = SeatToken::of_bytes(&[0xa5; 32]);
        assert_eq!(token.reveal(), "a5".repeat(32));
        assert_eq!(SeatToken::parse(&format!(" {} ", token.reveal())).unwrap().hash(), token.hash());
        assert_ne!(SeatToken::of_bytes(&[0xa6; 32]).hash(), token.hash());
        assert_eq!(format!("{token:?}"), "SeatToken(***)");
        // SHA-256 of "abc".
        assert_eq!(
            SeatToken::parse("abc").unwrap().hash().as_str(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(SeatToken::parse(" "), Err(InputError::Token));
    }

    #[test]
    fn idempotency_keys_are_visible_ascii_up_to_two_hundred_bytes() {
        assert!(IdempotencyKey::parse("3f1c-retry 1").is_ok());
        assert!(IdempotencyKey::parse(&"k".repeat(200)).is_ok());
        for bad in ["", &"k".repeat(201), "nul\0", "é"] {
            assert_eq!(IdempotencyKey::parse(bad), Err(InputError::Key), "{bad:?}");
        }
    }

    #[test]
    fn a_listing_cursor_reads_back_what_it_wrote_and_nothing_else() {
        let cursor = GameCursor { created_at: 1_763_900_000_000, id: "0b6f".into() };
        assert_eq!(GameCursor::parse(&cursor.to_string()), Ok(cursor));
        for bad in ["", "g", "gzz.1", "m12", "g12"] {
            assert_eq!(GameCursor::parse(bad), Err(InputError::Cursor), "{bad:?}");
        }
    }
}

/// What proves a request acts for a seat: the seat's own token, or a
/// token of the account that holds it (checked before: its id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// A seat's token.
    Seat(SeatToken),
    /// An account, by id, whose token with the `play` scope came with the
    /// request.
    Account(String),
}

/// A move that does not read (a bad cell, an empty path): what is wrong
/// and in which field of the request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct Unreadable {
    /// What is wrong.
    pub detail: String,
    /// Where, as a JSON path of the request (`path[2]`).
    pub field: String,
}
