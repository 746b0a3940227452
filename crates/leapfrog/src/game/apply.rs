//! Every change of a game, as a pure function: a new game from its seats,
//! a rematch from a finished game, and [`Game::apply`] of a [`Command`]
//! at a given time, which answers the new game and the [`Change`]s it
//! made — or the rule that refuses it. The caller commits the new game
//! only if the stored one is still at the old version.

use std::sync::Arc;

use jump_capture as jc;

use super::{
    Game, GameError, GameStatus, HistoryMove, Holder, MAX_MOVE_LIMIT, MIN_MOVE_LIMIT, NewSeat, PlayerName,
    Resignation, Seat, Unreadable, Visibility,
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
}

/// A game to deal.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Its id.
    pub id: String,
    /// Its rule set.
    pub rules: Arc<jc::Rules>,
    /// Its seats in turn order.
    pub seats: Vec<NewSeat>,
    /// The seed of the deal.
    pub seed: u64,
    /// Seconds a person's seat has for a move, if limited.
    pub move_limit: Option<u32>,
    /// Who creates it: the client's address, or empty.
    pub client: String,
}

/// The name an open seat carries until someone joins it.
pub(crate) fn open_name() -> PlayerName {
    PlayerName::parse("Open seat").unwrap_or_else(|_| unreachable!("a valid name"))
}

impl Game {
    /// Deals `new` at `now`: version 1, nobody's turn begun before now.
    ///
    /// # Errors
    ///
    /// [`GameError::MoveLimit`] for a limit out of bounds;
    /// [`GameError::Players`] for a number of players the rules refuse;
    /// [`GameError::TooManyMoves`] for a start with more moves than a
    /// request may list (such a game could not be served).
    pub fn new(new: NewGame, now: i64) -> Result<Game, GameError> {
        if let Some(limit) = new.move_limit
            && !(MIN_MOVE_LIMIT..=MAX_MOVE_LIMIT).contains(&limit)
        {
            return Err(GameError::MoveLimit(limit));
        }
        let seats = new.seats.into_iter().enumerate().map(|(player, seat)| {
            let (name, holder) = match seat {
                NewSeat::Person(name) => (name, Holder::Person),
                NewSeat::Computer(level, name) => (name, Holder::Computer(level)),
                NewSeat::Open(visibility) => (open_name(), Holder::Open(visibility)),
            };
            Seat { player, name, holder, resigned: None }
        });
        Game::deal(new.id, new.rules, seats.collect(), new.seed, new.move_limit, new.client, now)
    }

    /// The rematch of this finished game, `id`, dealt with `seed` at `now`
    /// for `client`: the same rules, move time limit and kinds of seat, the
    /// seats rotated by one so that the second player moves first; every
    /// person's seat held by the person who had it.
    ///
    /// # Errors
    ///
    /// [`GameError::NotOver`] before the end.
    pub fn rematch_game(&self, id: String, seed: u64, client: String, now: i64) -> Result<Game, GameError> {
        if self.status() != GameStatus::Over {
            return Err(GameError::NotOver);
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
                Seat { player: q, name: old.name.clone(), holder, resigned: None }
            })
            .collect();
        Game::deal(id, self.rules.clone(), seats, seed, self.move_limit, client, now)
    }

    fn deal(
        id: String,
        rules: Arc<jc::Rules>,
        seats: Vec<Seat>,
        seed: u64,
        move_limit: Option<u32>,
        client: String,
        now: i64,
    ) -> Result<Game, GameError> {
        let (position, seed) = jc::Position::start(rules.clone(), seats.len(), Some(seed))?;
        if position.count_moves(crate::work::MOVES).is_err() {
            return Err(GameError::TooManyMoves);
        }
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
        })
    }

    /// Applies `command` at `now` (Unix milliseconds): the game after it,
    /// one version on, and what changed. A time-out that is not due
    /// changes nothing: the same game and no changes.
    ///
    /// # Errors
    ///
    /// The rule that refuses the command: [`GameError::Waiting`],
    /// [`GameError::Over`], [`GameError::NotYourTurn`] or an illegal move
    /// for a move; [`GameError::NotWaiting`], [`GameError::NoSuchSeat`],
    /// [`GameError::SeatTaken`], [`GameError::Invitation`] or
    /// [`GameError::NoOpenSeat`] for a join or a leave;
    /// [`GameError::AlreadyResigned`] for a resignation.
    pub fn apply(&self, command: Command, now: i64) -> Result<(Game, Vec<Change>), GameError> {
        let mut next = self.clone();
        let mut changes = Vec::new();
        match command {
            Command::Play { player, mv } => {
                self.check_playable()?;
                let to_move = self.position.to_move();
                if player != to_move {
                    return Err(GameError::NotYourTurn { to_move, seat: player });
                }
                // The computer plays a resigned seat from then on.
                if self.seats[player].resigned.is_some() {
                    return Err(GameError::AlreadyResigned { player });
                }
                let mv = mv.map_err(GameError::Invalid)?;
                changes.push(next.play(&mv, now, false)?);
            }
            Command::PlayForComputer { mv } => {
                self.check_playable()?;
                if self.computer_to_move().is_none() {
                    let to_move = self.position.to_move();
                    return Err(GameError::NotYourTurn { to_move, seat: to_move });
                }
                changes.push(next.play(&mv, now, true)?);
            }
            Command::Join { name, seat, with_invitation, invited } => {
                if self.status() != GameStatus::Waiting {
                    return Err(GameError::NotWaiting);
                }
                let player = self.seat_to_join(seat, with_invitation, &invited)?;
                next.seats[player] = Seat { player, name, holder: Holder::Person, resigned: None };
                changes.push(Change::Joined { player });
            }
            Command::Leave { player, private } => {
                if self.status() != GameStatus::Waiting {
                    return Err(GameError::NotWaiting);
                }
                let visibility = if private { Visibility::Private } else { Visibility::Public };
                next.seats[player] =
                    Seat { player, name: open_name(), holder: Holder::Open(visibility), resigned: None };
                changes.push(Change::Left { player });
            }
            Command::Resign { player } => {
                self.check_playable()?;
                if self.seats[player].resigned.is_some() {
                    return Err(GameError::AlreadyResigned { player });
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
        }
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
        Ok((next, changes))
    }

    /// Plays `mv` for the seat to move: its turn starts the next seat's.
    fn play(&mut self, mv: &jc::Move, now: i64, computer: bool) -> Result<Change, GameError> {
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
    ) -> Result<usize, GameError> {
        let open = |visibility| {
            self.seats.iter().filter(move |s| s.holder == Holder::Open(visibility)).map(|s| s.player)
        };
        match asked {
            Some(p) => {
                let seat =
                    self.seats.get(p).ok_or(GameError::NoSuchSeat { player: p, seats: self.seats.len() })?;
                match seat.holder {
                    Holder::Open(Visibility::Public) => Ok(p),
                    Holder::Open(Visibility::Private) if invited.contains(&p) => Ok(p),
                    Holder::Open(Visibility::Private) => Err(GameError::Invitation),
                    Holder::Person | Holder::Computer(_) => Err(GameError::SeatTaken { player: p }),
                }
            }
            None if with_invitation => {
                open(Visibility::Private).find(|p| invited.contains(p)).ok_or(GameError::Invitation)
            }
            None => open(Visibility::Public).next().ok_or(GameError::NoOpenSeat),
        }
    }
}

/// Rule book §11, rule by rule, on the core alone: no database, no clock
/// (the time is given), no sleeping.
#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use jump_search::Level;

    use super::*;
    use crate::game::RESIGNED_LEVEL;

    const T0: i64 = 1_000_000;

    fn name(n: &str) -> PlayerName {
        PlayerName::parse(n).unwrap()
    }

    fn person(n: &str) -> NewSeat {
        NewSeat::Person(name(n))
    }

    /// A game of `seats` on a 4×4 `old` board (or Konane's 4×4 for two
    /// owners), dealt at `T0`, with a move limit if given.
    fn game(seats: Vec<NewSeat>, move_limit: Option<u32>) -> Game {
        let rules = Arc::new(jc::Rules::new(jc::Preset::Old.spec().with_size(4, 4)).unwrap());
        let new = NewGame { id: "g".into(), rules, seats, seed: 5, move_limit, client: String::new() };
        Game::new(new, T0).unwrap()
    }

    fn join(
        game: &Game,
        who: &str,
        seat: Option<usize>,
        invited: &[usize],
        with_invitation: bool,
    ) -> Result<(Game, Vec<Change>), GameError> {
        let command = Command::Join { name: name(who), seat, with_invitation, invited: invited.to_vec() };
        game.apply(command, T0 + 10)
    }

    /// The first move the rules allow the player to move.
    fn first_move(game: &Game) -> jc::Move {
        game.position().legal_moves(jc::PathBudget::default()).unwrap().remove(0)
    }

    fn play(game: &Game, at: i64) -> (Game, Vec<Change>) {
        let player = game.position().to_move();
        game.apply(Command::Play { player, mv: Ok(first_move(game)) }, at).unwrap()
    }

    #[test]
    fn a_game_with_an_open_seat_waits_and_nothing_is_played_not_even_a_removal() {
        let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], None);
        assert_eq!(g.status(), GameStatus::Waiting);
        assert!(g.position().is_opening(), "the opening removal is not played either");
        let refused = g.apply(Command::Play { player: 0, mv: Ok(first_move(&g)) }, T0).unwrap_err();
        assert!(matches!(refused, GameError::Waiting), "{refused:?}");
    }

    #[test]
    fn taking_the_last_open_seat_starts_the_game_and_its_first_turn() {
        let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], Some(60));
        let (g, changes) = join(&g, "Bob", None, &[], false).unwrap();
        assert_eq!(changes, [Change::Joined { player: 1 }, Change::Started]);
        assert_eq!((g.status(), g.version(), g.seats()[1].name.as_str()), (GameStatus::Started, 2, "Bob"));
        assert_eq!(
            g.turn_ends_at(),
            Some(T0 + 10 + 60_000),
            "the first turn starts when the last seat is taken"
        );
    }

    #[test]
    fn a_private_seat_is_taken_only_with_its_invitation() {
        let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Private)], None);
        assert!(matches!(join(&g, "Bob", Some(1), &[], false), Err(GameError::Invitation)));
        assert!(matches!(join(&g, "Bob", None, &[], false), Err(GameError::NoOpenSeat)));
        assert!(matches!(join(&g, "Bob", None, &[], true), Err(GameError::Invitation)), "a wrong invitation");
        let (g, _) = join(&g, "Bob", None, &[1], true).unwrap();
        assert_eq!(g.seats()[1].holder, Holder::Person);
    }

    #[test]
    fn a_held_seat_cannot_be_joined_and_a_missing_one_is_named() {
        let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], None);
        assert!(matches!(join(&g, "Bob", Some(0), &[], false), Err(GameError::SeatTaken { player: 0 })));
        assert!(matches!(
            join(&g, "Bob", Some(5), &[], false),
            Err(GameError::NoSuchSeat { player: 5, seats: 2 })
        ));
        let (started, _) = join(&g, "Bob", None, &[], false).unwrap();
        assert!(matches!(join(&started, "Cy", None, &[], false), Err(GameError::NotWaiting)));
    }

    #[test]
    fn a_seat_left_while_waiting_opens_again_to_whom_it_was_open_before() {
        let g = game(
            vec![person("Ann"), NewSeat::Open(Visibility::Private), NewSeat::Open(Visibility::Public)],
            None,
        );
        let (g, _) = join(&g, "Bob", None, &[1], true).unwrap();
        let (left, changes) = g.apply(Command::Leave { player: 1, private: true }, T0 + 20).unwrap();
        assert_eq!(changes, [Change::Left { player: 1 }]);
        assert_eq!(left.seats()[1].holder, Holder::Open(Visibility::Private));
        // The creator's own seat, never open, opens to anyone.
        let (left, _) = g.apply(Command::Leave { player: 0, private: false }, T0 + 20).unwrap();
        assert_eq!(left.seats()[0].holder, Holder::Open(Visibility::Public));
    }

    #[test]
    fn once_every_seat_is_held_seats_are_resigned_not_left_and_a_waiting_game_is_not_resigned() {
        let waiting = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], None);
        assert!(matches!(waiting.apply(Command::Resign { player: 0 }, T0), Err(GameError::Waiting)));
        let started = game(vec![person("Ann"), person("Bob")], None);
        let refused = started.apply(Command::Leave { player: 0, private: false }, T0).unwrap_err();
        assert!(matches!(refused, GameError::NotWaiting), "{refused:?}");
    }

    #[test]
    fn with_two_players_a_resignation_ends_the_game_at_once_on_any_turn_and_the_other_wins() {
        let g = game(vec![person("Ann"), person("Bob")], None);
        let (g, _) = play(&g, T0 + 1);
        // Bob is to move; Ann resigns.
        let (over, changes) = g.apply(Command::Resign { player: 0 }, T0 + 2).unwrap();
        assert_eq!(changes, [Change::Resigned { player: 0 }, Change::Over]);
        let result = over.result().unwrap();
        assert_eq!(result.outcome.winners, [1], "whatever the scores");
        assert!(result.by_resignation);
        assert!(matches!(over.apply(Command::Resign { player: 1 }, T0 + 3), Err(GameError::Over)));
    }

    #[test]
    fn with_three_players_the_computer_plays_a_resigned_seat_which_ranks_last() {
        let g = game(vec![person("Ann"), person("Bob"), person("Cy")], None);
        let (g, changes) = g.apply(Command::Resign { player: 1 }, T0 + 1).unwrap();
        assert_eq!(changes, [Change::Resigned { player: 1 }], "the game goes on");
        assert!(matches!(
            g.apply(Command::Resign { player: 1 }, T0 + 2),
            Err(GameError::AlreadyResigned { player: 1 })
        ));
        // Ann moves; then it is the resigned seat's turn, the computer's.
        let (g, _) = play(&g, T0 + 3);
        assert_eq!(g.computer_to_move(), Some(RESIGNED_LEVEL));
        let refused = g.apply(Command::Play { player: 1, mv: Ok(first_move(&g)) }, T0 + 4).unwrap_err();
        assert!(
            matches!(refused, GameError::AlreadyResigned { player: 1 }),
            "its holder no longer plays it: {refused:?}"
        );
        let (g, changes) = g.apply(Command::PlayForComputer { mv: first_move(&g) }, T0 + 4).unwrap();
        assert!(matches!(&changes[0], Change::Moved(m) if m.computer && m.player == 1));
        // However the game ends, the resigned seat ranks after the others.
        let (g, _) = g.apply(Command::Resign { player: 2 }, T0 + 5).unwrap();
        let (over, _) = g.apply(Command::Resign { player: 0 }, T0 + 6).unwrap();
        let last = over.result().unwrap().outcome.standings.last().unwrap().player;
        assert!(over.result().unwrap().resigned[last]);
    }

    #[test]
    fn when_every_person_has_resigned_the_game_ends_even_with_computers_left() {
        let computer = NewSeat::Computer(Level::Greedy, name("Computer"));
        let g = game(vec![person("Ann"), computer.clone(), person("Bob")], None);
        let (g, _) = g.apply(Command::Resign { player: 0 }, T0 + 1).unwrap();
        assert_ne!(g.status(), GameStatus::Over, "a person still plays");
        let (g, changes) = g.apply(Command::Resign { player: 2 }, T0 + 2).unwrap();
        assert_eq!(changes, [Change::Resigned { player: 2 }, Change::Over]);
        assert!(g.result().unwrap().outcome.winners == [1], "the computer alone did not resign");
    }

    #[test]
    fn a_seat_out_of_time_is_resigned_only_once_its_limit_has_passed_since_its_turn_began() {
        let g = game(vec![person("Ann"), person("Bob"), person("Cy")], Some(30));
        let (g, _) = play(&g, T0 + 1_000);
        // Bob's turn began with Ann's move.
        let (same, changes) = g.apply(Command::TimeOut, T0 + 1_000 + 29_999).unwrap();
        assert!(changes.is_empty() && same.version() == g.version(), "not yet");
        let (g, changes) = g.apply(Command::TimeOut, T0 + 1_000 + 30_000).unwrap();
        assert_eq!(changes, [Change::TimedOut { player: 1 }]);
        assert_eq!(g.seats()[1].resigned, Some(Resignation::TimedOut));
        // The computer plays it now, and has no limit.
        assert_eq!((g.computer_to_move(), g.turn_ends_at()), (Some(RESIGNED_LEVEL), None));
    }

    #[test]
    fn a_resignation_of_another_seat_does_not_restart_the_clock_of_the_seat_to_move() {
        let g = game(vec![person("Ann"), person("Bob"), person("Cy")], Some(30));
        let ends = g.turn_ends_at();
        let (g, _) = g.apply(Command::Resign { player: 2 }, T0 + 10_000).unwrap();
        assert_eq!(g.turn_ends_at(), ends);
    }

    #[test]
    fn computer_seats_have_no_time_limit() {
        let computer = NewSeat::Computer(Level::Greedy, name("Computer"));
        let g = game(vec![computer, person("Ann")], Some(30));
        assert_eq!(g.turn_ends_at(), None);
        let (same, changes) = g.apply(Command::TimeOut, T0 + 10_000_000).unwrap();
        assert!(changes.is_empty() && same.version() == g.version());
    }

    #[test]
    fn a_move_time_limit_is_five_seconds_to_seven_days() {
        let rules = Arc::new(jc::Preset::Old.rules());
        for (limit, ok) in [(4, false), (5, true), (7 * 24 * 3600, true), (7 * 24 * 3600 + 1, false)] {
            let new = NewGame {
                id: "g".into(),
                rules: rules.clone(),
                seats: vec![person("A"), person("B")],
                seed: 1,
                move_limit: Some(limit),
                client: String::new(),
            };
            assert_eq!(Game::new(new, T0).is_ok(), ok, "{limit} s");
        }
    }

    #[test]
    fn only_the_seat_to_move_plays_and_only_legal_moves() {
        let g = game(vec![person("Ann"), person("Bob")], None);
        let refused = g.apply(Command::Play { player: 1, mv: Ok(first_move(&g)) }, T0).unwrap_err();
        assert!(matches!(refused, GameError::NotYourTurn { to_move: 0, seat: 1 }));
        let jump: jc::Move = "a1xa3".parse().unwrap();
        assert!(matches!(g.apply(Command::Play { player: 0, mv: Ok(jump) }, T0), Err(GameError::Illegal(_))));
        let unread = Unreadable { detail: "no".into(), field: "path".into() };
        assert!(matches!(
            g.apply(Command::Play { player: 0, mv: Err(unread) }, T0),
            Err(GameError::Invalid(_))
        ));
        let refused = g.apply(Command::PlayForComputer { mv: first_move(&g) }, T0).unwrap_err();
        assert!(matches!(refused, GameError::NotYourTurn { .. }), "the computer holds no seat to move");
        let (next, changes) = play(&g, T0 + 5);
        assert_eq!((next.version(), next.position().ply(), next.turn_at()), (2, 1, T0 + 5));
        assert!(
            matches!(&changes[..], [Change::Moved(m)] if m.ply == 0 && m.captures.len() == 1 && m.captures[0].kind == 'O')
        );
    }

    #[test]
    fn playing_again_rotates_the_seats_keeps_their_kinds_and_deals_anew() {
        let computer = NewSeat::Computer(Level::Greedy, name("Computer"));
        let g = game(vec![person("Ann"), computer, person("Bob")], Some(60));
        assert!(matches!(g.rematch_game("r".into(), 9, String::new(), T0), Err(GameError::NotOver)));
        let (g, _) = g.apply(Command::Resign { player: 0 }, T0 + 1).unwrap();
        let (over, _) = g.apply(Command::Resign { player: 2 }, T0 + 2).unwrap();
        let next = over.rematch_game("r".into(), 9, "client".into(), T0 + 3).unwrap();
        let seats: Vec<(&str, Holder)> = next.seats().iter().map(|s| (s.name.as_str(), s.holder)).collect();
        assert_eq!(
            seats,
            [("Computer", Holder::Computer(Level::Greedy)), ("Bob", Holder::Person), ("Ann", Holder::Person)]
        );
        assert!(
            next.seats().iter().all(|s| s.resigned.is_none()),
            "a resigned person plays again as a person"
        );
        assert_eq!((next.id(), next.seed(), next.move_limit(), next.version()), ("r", 9, Some(60), 1));
    }

    #[test]
    fn a_start_with_more_moves_than_a_request_lists_is_not_dealt() {
        // 11×11 `old`, full but for the cells on even files and ranks:
        // every prefix of every chain is a move.
        let mut spec = jc::Preset::Old.spec().with_size(11, 11);
        spec.holes = (0..11u8)
            .flat_map(|r| (0..11u8).map(move |f| (r, f)))
            .filter(|&(r, f)| r % 2 == 0 && f % 2 == 0 && (r, f) != (0, 0))
            .filter_map(|(r, f)| jc::Cell::new(r, f))
            .collect();
        spec.opening = jc::Opening::None;
        let rules = Arc::new(jc::Rules::new(spec).unwrap());
        let new = NewGame {
            id: "g".into(),
            rules,
            seats: vec![person("A"), person("B")],
            seed: 1,
            move_limit: None,
            client: String::new(),
        };
        assert!(matches!(Game::new(new, T0), Err(GameError::TooManyMoves)));
    }
}
