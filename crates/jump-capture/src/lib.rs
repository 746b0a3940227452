//! Rules engine for jump-capture board games: "jump over a neighbour into
//! the empty cell behind it, capturing it".
//!
//! One generic engine plays Leap Frog (H. J. R. Murray, 1898) in its old and
//! coloured versions, BrainKing's Froglet, their diagonal variants, and
//! kindred games such as Konane. A rule set is data ([`RulesSpec`]): board
//! size and mask, direction set, kinds of piece with values and owners,
//! chain rule, opening, scoring and end rule. [`Preset`]s give the named
//! games; any field can be changed.
//!
//! - [`Rules`]: a checked rule set; [`Position`]: a board under it, with the
//!   ply and scores.
//! - Notation: [`Setup`] (position strings), [`Grid`] (board strings),
//!   [`Move`] (`c3xe3xe5`), all `FromStr` and `Display`, canonical output.
//! - Play: [`Position::legal_moves`], [`Position::jump_tree`],
//!   [`Position::play`] (refusing with an [`IllegalMove`] reason),
//!   [`Position::outcome`].
//! - Counting: [`Position::perft`] and [`Position::divide`], on bitboards
//!   with make/unmake, bulk counting at the leaves, and a table of the
//!   counts of positions reached again.
//! - Budgets: a position's moves can be exponentially many (every prefix
//!   of a chain is a move). Every call that counts, lists or walks them
//!   takes a [`PathBudget`] and stops with [`OverBudget`] past it; only the
//!   `*_unbounded` twins can run for ever. Whether a move exists
//!   ([`Position::has_moves`], [`Position::is_over`], [`Position::phase`])
//!   is never counted.
//!
//! The crate has one `unsafe` module: on x86-64 builds with SSSE3 enabled
//! (this workspace builds for `x86-64-v2`), the eight-direction probe of a
//! cell's neighbourhood is a few vector instructions, and on every x86-64
//! build (SSE2) one cell of four or eight bit sets is read at once. Other
//! builds use scalar code, with the same results (tests hold them equal).
//!
//! # Example
//!
//! The worked example of the rule book (`docs/rules.md` §10): Leap Frog `old` on a 3×3 board with
//! file `a` empty.
//!
//! ```
//! use jump_capture::{Move, PathBudget, Position, Preset, Setup};
//!
//! let rules = jump_capture::Rules::new(Preset::Old.spec().with_size(3, 3))?;
//! let setup: Setup = "1OO/1OO/1OO 2 1,1".parse()?;
//! let mut pos = Position::from_setup(rules, &setup)?;
//!
//! // A budget bounds the work: at most a million paths by default.
//! let budget = PathBudget::default();
//! let moves: Vec<String> = pos.legal_moves(budget)?.iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["c1xa1", "c2xa2", "c3xa3"]);
//! assert_eq!(pos.perft(2, budget)?, 12);
//! assert_eq!(pos.perft(2, PathBudget::new(3)).unwrap_err().budget, 3);
//!
//! let played = pos.play(&"c2xa2".parse::<Move>()?)?;
//! assert_eq!(played.gain, 1);
//! assert_eq!(pos.to_string(), "1OO/O2/1OO 3 2,1");
//! assert_eq!(pos.legal_moves(budget)?.len(), 4);
//!
//! // An illegal move is refused with the reason, and nothing changes.
//! let err = pos.play(&"b1xb3".parse::<Move>()?).unwrap_err();
//! assert_eq!(err.to_string(), "b1 to b3 jumps over b2, which is empty");
//! assert_eq!(pos.to_string(), "1OO/O2/1OO 3 2,1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A new game is dealt from a seed, the same on every platform:
//!
//! ```
//! use jump_capture::{PathBudget, Position, Preset};
//!
//! let (pos, seed) = Position::start(Preset::Murray.rules(), 3, Some(42))?;
//! assert_eq!(seed, 42);
//! assert_eq!(pos.piece_count(), 225);
//! assert_eq!(pos.count_moves(PathBudget::default())?, 225); // the first player removes any piece
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Other projects build on this crate: every public item says what it is
// (CI denies warnings).
#![warn(missing_docs)]

mod bits;
mod budget;
mod cell;
mod deal;
mod gather;
mod grid;
mod layout;
mod movegen;
mod moves;
mod outcome;
mod position;
mod preset;
mod rules;
mod setup;
mod shape;

pub use budget::{OverBudget, PathBudget};
pub use cell::{Cell, Direction, DirectionSet, MAX_SIDE, ParseCellError, ParseDirectionSetError};
pub use deal::{apportion, random_seed};
pub use grid::{Grid, ParseBoardError, Square};
pub use moves::{IllegalMove, JumpTree, Move, MoveList, ParseMoveError, ScoredPath, jumped_over};
pub use outcome::{Outcome, Solitaire, Standing};
pub use position::{Phase, Played, Position, PositionError, sort_by_notation};
pub use preset::{LEAP_FROG_MAX_PLAYERS, ParsePresetError, Preset};
pub use rules::{
    Capture, Chain, EndRule, Fill, Kind, MAX_PLAYERS, Opening, PlayersError, Rules, RulesError, RulesSpec,
};
pub use setup::{ParsePositionError, Setup};
pub use shape::Shape;
