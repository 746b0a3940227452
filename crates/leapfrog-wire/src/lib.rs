//! The JSON forms of the leapfrog service and its stateless operations,
//! with neither a web server nor a database: what another front end of
//! the engine reuses as it is. Each form derives its OpenAPI schema; the
//! rules crate knows nothing of JSON, and these types know nothing of
//! HTTP. A refusal is an [`Invalid`]: its kind ([`Refusal`], whose
//! `slug_title` every front end answers with), its detail, its field.
//!
//! - Forms: `rules` (rule sets and presets) and `resolve` (a request's
//!   rules checked and made), `position` (positions, moves, results),
//!   `game` (persisted games as clients see them), `events` (the data of a
//!   game's events), `account_events` (an account's events, typed),
//!   `challenge`, `profile` (acceptance profiles).
//! - Operations: `stateless` (presets, a deal, apply, a request's position
//!   read), `move_page` (a page of legal moves, written fast), `analysis`,
//!   `solutions` (peg solitaire), `record` (game records, and reading one
//!   back), within the request budgets of `budget`; `local`, all of them
//!   in-process by name, JSON in and out, as the bindings call them.
//! - Answers to bad input, as every front end gives them: `body` (a
//!   request body read, the field at fault named) and `problem` (RFC 9457
//!   problem details).

pub mod account_events;
pub mod analysis;
pub mod body;
pub mod budget;
pub mod challenge;
pub mod events;
pub mod game;
pub mod local;
pub mod move_page;
pub mod position;
pub mod problem;
pub mod profile;
pub mod record;
pub mod resolve;
pub mod rules;
pub mod solutions;
pub mod stateless;

pub use position::{
    Ended, JumpTree, MoveInput, MoveView, Outcome, PositionInput, PositionView, Standing, Status,
};
pub use rules::{PresetId, RuleSet, Rules};

/// The kinds of refusal of a well-formed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The rule set is invalid.
    InvalidRules,
    /// The position string or fields are invalid.
    InvalidPosition,
    /// A cell or move string could not be read.
    InvalidNotation,
    /// The move is not legal here.
    IllegalMove,
    /// Some other value is out of range (players, limit, cursor).
    InvalidValue,
    /// The game is over: no more moves.
    GameOver,
    /// An idempotency key sent again with a different request.
    KeyReused,
    /// Answering would take more work than one request may do (a budget
    /// of the work module's).
    OverBudget,
    /// A game record that does not read or replay (§14).
    InvalidRecord,
}

impl Refusal {
    /// The refusal's slug (the last part of a problem's `type`) and its
    /// title, as every front end answers it.
    pub fn slug_title(self) -> (&'static str, &'static str) {
        match self {
            Refusal::InvalidRules => ("invalid-rules", "Invalid rule set"),
            Refusal::InvalidPosition => ("invalid-position", "Invalid position"),
            Refusal::InvalidNotation => ("invalid-notation", "Invalid notation"),
            Refusal::IllegalMove => ("illegal-move", "Illegal move"),
            Refusal::InvalidValue => ("invalid-value", "Value out of range"),
            Refusal::GameOver => ("game-over", "Game over"),
            Refusal::KeyReused => ("idempotency-key-reused", "Idempotency key reused"),
            Refusal::OverBudget => ("over-budget", "Over the work budget of a request"),
            Refusal::InvalidRecord => ("invalid-record", "Invalid game record"),
        }
    }
}

/// A value that reads as JSON but that the rules refuse: what is wrong,
/// and the field at fault as a dotted path (`rules.rows`, `move.path[1]`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {detail}")]
pub struct Invalid {
    /// Which kind of refusal.
    pub kind: Refusal,
    /// What is wrong, in words a user can act on.
    pub detail: String,
    /// Where.
    pub field: String,
}

impl Invalid {
    /// A refusal of `field`.
    pub fn new(kind: Refusal, detail: impl ToString, field: &str) -> Invalid {
        Invalid { kind, detail: detail.to_string(), field: field.to_string() }
    }
}

/// The seed of a deal as a client sends it: a whole number from 0 to
/// 18446744073709551615, as a decimal string (the form the server answers
/// with) or a JSON number. Seeds go past 2^53, beyond which JavaScript
/// numbers are not exact, so a client should keep and send the string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedInput(pub u64);

/// The pattern of a seed as a decimal string.
pub const SEED_PATTERN: &str = "^[0-9]{1,20}$";

/// A seed as the server answers: decimal, exact in any client.
pub fn seed_string(seed: u64) -> String {
    seed.to_string()
}

impl<'de> serde::Deserialize<'de> for SeedInput {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SeedInput, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = SeedInput;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a seed: a whole number from 0 to 18446744073709551615, as a number or a decimal string",
                )
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<SeedInput, E> {
                Ok(SeedInput(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<SeedInput, E> {
                u64::try_from(v)
                    .map(SeedInput)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<SeedInput, E> {
                let digits = !v.is_empty() && v.len() <= 20 && v.bytes().all(|b| b.is_ascii_digit());
                digits
                    .then(|| v.parse().ok())
                    .flatten()
                    .map(SeedInput)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl utoipa::PartialSchema for SeedInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, SchemaFormat, Type};
        let text = ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(SEED_PATTERN))
            .description(Some("Decimal, up to 18446744073709551615"));
        let number = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::Custom("uint64".into())))
            .minimum(Some(0))
            .maximum(Some(u64::MAX));
        OneOfBuilder::new()
            .item(text)
            .item(number)
            .description(Some(
                "A seed: a whole number from 0 to 18446744073709551615, as a decimal string (what the \
                 server answers with: JavaScript numbers are exact only to 2^53) or a JSON number",
            ))
            .into()
    }
}

impl utoipa::ToSchema for SeedInput {}

#[cfg(test)]
mod seed_tests {
    use super::SeedInput;

    #[test]
    fn a_seed_reads_from_a_number_or_a_decimal_string_and_nothing_else() {
        let read = |json: &str| serde_json::from_str::<SeedInput>(json).map(|s| s.0);
        assert_eq!(read("7").ok(), Some(7));
        assert_eq!(read("\"13202136478012763868\"").ok(), Some(13_202_136_478_012_763_868));
        assert_eq!(read("18446744073709551615").ok(), Some(u64::MAX));
        for bad in
            ["-1", "\"-1\"", "\"\"", "\"1e3\"", "\" 7\"", "\"18446744073709551616\"", "1.5", "null", "[]"]
        {
            let e = read(bad).expect_err(bad).to_string();
            assert!(e.contains("a seed"), "{bad}: {e}");
        }
    }
}
