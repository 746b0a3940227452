//! Every change of a game, as a pure function: a new game from its seats,
//! a rematch from a finished game, and [`Game::apply`] of a [`Command`]
//! at a given time, which answers the new game and the [`Change`]s it
//! made — or the rule that refuses it. The caller commits the new game
//! only if the stored one is still at the old version.

use std::sync::Arc;

use jump_capture as jc;

use super::{
    Game, GameStatus, HistoryMove, Holder, MAX_MOVE_LIMIT, MIN_MOVE_LIMIT, NewSeat, PlayerName, Resignation,
    RuleError, Seat, SeatAccount, Unreadable, Visibility,
};

/// What can be done to a game that exists. Who asks has been told apart
/// already: `player` is the seat whose token came with the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// The seat plays a move.
    Play {
        /// The seat.
        player: usize,
        /// The move as read from the request: one that does not read is
        /// refused only after the game and the turn are checked.
        mv: Result<jc::Move, Unreadable>,
    },
    /// The computer plays a move for the seat to move: its own, or a
    /// resigned one it plays.
    PlayForComputer {
        /// The move.
        mv: jc::Move,
    },
    /// Someone takes an open seat under a name.
    Join {
        /// Their name.
        name: PlayerName,
        /// The seat asked for; otherwise the first open one they may take.
        seat: Option<usize>,
        /// Whether they sent an invitation.
        with_invitation: bool,
        /// The private seats that invitation opens.
        invited: Vec<usize>,
        /// The joiner's account, when they join with one.
        account: Option<SeatAccount>,
    },
    /// A seat is given back while the game waits.
    Leave {
        /// The seat.
        player: usize,
        /// Whether it has an invitation: it opens private again.
        private: bool,
    },
    /// A seat resigns.
    Resign {
        /// The seat.
        player: usize,
    },
    /// The seat to move is resigned if it is out of time.
    TimeOut,
    /// The seat to move's turn counts from `turn_at` instead (its owner's
    /// vacation, rule book §11); nothing when no clock runs.
    Postpone {
        /// When the turn now counts from (Unix milliseconds).
        turn_at: i64,
        /// Why.
        reason: Postponement,
    },
    /// The game is marked abandoned if nothing changed in it before
    /// `idle_before` (Unix milliseconds) and it is not over.
    Abandon {
        /// The time before which its last change must be.
        idle_before: i64,
    },
}

/// What a command changed, in the order it happened: what followers of
/// the game are told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A move was played.
    Moved(HistoryMove),
    /// A person took an open seat.
    Joined {
        /// The seat.
        player: usize,
    },
    /// A seat was given back and is open again.
    Left {
        /// The seat.
        player: usize,
    },
    /// The last open seat was taken: play begins.
    Started,
    /// A seat resigned.
    Resigned {
        /// The seat.
        player: usize,
    },
    /// A seat ran out of time and is resigned.
    TimedOut {
        /// The seat.
        player: usize,
    },
    /// The game ended.
    Over,
    /// Nothing happened in the game for the server's idle time: it is
    /// abandoned (it still plays on if someone moves).
    Abandoned,
    /// The seat to move's deadline moved (its owner's vacation).
    Postponed {
        /// The seat.
        player: usize,
        /// Why.
        reason: Postponement,
    },
}

/// Why a seat's deadline moved (rule book §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Postponement {
    /// It reached its deadline and its owner spent a vacation day.
    VacationDay,
    /// Its owner's vacation began or ended early, or the turn came during it.
    Vacation,
}

/// A game to deal.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Its id.
    pub id: String,
    /// Most legal moves its start may have: a game whose moves one
    /// request could not list could not be served.
    pub max_moves: jc::PathBudget,
    /// Its rule set.
    pub rules: Arc<jc::Rules>,
    /// Its seats in turn order.
    pub seats: Vec<NewSeat>,
    /// The seed of the deal.
    pub seed: u64,
    /// Whether the creator chose the seed (such a deal is never rated).
    pub seed_chosen: bool,
    /// Seconds a person's seat has for a move, if limited.
    pub move_limit: Option<u32>,
    /// Who creates it: the client's address, or empty.
    pub client: String,
    /// Whether it is rated (rule book §13).
    pub rated: bool,
}

/// The fewest rows and columns a rated game's board has (rule book §13):
/// on smaller boards a game is over in a few plies, decided by the deal.
pub const RATED_MIN_SIDE: u8 = 6;

/// Refuses a rated game §13 does not allow: a preset's rules (any size
/// from 6×6, any direction set), dealt by the server, at least two seats,
/// only seats held by accounts or open for one, no account in two seats.
fn check_rateable(rules: &jc::Rules, seats: &[Seat], seed_chosen: bool) -> Result<(), RuleError> {
    let refuse = |why: &str| Err(RuleError::NotRateable(why.to_string()));
    if super::preset_pool(rules).is_none() {
        return refuse(
            "a rated game has a preset's rules (any size, any direction set), nothing else changed",
        );
    }
    if rules.rows() < RATED_MIN_SIDE || rules.cols() < RATED_MIN_SIDE {
        let (rows, cols) = (rules.rows(), rules.cols());
        let min = RATED_MIN_SIDE;
        return refuse(&format!("a {rows}×{cols} board: a rated game's board is at least {min}×{min}"));
    }
    if seed_chosen {
        return refuse("a rated game is dealt by the server: no seed");
    }
    if seats.len() < 2 {
        return refuse("a rated game has at least two seats, each held by another account");
    }
    for seat in seats {
        match (&seat.account, seat.holder) {
            (Some(account), _) => {
                if seats.iter().filter(|s| s.account.as_ref() == Some(account)).count() > 1 {
                    let detail = format!("seat {}: an account holds one seat of a rated game", seat.player);
                    return Err(RuleError::NotRateable(detail));
                }
            }
            (None, Holder::Open(_)) => {}
            (None, _) => {
                let detail = format!(
                    "seat {}: a rated game has only seats held by accounts or open for one (no computer, no anonymous seat)",
                    seat.player
                );
                return Err(RuleError::NotRateable(detail));
            }
        }
    }
    Ok(())
}

/// The name an open seat carries until someone joins it.
pub fn open_name() -> PlayerName {
    PlayerName::parse("Open seat").unwrap_or_else(|_| unreachable!("a valid name"))
}

impl Game {
    /// Deals `new` at `now`: version 1, nobody's turn begun before now.
    ///
    /// # Errors
    ///
    /// [`RuleError::MoveLimit`] for a limit out of bounds;
    /// [`RuleError::Players`] for a number of players the rules refuse;
    /// [`RuleError::TooManyMoves`] for a start with more moves than a
    /// request may list (such a game could not be served).
    pub fn new(new: NewGame, now: i64) -> Result<Game, RuleError> {
        if let Some(limit) = new.move_limit
            && !(MIN_MOVE_LIMIT..=MAX_MOVE_LIMIT).contains(&limit)
        {
            return Err(RuleError::MoveLimit(limit));
        }
        let seats = new.seats.into_iter().enumerate().map(|(player, seat)| {
            let (name, holder, account) = match seat {
                NewSeat::Person(name) => (name, Holder::Person, None),
                NewSeat::Account(account, name) => (name, Holder::Person, Some(account)),
                NewSeat::Computer(level, name) => (name, Holder::Computer(level), None),
                NewSeat::Open(visibility) => (open_name(), Holder::Open(visibility), None),
            };
            let bot = account.as_ref().is_some_and(|a| a.bot);
            Seat { player, name, holder, resigned: None, account: account.map(|a| a.id), bot }
        });
        let seats: Vec<Seat> = seats.collect();
        if new.rated {
            check_rateable(&new.rules, &seats, new.seed_chosen)?;
        }
        let mut game = Game::deal(new.id, new.rules, seats, new.seed, new.move_limit, new.client, now)?;
        game.check_moves(new.max_moves)?;
        game.rated = new.rated;
        Ok(game)
    }

    /// The rematch of this finished game, `id`, dealt with `seed` at `now`
    /// for `client`: the same rules, move time limit and kinds of seat, the
    /// seats rotated by one so that the second player moves first; every
    /// person's seat held by the person who had it.
    ///
    /// # Errors
    ///
    /// [`RuleError::NotOver`] before the end.
    pub fn rematch_game(
        &self,
        id: String,
        seed: u64,
        client: String,
        now: i64,
        max_moves: jc::PathBudget,
    ) -> Result<Game, RuleError> {
        if self.status() != GameStatus::Over {
            return Err(RuleError::NotOver);
        }
        let n = self.seats.len();
        // New seat q is old seat q + 1: the second player moves first.
        let seats = (0..n)
            .map(|q| {
                let old = &self.seats[(q + 1) % n];
                let holder = match old.holder {
                    Holder::Computer(level) => Holder::Computer(level),
                    Holder::Person | Holder::Open(_) => Holder::Person,
                };
                Seat {
                    player: q,
                    name: old.name.clone(),
                    holder,
                    resigned: None,
                    account: old.account.clone(),
                    bot: old.bot,
                }
            })
            .collect();
        let mut game = Game::deal(id, self.rules.clone(), seats, seed, self.move_limit, client, now)?;
        game.check_moves(max_moves)?;
        game.rated = self.rated;
        Ok(game)
    }

    fn deal(
        id: String,
        rules: Arc<jc::Rules>,
        seats: Vec<Seat>,
        seed: u64,
        move_limit: Option<u32>,
        client: String,
        now: i64,
    ) -> Result<Game, RuleError> {
        let (position, seed) = jc::Position::start(rules.clone(), seats.len(), Some(seed))?;
        Ok(Game {
            id,
            version: 1,
            rules,
            seed,
            seats,
            stuck: position.is_over(),
            position,
            created_at: now,
            updated_at: now,
            client,
            abandoned_at: None,
            move_limit,
            turn_at: now,
            rematch: None,
            rated: false,
            rating_changes: None,
            // A new game's log is empty.
            events: Some(0),
        })
    }

    /// Refuses a start with more legal moves than `most`.
    fn check_moves(&self, most: jc::PathBudget) -> Result<(), RuleError> {
        match self.position.count_moves(most) {
            Ok(_) => Ok(()),
            Err(_) => Err(RuleError::TooManyMoves { most: most.paths() }),
        }
    }

    /// Applies `command` at `now` (Unix milliseconds): the game after it,
    /// one version on, and what changed. A time-out that is not due, or an
    /// abandonment of a game that is not idle, changes nothing: the same
    /// game and no changes.
    ///
    /// # Errors
    ///
    /// The rule that refuses the command: [`RuleError::Waiting`],
    /// [`RuleError::Over`], [`RuleError::NotYourTurn`] or an illegal move
    /// for a move; [`RuleError::NotWaiting`], [`RuleError::NoSuchSeat`],
    /// [`RuleError::SeatTaken`], [`RuleError::Invitation`] or
    /// [`RuleError::NoOpenSeat`] for a join or a leave;
    /// [`RuleError::AlreadyResigned`] for a resignation.
    pub fn apply(&self, command: Command, now: i64) -> Result<(Game, Vec<Change>), RuleError> {
        let mut next = self.clone();
        let mut changes = Vec::new();
        match command {
            Command::Play { player, mv } => {
                self.check_playable()?;
                let to_move = self.position.to_move();
                if player != to_move {
                    return Err(RuleError::NotYourTurn { to_move, seat: player });
                }
                // The computer plays a resigned seat from then on.
                if self.seats[player].resigned.is_some() {
                    return Err(RuleError::AlreadyResigned { player });
                }
                let mv = mv.map_err(RuleError::Invalid)?;
                changes.push(next.play(&mv, now, false)?);
            }
            Command::PlayForComputer { mv } => {
                self.check_playable()?;
                if self.computer_to_move().is_none() {
                    let to_move = self.position.to_move();
                    return Err(RuleError::NotYourTurn { to_move, seat: to_move });
                }
                changes.push(next.play(&mv, now, true)?);
            }
            Command::Join { name, seat, with_invitation, invited, account } => {
                if self.status() != GameStatus::Waiting {
                    return Err(RuleError::NotWaiting);
                }
                let player = self.seat_to_join(seat, with_invitation, &invited)?;
                changes.push(self.join(&mut next, player, name, account)?);
            }
            Command::Leave { player, private } => changes.push(self.leave(&mut next, player, private)?),
            Command::Resign { player } => {
                self.check_playable()?;
                if self.seats[player].resigned.is_some() {
                    return Err(RuleError::AlreadyResigned { player });
                }
                next.seats[player].resigned = Some(Resignation::Resigned);
                changes.push(Change::Resigned { player });
            }
            Command::TimeOut => {
                if self.turn_ends_at().is_none_or(|end| now < end) {
                    return Ok((next, changes));
                }
                let player = self.position.to_move();
                next.seats[player].resigned = Some(Resignation::TimedOut);
                changes.push(Change::TimedOut { player });
            }
            Command::Postpone { turn_at, reason } => {
                if self.turn_ends_at().is_none() || turn_at == self.turn_at {
                    return Ok((next, changes));
                }
                next.turn_at = turn_at;
                changes.push(Change::Postponed { player: self.position.to_move(), reason });
            }
            Command::Abandon { idle_before } => {
                let idle = self.updated_at < idle_before && self.abandoned_at.is_none();
                if !idle || self.status() == GameStatus::Over {
                    return Ok((next, changes));
                }
                next.version = self.version + 1;
                next.abandoned_at = Some(now);
                changes.push(Change::Abandoned);
                return Ok((next, changes));
            }
        }
        self.stamp(&mut next, &mut changes, now);
        Ok((next, changes))
    }

    /// A change made: `next` gets its version and time, and the game's
    /// start or end when the change made it.
    fn stamp(&self, next: &mut Game, changes: &mut Vec<Change>, now: i64) {
        next.version = self.version + 1;
        next.updated_at = now;
        next.abandoned_at = None;
        if self.status() == GameStatus::Waiting && next.status() == GameStatus::Started {
            // The first seat to move gets its time from the start.
            next.turn_at = now;
            changes.push(Change::Started);
        }
        if self.status() != GameStatus::Over && next.status() == GameStatus::Over {
            changes.push(Change::Over);
        }
    }

    /// [`Command::Join`]: someone takes open seat `player` of `next`.
    fn join(
        &self,
        next: &mut Game,
        player: usize,
        name: PlayerName,
        account: Option<SeatAccount>,
    ) -> Result<Change, RuleError> {
        if self.rated {
            let Some(joiner) = &account else { return Err(RuleError::RatedNeedsAccount) };
            if let Some(held) = self.seats.iter().find(|s| s.account.as_ref() == Some(&joiner.id)) {
                return Err(RuleError::AlreadySeated { player: held.player });
            }
        }
        let bot = account.as_ref().is_some_and(|a| a.bot);
        let account = account.map(|a| a.id);
        next.seats[player] = Seat { player, name, holder: Holder::Person, resigned: None, account, bot };
        Ok(Change::Joined { player })
    }

    /// [`Command::Leave`]: a seat of `next` is given back while it waits.
    fn leave(&self, next: &mut Game, player: usize, private: bool) -> Result<Change, RuleError> {
        if self.status() != GameStatus::Waiting {
            return Err(RuleError::NotWaiting);
        }
        let visibility = if private { Visibility::Private } else { Visibility::Public };
        next.seats[player] = Seat {
            player,
            name: open_name(),
            holder: Holder::Open(visibility),
            resigned: None,
            account: None,
            bot: false,
        };
        Ok(Change::Left { player })
    }

    /// Plays `mv` for the seat to move: its turn starts the next seat's.
    fn play(&mut self, mv: &jc::Move, now: i64, computer: bool) -> Result<Change, RuleError> {
        let ply = self.position.ply();
        let played = self.position.play(mv)?;
        self.stuck = self.position.is_over();
        self.turn_at = now;
        Ok(Change::Moved(HistoryMove::of(ply, &played, now, computer)))
    }

    /// The open seat a joiner takes: `asked` if they may, otherwise the
    /// first private seat their invitation opens, otherwise the first
    /// public one.
    fn seat_to_join(
        &self,
        asked: Option<usize>,
        with_invitation: bool,
        invited: &[usize],
    ) -> Result<usize, RuleError> {
        let open = |visibility| {
            self.seats.iter().filter(move |s| s.holder == Holder::Open(visibility)).map(|s| s.player)
        };
        match asked {
            Some(p) => {
                let seat =
                    self.seats.get(p).ok_or(RuleError::NoSuchSeat { player: p, seats: self.seats.len() })?;
                match seat.holder {
                    Holder::Open(Visibility::Public) => Ok(p),
                    Holder::Open(Visibility::Private) if invited.contains(&p) => Ok(p),
                    Holder::Open(Visibility::Private) => Err(RuleError::Invitation),
                    Holder::Person | Holder::Computer(_) => Err(RuleError::SeatTaken { player: p }),
                }
            }
            None if with_invitation => {
                open(Visibility::Private).find(|p| invited.contains(p)).ok_or(RuleError::Invitation)
            }
            None => open(Visibility::Public).next().ok_or(RuleError::NoOpenSeat),
        }
    }
}
