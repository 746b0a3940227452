//! Jump-capture games (any rule set of `jump-capture`) as environments for
//! learning programs, in the manner of OpenSpiel's games and PettingZoo's
//! turn-based environments.
//!
//! - **One jump a step.** A move is a path of jumps, and a position can
//!   have exponentially many paths, so no fixed action space holds whole
//!   paths. A step is one jump — *from cell c in direction d* — and the
//!   player keeps the turn while its chain can go on (OpenSpiel's checkers
//!   encodes multi-jumps the same way). Every prefix of a chain is a move in
//!   these games, so after a jump the player may also **stop**; when the
//!   chain cannot go on the move ends by itself. An opening's removal is
//!   one step: *remove cell c*. See [`Encoding`] for the indices.
//! - **Observations** are planes over the board, `[channels, rows, cols]`
//!   ([`Encoding::channels`]): a plane a kind of piece, empty cells, the
//!   board's cells, the moving piece mid-chain, the player to move (one
//!   plane a player) and each player's score (a constant plane, divided by
//!   the points on the board at the start).
//! - **Legal actions** come as a mask; **rewards** are the points each
//!   player scored by the step (given when the move ends, by the rule
//!   set's scoring), and a finished game's [`Env::returns`] are OpenSpiel's:
//!   +1 to the winners, −1 to the others, 0 to all when all share the win.
//! - [`Env::undo`] takes a step back; [`Batch`] steps many games at once,
//!   starting a finished one again.
//!
//! The step rule here is the engine's (tests check that the paths it walks
//! are exactly the engine's legal moves) but costs one jump's work a step:
//! nothing is enumerated.
//!
//! Modules: `encoding` (the layout of actions and planes), `env` (one
//! game), `sets` (every piece's jumps at once, on bit sets: the fast
//! path), `batch` (many).
//!
//! ```
//! use jump_capture::{Position, Preset, Rules};
//! use jump_env::{Action, Env};
//!
//! let rules = Rules::new(Preset::Murray.spec().with_size(6, 6))?;
//! let (start, _) = Position::start(rules, 2, Some(7))?;
//! let mut env = Env::new(start);
//! let first = env.legal_actions()[0];
//! // Murray opens with each player removing a piece.
//! assert!(matches!(env.encoding().decode(first), Some(Action::Remove(_))));
//! let rewards = env.step(first)?;
//! assert_eq!(rewards.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod batch;
mod encoding;
mod env;
mod sets;

pub use batch::{Batch, Outputs};
pub use encoding::{Action, Encoding};
pub use env::{Env, EnvError};
