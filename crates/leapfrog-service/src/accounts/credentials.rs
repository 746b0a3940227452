//! What an account is made and proven with, each parsed once into a type
//! known good past its constructor: a name, a password (never printed), a
//! token's label and scopes, and the token itself (never printed either).

use std::fmt;
use std::str::FromStr;

use rand::TryRng;
use sha2::{Digest, Sha256};

use super::AccountError;

/// The prefix of every personal access token, so that secret scanners
/// recognise one.
pub const TOKEN_PREFIX: &str = "lfpat_";

/// An account's name: 2 to 24 ASCII letters, digits, `_` and `-`, starting
/// with a letter. Unique whatever its case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountName(String);

impl AccountName {
    /// Checks a name.
    ///
    /// # Errors
    ///
    /// [`AccountError::Invalid`] saying which rule it breaks.
    pub fn parse(name: &str) -> Result<AccountName, AccountError> {
        let invalid = |detail: String| AccountError::Invalid { detail, field: "name" };
        let n = name.chars().count();
        if !(2..=24).contains(&n) {
            return Err(invalid(format!("a name is 2 to 24 characters; this one has {n}")));
        }
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(invalid("a name starts with a letter (a to z, A to Z)".into()));
        }
        if let Some((i, c)) =
            name.chars().enumerate().find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        {
            return Err(invalid(format!(
                "character {} ({}) is not allowed: a name holds letters a to z, digits, _ and -",
                i + 1,
                c.escape_unicode()
            )));
        }
        Ok(AccountName(name.to_string()))
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A password: 8 to 256 characters, any. Never printed.
#[derive(Clone)]
pub struct Password(String);

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(…)")
    }
}

impl Password {
    /// Checks a password.
    ///
    /// # Errors
    ///
    /// [`AccountError::Invalid`] for one that is too short or too long.
    pub fn parse(password: String) -> Result<Password, AccountError> {
        let n = password.chars().count();
        if !(8..=256).contains(&n) {
            return Err(AccountError::Invalid {
                detail: format!("a password is 8 to 256 characters; this one has {n}"),
                field: "password",
            });
        }
        Ok(Password(password))
    }

    /// Its bytes, for the hash.
    pub(super) fn expose(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// A token's label: 1 to 64 characters, shown to its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label(String);

impl Label {
    /// Checks a label.
    ///
    /// # Errors
    ///
    /// [`AccountError::Invalid`] for one empty, too long or holding
    /// control or format characters.
    pub fn parse(label: &str) -> Result<Label, AccountError> {
        leapfrog_core::names::check(label, "token's label", 64)
            .map(Label)
            .map_err(|e| AccountError::Invalid { detail: e.to_string(), field: "label" })
    }

    /// The label.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Create, join, move, resign.
    Play,
    /// Read and change the account's own data.
    Account,
}

impl Scope {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Play => "play",
            Scope::Account => "account",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scope {
    type Err = AccountError;

    fn from_str(s: &str) -> Result<Scope, AccountError> {
        match s {
            "play" => Ok(Scope::Play),
            "account" => Ok(Scope::Account),
            other => Err(AccountError::Invalid {
                detail: format!("'{other}' is not a scope: use play, account or both"),
                field: "scopes",
            }),
        }
    }
}

/// A token's scopes: at least one, each once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Checks a list of scopes.
    ///
    /// # Errors
    ///
    /// [`AccountError::Invalid`] for an empty list or an unknown scope.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Scopes, AccountError> {
        let mut scopes = Vec::new();
        for name in names {
            let scope: Scope = name.as_ref().parse()?;
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        if scopes.is_empty() {
            return Err(AccountError::Invalid {
                detail: "a token needs at least one scope".into(),
                field: "scopes",
            });
        }
        scopes.sort_by_key(|s| s.name());
        Ok(Scopes(scopes))
    }

    /// Whether `scope` is one of them.
    pub fn has(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// The scopes, by name.
    pub fn names(&self) -> Vec<String> {
        self.0.iter().map(|s| s.name().to_string()).collect()
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.names().join(","))
    }
}

impl FromStr for Scopes {
    type Err = AccountError;

    fn from_str(s: &str) -> Result<Scopes, AccountError> {
        Scopes::parse(&s.split(',').collect::<Vec<_>>())
    }
}

/// A personal access token: its prefix and 32 random bytes in hex. Never
/// printed; stored only as its SHA-256.
#[derive(Clone, PartialEq, Eq)]
pub struct AccessToken(String);

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccessToken(…)")
    }
}

impl AccessToken {
    /// A new token from the operating system's generator.
    ///
    /// # Errors
    ///
    /// When the system has no randomness to give.
    pub fn generate() -> Result<AccessToken, rand::rngs::SysError> {
        let mut bytes = [0u8; 32];
        rand::rngs::SysRng.try_fill_bytes(&mut bytes)?;
        Ok(AccessToken(format!("{TOKEN_PREFIX}{}", leapfrog_core::game::TokenHash::of(&bytes).as_str())))
    }

    /// A token as a client sent it, if it has the prefix (a seat's token
    /// does not).
    pub fn parse(token: &str) -> Option<AccessToken> {
        token.starts_with(TOKEN_PREFIX).then(|| AccessToken(token.to_string()))
    }

    /// The token, to show its owner once.
    pub fn reveal(&self) -> &str {
        &self.0
    }

    /// Its hash, as the store keeps it.
    pub fn hash(&self) -> leapfrog_core::game::TokenHash {
        leapfrog_core::game::TokenHash::of(&Sha256::digest(self.0.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn names_are_2_to_24_letters_digits_underscores_and_dashes_from_a_letter() {
        for ok in ["Ab", "ann", "Ann_the-Frog2", &"x".repeat(24)] {
            assert!(AccountName::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "A",
            &"x".repeat(25),
            "1ann",
            "_ann",
            "an n",
            "ann'; DROP TABLE accounts;--",
            "añn",
            "ann\u{202e}",
        ] {
            assert!(AccountName::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_are_8_to_256_characters_and_never_printed() {
        assert!(Password::parse("1234567".into()).is_err());
        assert!(Password::parse("x".repeat(257)).is_err());
        let p = Password::parse("correct horse".into()).unwrap();
        assert_eq!(format!("{p:?}"), "Password(…)");
        let t = AccessToken::generate().unwrap();
        assert_eq!(format!("{t:?}"), "AccessToken(…)");
        assert!(t.reveal().starts_with("lfpat_") && t.reveal().len() == 6 + 64);
    }

    #[test]
    fn scopes_read_each_once_and_refuse_unknown_ones() {
        let s: Scopes = "play,account,play".parse().unwrap();
        assert_eq!(s.to_string(), "account,play");
        assert!(s.has(Scope::Play) && s.has(Scope::Account));
        assert!("admin".parse::<Scopes>().is_err());
        assert!(Scopes::parse::<&str>(&[]).is_err());
    }
}
