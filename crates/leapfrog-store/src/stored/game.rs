//! A game and its moves as the store's rows, and back: the one place that
//! knows both, in the store's own forms (the `stored` module's).

use jump_capture as jc;

use crate::stored::{
    self, Ended, OpenTo, Resigned, StoredRatingChange, StoredResult, StoredSeat, StoredStanding,
};
use crate::{GameRow, MoveRow, StoreError};
use leapfrog_core::game::{
    Captured, Game, GameResult, HistoryMove, Holder, PlayerName, RatingChange, Resignation, RuleError, Seat,
    StoredGame, Visibility, preset_pool, seat_level,
};

/// A game as the store's rows, and back.
pub trait GameRows: Sized {
    /// A stored game made live again.
    ///
    /// # Errors
    ///
    /// [`RuleError::Corrupt`] naming the column that does not read.
    fn from_row(row: GameRow) -> Result<Self, RuleError>;
    /// The row that stores it, rules and all.
    ///
    /// # Errors
    ///
    /// [`StoreError::Encode`] if a column does not encode (never, for
    /// these plain values).
    fn to_row(&self) -> Result<GameRow, StoreError>;
    /// The row of a change of a stored game: as [`GameRows::to_row`] but
    /// for the rules, which are written once, at creation, and never again
    /// (left empty here: a move need not serialise its whole rule set).
    ///
    /// # Errors
    ///
    /// [`StoreError::Encode`] if a column does not encode.
    fn to_changed_row(&self) -> Result<GameRow, StoreError>;
    /// Gives the moves of `history` (this game's, from the first) the
    /// kinds they took, replaying the game when a move was stored without
    /// them.
    ///
    /// # Errors
    ///
    /// A history that does not replay.
    fn fill_kinds(&self, history: &mut [HistoryMove]) -> Result<(), RuleError>;
}

/// A move of a game's history as the store's row, and back.
pub trait MoveRows: Sized {
    /// A stored move; its kinds, when stored before kinds were, are `?`
    /// until [`GameRows::fill_kinds`].
    ///
    /// # Errors
    ///
    /// [`RuleError::Corrupt`] for a row that does not read.
    fn from_row(id: &str, m: MoveRow) -> Result<Self, RuleError>;
    /// The row that stores it.
    ///
    /// # Errors
    ///
    /// [`StoreError::Encode`] (never, for a list of cells).
    fn to_row(&self) -> Result<MoveRow, StoreError>;
    /// Whether a kind it took is not known (stored before kinds were).
    fn lacks_kinds(&self) -> bool;
}

impl GameRows for Game {
    fn from_row(row: GameRow) -> Result<Game, RuleError> {
        let id = row.id;
        let corrupt = |what, e: &dyn std::fmt::Display| RuleError::corrupt(&id, what, e);
        let rules = stored::read_rules(&row.rules).map_err(|e| corrupt("rules", &e))?;
        let setup: jc::Setup = row.position.parse().map_err(|e| corrupt("position", &e))?;
        let position =
            jc::Position::from_setup(rules.clone(), &setup).map_err(|e| corrupt("position", &e))?;
        let names: Vec<String> = serde_json::from_str(&row.players).map_err(|e| corrupt("players", &e))?;
        let levels: Vec<Option<String>> = match &row.computers {
            Some(json) => serde_json::from_str(json).map_err(|e| corrupt("computers", &e))?,
            None => Vec::new(),
        };
        let states: Vec<StoredSeat> = match &row.seating {
            Some(json) => serde_json::from_str(json).map_err(|e| corrupt("seating", &e))?,
            None => Vec::new(),
        };
        let seats = names
            .iter()
            .enumerate()
            .map(|(player, name)| {
                let name = PlayerName::stored(name);
                let state = states.get(player).cloned().unwrap_or_default();
                let resigned = state.resigned.map(|r| match r {
                    Resigned::Resigned => Resignation::Resigned,
                    Resigned::TimedOut => Resignation::TimedOut,
                });
                // A resigned person's seat is in `computers` too (the
                // computer plays it), but its holder stays the person.
                let holder = match (state.open, resigned, levels.get(player).and_then(Option::as_deref)) {
                    (Some(OpenTo::Public), _, _) => Holder::Open(Visibility::Public),
                    (Some(OpenTo::Private), _, _) => Holder::Open(Visibility::Private),
                    (None, None, Some(level)) => {
                        Holder::Computer(level.parse().map_err(|e| corrupt("computers", &e))?)
                    }
                    _ => Holder::Person,
                };
                Ok(Seat { player, name, holder, resigned, account: state.account.clone(), bot: state.bot })
            })
            .collect::<Result<_, RuleError>>()?;
        let seed = row.seed.parse().map_err(|e| corrupt("seed", &e))?;
        let result =
            row.result.as_deref().map(StoredResult::read).transpose().map_err(|e| corrupt("result", &e))?;
        // Over, and not by resignation: the position is.
        let stuck = row.status == "over" && result.as_ref().is_none_or(|r| r.ended == Ended::Play);
        let rating_changes = result.and_then(|r| r.ratings).map(|changes| {
            changes
                .iter()
                .map(|c| RatingChange {
                    player: c.player,
                    before: (c.rating_before, c.deviation_before),
                    after: (c.rating_after, c.deviation_after),
                })
                .collect()
        });
        Ok(Game::restore(StoredGame {
            stuck,
            version: row.version,
            rules,
            seed,
            seats,
            position,
            created_at: row.created_at,
            updated_at: row.updated_at,
            client: row.client,
            abandoned_at: row.abandoned_at,
            move_limit: row
                .move_limit
                .map(|l| u32::try_from(l).map_err(|e| corrupt("move limit", &e)))
                .transpose()?,
            turn_at: row.turn_at.unwrap_or(row.updated_at),
            rematch: row.rematch,
            rated: row.rated != 0,
            rating_changes,
            events: row.events.map(|n| u64::try_from(n).map_err(|e| corrupt("events", &e))).transpose()?,
            id,
        }))
    }

    fn to_row(&self) -> Result<GameRow, StoreError> {
        Ok(GameRow { rules: stored::rules_json(self.rules())?, ..self.to_changed_row()? })
    }

    fn to_changed_row(&self) -> Result<GameRow, StoreError> {
        let names: Vec<&str> = self.seats().iter().map(|s| s.name.as_str()).collect();
        let result = self.result().map(|r| stored_result(&r));
        Ok(GameRow {
            id: self.id().to_string(),
            version: self.version(),
            rules: String::new(),
            seed: self.seed().to_string(),
            players: stored::json_of(&names)?,
            position: self.position().to_string(),
            status: self.phase().name().to_string(),
            result: result.as_ref().map(StoredResult::to_json).transpose()?,
            created_at: self.created_at(),
            updated_at: self.updated_at(),
            client: self.client().to_string(),
            abandoned_at: self.abandoned_at(),
            computers: computers_json(self)?,
            seating: seating_json(self)?,
            open_seats: self.seats().iter().filter(|s| matches!(s.holder, Holder::Open(_))).count() as i64,
            public_seats: self.seats().iter().filter(|s| s.holder == Holder::Open(Visibility::Public)).count()
                as i64,
            move_limit: self.move_limit().map(i64::from),
            turn_at: Some(self.turn_at()),
            rematch: self.rematch().map(str::to_string),
            rated: i64::from(self.rated()),
            pool: preset_pool(self.rules()),
            computer_due: self.computer_to_move().map(|_| self.turn_at()),
            events: self.events().map(|n| n as i64),
        })
    }

    fn fill_kinds(&self, history: &mut [HistoryMove]) -> Result<(), RuleError> {
        if !history.iter().any(HistoryMove::lacks_kinds) {
            return Ok(());
        }
        let (_, played) = self.replay(history)?;
        for (m, p) in history.iter_mut().zip(played) {
            for (c, (_, kind)) in m.captures.iter_mut().zip(p.captures) {
                c.kind = kind;
            }
        }
        Ok(())
    }
}

/// Each seat's level or null: the computer's seats and the resigned
/// seats it plays; `None` when it plays none.
fn computers_json(game: &Game) -> Result<Option<String>, StoreError> {
    let levels: Vec<Option<String>> =
        game.seats().iter().map(|s| seat_level(s).map(|l| l.to_string())).collect();
    levels.iter().any(Option::is_some).then(|| stored::json_of(&levels)).transpose()
}

/// Each seat's state; `None` when every seat is simply held.
fn seating_json(game: &Game) -> Result<Option<String>, StoreError> {
    let states: Vec<StoredSeat> = game
        .seats()
        .iter()
        .map(|s| StoredSeat {
            bot: s.bot,
            account: s.account.clone(),
            open: match s.holder {
                Holder::Open(Visibility::Public) => Some(OpenTo::Public),
                Holder::Open(Visibility::Private) => Some(OpenTo::Private),
                Holder::Person | Holder::Computer(_) => None,
            },
            resigned: s.resigned.map(|r| match r {
                Resignation::Resigned => Resigned::Resigned,
                Resignation::TimedOut => Resigned::TimedOut,
            }),
        })
        .collect();
    states.iter().any(|s| *s != StoredSeat::default()).then(|| stored::json_of(&states)).transpose()
}

/// The stored form of a result.
fn stored_result(r: &GameResult) -> StoredResult {
    StoredResult {
        winners: r.outcome.winners.clone(),
        shared: r.outcome.is_shared(),
        standings: r
            .outcome
            .standings
            .iter()
            .map(|s| StoredStanding {
                player: s.player,
                score: s.score,
                rank: s.rank,
                resigned: r.resigned.get(s.player).copied().unwrap_or(false),
            })
            .collect(),
        ended: match (r.aborted, r.by_resignation) {
            (true, _) => Ended::Aborted,
            (false, true) => Ended::Resignation,
            (false, false) => Ended::Play,
        },
        ratings: (!r.ratings.is_empty()).then(|| {
            r.ratings
                .iter()
                .map(|c| StoredRatingChange {
                    player: c.player,
                    rating_before: c.before.0,
                    deviation_before: c.before.1,
                    rating_after: c.after.0,
                    deviation_after: c.after.1,
                })
                .collect()
        }),
    }
}

impl MoveRows for HistoryMove {
    fn from_row(id: &str, m: MoveRow) -> Result<HistoryMove, RuleError> {
        let corrupt = |e: &dyn std::fmt::Display| RuleError::corrupt(id, "move", e);
        let cells: Vec<String> = serde_json::from_str(&m.captures).map_err(|e| corrupt(&e))?;
        let kinds: Vec<char> = m.kinds.as_deref().map(|k| k.chars().collect()).unwrap_or_default();
        let captures = cells
            .into_iter()
            .enumerate()
            .map(|(i, cell)| Captured { cell, kind: kinds.get(i).copied().unwrap_or(UNKNOWN_KIND) })
            .collect();
        Ok(HistoryMove {
            ply: u32::try_from(m.ply).map_err(|e| corrupt(&e))?,
            player: usize::try_from(m.player).map_err(|e| corrupt(&e))?,
            mv: m.notation.parse().map_err(|e| corrupt(&e))?,
            captures,
            gain: u32::try_from(m.gain).map_err(|e| corrupt(&e))?,
            at: m.at,
            computer: m.computer != 0,
        })
    }

    fn to_row(&self) -> Result<MoveRow, StoreError> {
        let cells: Vec<&str> = self.captures.iter().map(|c| c.cell.as_str()).collect();
        Ok(MoveRow {
            ply: i64::from(self.ply),
            player: self.player as i64,
            notation: self.mv.to_string(),
            captures: stored::json_of(&cells)?,
            gain: i64::from(self.gain),
            at: self.at,
            computer: i64::from(self.computer),
            kinds: Some(stored::kinds_text(self.captures.iter().map(|c| c.kind))),
        })
    }

    fn lacks_kinds(&self) -> bool {
        self.captures.iter().any(|c| c.kind == UNKNOWN_KIND)
    }
}

/// The kind of a piece taken by a move stored before kinds were, until the
/// game is replayed.
const UNKNOWN_KIND: char = '?';
