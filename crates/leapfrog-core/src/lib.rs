//! The game core of the leapfrog service: a persisted game — its rules,
//! seats, turns and clocks — and the rules of rule book §11 as pure
//! functions of a game, a command, the time and plain inputs.
//!
//! - [`game`]: [`game::Game::apply`] takes a command and the time and
//!   answers the next game and what changed, or the refusal.
//! - [`names`]: the checks of the names people and rule sets give.
//! - [`tournament`]: pairings and standings of events (round-robin,
//!   Swiss, arena) from their history.
//! - [`same_variants!`]: the one way a form's enum maps to the rules
//!   crate's.
//!
//! Nothing here reads a clock or the system's randomness, touches a
//! database, or knows of HTTP or JSON.

pub mod game;
pub mod names;
pub mod tournament;

/// `From` both ways between an enum of a form (JSON, stored) and the
/// rules crate's enum of the same variants: each mapping written once.
///
/// `same_variants!(Directions, DirectionSet; Orthogonal, Diagonal, All, Hex)`
/// maps `Directions` and `jump_capture::DirectionSet` variant for variant.
#[macro_export]
macro_rules! same_variants {
    ($form:ident, $rules:ident; $($v:ident),+) => {
        impl From<$form> for ::jump_capture::$rules {
            fn from(v: $form) -> Self {
                match v {
                    $($form::$v => ::jump_capture::$rules::$v),+
                }
            }
        }
        impl From<::jump_capture::$rules> for $form {
            fn from(v: ::jump_capture::$rules) -> Self {
                match v {
                    $(::jump_capture::$rules::$v => $form::$v),+
                }
            }
        }
    };
}
