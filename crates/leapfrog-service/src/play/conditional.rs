//! Conditional moves (rule book §11): in a long game of two seats, the
//! seat whose opponent is to move may keep lines — "if they play X, I play
//! Y, then if they play Z, I play W" — checked against the rules when
//! kept. When the opponent plays a line's first move, the server plays its
//! reply for the seat at once, through this service like any move; the
//! lines that go on are kept for the next turn, the others are dropped.

use jump_capture as jc;

use super::queries as read;
use super::{GameError, Games, now_ms};
use leapfrog_core::game::{Command, Credential, Game, conditional_reply};

/// Most lines a seat may keep.
pub const MAX_LINES: usize = 32;
/// Most plies in a line.
pub const MAX_PLIES: usize = 20;

/// A seat's lines, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    /// The seat.
    pub player: usize,
    /// The ply of the opponent's move each line begins with.
    pub ply: u32,
    /// The lines: plies in notation, the opponent's first.
    pub lines: Vec<Vec<String>>,
}

/// Why lines are refused.
#[derive(Debug, thiserror::Error)]
pub enum ConditionalError {
    /// Not a long game of two seats under way.
    #[error("conditional moves are kept only in a game of two seats with a day or more a move, under way")]
    NotLong,
    /// The seat is to move itself.
    #[error("it is this seat's own turn: play a move instead")]
    YourTurn,
    /// Too many lines or plies.
    #[error("{0}")]
    TooMany(String),
    /// A line that does not read or is not legal, at `line` and `ply`
    /// (from 0).
    #[error("line {line}, ply {ply}: {detail}")]
    Line {
        /// The line.
        line: usize,
        /// The ply in it.
        ply: usize,
        /// What is wrong.
        detail: String,
    },
    /// A store or game failure.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// Reads and checks `lines` from `game`'s position: each a move of the
/// opponent, then the seat's reply, and so on, every one legal in turn.
fn check(game: &Game, lines: &[Vec<String>]) -> Result<Vec<Vec<jc::Move>>, ConditionalError> {
    if lines.len() > MAX_LINES {
        return Err(ConditionalError::TooMany(format!("{} lines; the most is {MAX_LINES}", lines.len())));
    }
    let mut read = Vec::with_capacity(lines.len());
    for (l, line) in lines.iter().enumerate() {
        let bad = |ply, detail: String| ConditionalError::Line { line: l, ply, detail };
        if line.len() < 2 || line.len() % 2 == 1 || line.len() > MAX_PLIES {
            let detail = format!(
                "{} plies; a line is the opponent's move and a reply, in pairs, at most {MAX_PLIES}",
                line.len()
            );
            return Err(bad(line.len(), detail));
        }
        let mut position = game.position().clone();
        let mut moves = Vec::with_capacity(line.len());
        for (p, ply) in line.iter().enumerate() {
            let mv: jc::Move = ply.parse().map_err(|e| bad(p, format!("'{ply}' does not read: {e}")))?;
            position.play(&mv).map_err(|e| bad(p, format!("{ply} is not legal there: {e}")))?;
            if position.is_over() && p + 1 < line.len() {
                return Err(bad(p + 1, "the game is over before it".into()));
            }
            moves.push(mv);
        }
        read.push(moves);
    }
    Ok(read)
}

/// The lines as kept: each move in its own notation.
fn written(lines: &[Vec<jc::Move>]) -> Vec<Vec<String>> {
    lines.iter().map(|l| l.iter().map(ToString::to_string).collect()).collect()
}

impl Games {
    /// Keeps `lines` for the seat `credential` holds in game `id`, for the
    /// opponent's move now to come; no lines: none kept.
    ///
    /// # Errors
    ///
    /// [`ConditionalError`]s; [`GameError::NotASeat`].
    pub async fn set_conditional_moves(
        &self,
        id: &str,
        credential: &Credential,
        lines: &[Vec<String>],
    ) -> Result<Lines, ConditionalError> {
        let (game, seat) = read::with_seat(&self.store, id, credential).await?;
        let player = seat.ok_or(GameError::NotASeat)?;
        if !game.takes_conditional_moves() {
            return Err(ConditionalError::NotLong);
        }
        if game.position().to_move() == player {
            return Err(ConditionalError::YourTurn);
        }
        let kept = written(&check(&game, lines)?);
        let ply = game.position().ply();
        self.store
            .set_conditional_moves(id, player as i64, i64::from(ply), &kept, now_ms())
            .await
            .map_err(GameError::from)?;
        Ok(Lines { player, ply, lines: kept })
    }

    /// The lines the seat `credential` holds in game `id` keeps (none once
    /// they no longer stand for the game's position).
    ///
    /// # Errors
    ///
    /// [`GameError::NotASeat`]; store failures.
    pub async fn conditional_moves(&self, id: &str, credential: &Credential) -> Result<Lines, GameError> {
        let (game, seat) = read::with_seat(&self.store, id, credential).await?;
        let player = seat.ok_or(GameError::NotASeat)?;
        let ply = game.position().ply();
        let lines = match self.store.conditional_moves(id, player as i64).await? {
            Some((kept, lines)) if kept == i64::from(ply) => lines,
            _ => vec![],
        };
        Ok(Lines { player, ply, lines })
    }

    /// After a move made `after`: while the seat now to move has a line
    /// beginning with that move, its reply is played (lines that go on are
    /// kept, the others dropped). Failures are logged: the move that
    /// triggered them stands.
    pub(super) async fn follow_conditional_moves(&self, after: &Game) {
        let mut game = after.clone();
        for _ in 0..MAX_PLIES {
            match self.conditional_reply(&game).await {
                Ok(Some(next)) => game = next,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(game = %game.id(), error = %e, "a conditional move was not played");
                    return;
                }
            }
        }
    }

    /// The reply the seat to move in `game` has kept for the move just
    /// played (the core's [`conditional_reply`]), played; `None` when it
    /// has none.
    async fn conditional_reply(&self, game: &Game) -> Result<Option<Game>, GameError> {
        let ply = game.position().ply();
        if !game.takes_conditional_moves() || ply == 0 {
            return Ok(None);
        }
        let me = game.position().to_move();
        let Some((kept, lines)) = self.store.conditional_moves(game.id(), me as i64).await? else {
            return Ok(None);
        };
        let drop_all = || self.store.set_conditional_moves(game.id(), me as i64, 0, &[], now_ms());
        if kept != i64::from(ply - 1) {
            drop_all().await?;
            return Ok(None);
        }
        let played = self.store.moves(game.id(), i64::from(ply - 1)).await?;
        let Some(last) = played.first().and_then(|m| m.notation.parse::<jc::Move>().ok()) else {
            return Ok(None);
        };
        // Lines were checked when kept; one that no longer reads is left out.
        let lines: Vec<Vec<jc::Move>> =
            lines.iter().filter_map(|l| l.iter().map(|m| m.parse().ok()).collect()).collect();
        let Some((reply, rest)) = conditional_reply(&lines, &last) else {
            drop_all().await?;
            return Ok(None);
        };
        let (next, changes) = game.apply(Command::Play { player: me, mv: Ok(reply) }, now_ms())?;
        let Some(next) = self.commit(game, next, &changes, None, None).await? else {
            return Ok(None);
        };
        // The lines that go on stand for the opponent's next move.
        let rest = written(&rest);
        self.store.set_conditional_moves(game.id(), me as i64, i64::from(ply + 1), &rest, now_ms()).await?;
        tracing::info!(game = %game.id(), player = me, ply, "a conditional move was played");
        Ok(Some(next))
    }
}
