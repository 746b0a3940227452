//! Players measured against each other: seeded games with seats rotated,
//! and the tally of wins and scores.

use jump_capture::{Position, PositionError, Rules};

use crate::{Level, Player, win_shares};

/// Who an arena's seat can be given to: anything that makes a player for
/// each game. A [`Level`] is one; so is another program that speaks the
/// engine protocol (see [`crate::protocol`]), made by the `leapfrog`
/// command line.
pub trait Entrant: Sync {
    /// What it is, for people.
    fn name(&self) -> String;

    /// A player for one game, drawing from `seed`.
    fn player(&self, seed: u64) -> Box<dyn Player>;
}

impl Entrant for Level {
    fn name(&self) -> String {
        self.to_string()
    }

    fn player(&self, seed: u64) -> Box<dyn Player> {
        Level::player(*self, seed)
    }
}

/// The result of one arena game, by entrant (the order the levels were
/// given in), not by seat.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// Each entrant's score.
    pub scores: Vec<u32>,
    /// Each entrant's share of the win (1, 1/k for a win shared by k, 0).
    pub shares: Vec<f64>,
    /// Plies played.
    pub plies: u32,
    /// The entrant that forfeited the game, if one did: it had a move to
    /// make and made none, or one the rules refuse. The others share its
    /// win; it has none.
    pub forfeit: Option<usize>,
}

/// Plays arena game number `game` (from 0) between `entrants` to the end.
///
/// Seats rotate: in game `g`, seat `s` is played by entrant
/// `(s + g) % n`, and the `n` games of one rotation share one deal (seed
/// `seed + g / n`), so each entrant plays every seat of every deal. Each
/// entrant's own choices are seeded from `seed`, `game` and its seat.
///
/// # Errors
///
/// When the rules do not allow this many players.
pub fn play_game<E: Entrant>(
    rules: &Rules,
    entrants: &[E],
    game: u64,
    seed: u64,
) -> Result<GameRecord, PositionError> {
    let n = entrants.len();
    let deal = seed.wrapping_add(game / n as u64);
    let (mut pos, _) = Position::start(rules.clone(), n, Some(deal))?;
    let entrant_of = |seat: usize| (seat + (game % n as u64) as usize) % n;
    let mut players: Vec<_> = (0..n)
        .map(|seat| {
            let own = seed
                ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (seat as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
            entrants[entrant_of(seat)].player(own)
        })
        .collect();
    let mut forfeit = None;
    while !pos.is_over() {
        let seat = pos.to_move();
        let Some(mv) = players[seat].choose(&pos).filter(|mv| pos.check(mv).is_ok()) else {
            forfeit = Some(seat);
            break;
        };
        for player in &mut players {
            player.observe(&pos, &mv);
        }
        if pos.play(&mv).is_err() {
            forfeit = Some(seat);
            break;
        }
    }
    let shares = match forfeit {
        Some(loser) => (0..n).map(|s| if s == loser { 0.0 } else { 1.0 / (n - 1).max(1) as f64 }).collect(),
        None => win_shares(&pos).unwrap_or_else(|| vec![0.0; n]),
    };
    let mut record = GameRecord {
        scores: vec![0; n],
        shares: vec![0.0; n],
        plies: pos.ply(),
        forfeit: forfeit.map(entrant_of),
    };
    for seat in 0..n {
        record.scores[entrant_of(seat)] = pos.scores()[seat];
        record.shares[entrant_of(seat)] = shares[seat];
    }
    Ok(record)
}

/// Plays arena games `0..games` between `entrants` (see [`play_game`]) on
/// `threads` threads (at least one), calling `done` after each game, and
/// tallies them. Each game's result depends only on its number and the
/// seed: the tally is the same for any number of threads.
///
/// # Errors
///
/// When the rules do not allow this many players.
pub fn run<E: Entrant>(
    rules: &Rules,
    entrants: &[E],
    games: u64,
    seed: u64,
    threads: usize,
    done: impl Fn() + Sync,
) -> Result<Tally, PositionError> {
    use std::sync::atomic::{AtomicU64, Ordering};

    rules.check_players(entrants.len())?;
    let next = AtomicU64::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    let mut tally = Tally::new(entrants);
    let mut failed = None;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || {
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games || tx.send(play_game(rules, entrants, game, seed)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for record in rx {
            match record {
                Ok(r) => tally.add(&r),
                Err(e) => failed = Some(e),
            }
            done();
        }
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(tally),
    }
}

/// One entrant's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// Its name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Wins, a shared win counted as its share.
    pub wins: f64,
    /// Wins per game.
    pub rate: f64,
    /// The 95% confidence interval of the rate: Wilson's score interval,
    /// which stays honest near 0% and 100% (a rate of 100 wins in 100
    /// games gives 96.3%–100%, not 100%–100%).
    pub interval: (f64, f64),
    /// Mean score.
    pub mean_score: f64,
    /// Games it forfeited.
    pub forfeits: u64,
}

/// The tally of an arena.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    names: Vec<String>,
    games: u64,
    shares: Vec<f64>,
    scores: Vec<f64>,
    forfeits: Vec<u64>,
}

impl Tally {
    /// An empty tally for these entrants.
    pub fn new<E: Entrant>(entrants: &[E]) -> Tally {
        let n = entrants.len();
        Tally {
            names: entrants.iter().map(Entrant::name).collect(),
            games: 0,
            shares: vec![0.0; n],
            scores: vec![0.0; n],
            forfeits: vec![0; n],
        }
    }

    /// Adds a game.
    pub fn add(&mut self, game: &GameRecord) {
        self.games += 1;
        for i in 0..self.names.len() {
            self.shares[i] += game.shares[i];
            self.scores[i] += f64::from(game.scores[i]);
        }
        if let Some(f) = game.forfeit {
            self.forfeits[f] += 1;
        }
    }

    /// Each entrant's figures, in entrant order.
    pub fn standings(&self) -> Vec<Standing> {
        let g = self.games.max(1) as f64;
        (0..self.names.len())
            .map(|i| {
                let rate = self.shares[i] / g;
                Standing {
                    name: self.names[i].clone(),
                    games: self.games,
                    wins: self.shares[i],
                    rate,
                    interval: wilson(rate, g),
                    mean_score: self.scores[i] / g,
                    forfeits: self.forfeits[i],
                }
            })
            .collect()
    }
}

/// Wilson's 95% score interval of a rate over `n` games. Win shares lie
/// between 0 and 1, so their variance is at most `rate × (1 − rate)`, the
/// variance the interval assumes: with shared wins it is a little wide.
fn wilson(rate: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.96;
    let z2 = Z * Z;
    let centre = (rate + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (rate * (1.0 - rate) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jump_capture::Preset;

    #[test]
    fn a_run_tallies_every_game_the_same_on_any_number_of_threads() {
        let rules = Rules::new(Preset::Old.spec().with_size(5, 5)).unwrap();
        let entrants = [Level::Greedy, Level::Random];
        let done = std::sync::atomic::AtomicU64::new(0);
        let count = || {
            done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let one = run(&rules, &entrants, 8, 3, 1, count).unwrap();
        let three = run(&rules, &entrants, 8, 3, 3, count).unwrap();
        assert_eq!(one.standings(), three.standings());
        assert_eq!(done.into_inner(), 16, "told after every game");
        assert!(run(&rules, &[Level::Greedy; 65], 1, 3, 1, || {}).is_err(), "65 players");
    }

    #[test]
    fn seats_rotate_over_one_deal_and_wins_add_up_to_the_games() {
        let rules = Rules::new(Preset::Murray.spec().with_size(5, 5)).unwrap();
        let entrants = [Level::Greedy, Level::Random, Level::Lookahead];
        let mut tally = Tally::new(&entrants);
        for g in 0..6 {
            let game = play_game(&rules, &entrants, g, 11).unwrap();
            assert!((game.shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            tally.add(&game);
        }
        let standings = tally.standings();
        let wins: f64 = standings.iter().map(|s| s.wins).sum();
        assert!((wins - 6.0).abs() < 1e-9);
        assert!(standings.iter().all(|s| s.interval.0 <= s.rate && s.rate <= s.interval.1));
        // The same game number and seed: the same game.
        assert_eq!(
            play_game(&rules, &entrants, 4, 11).unwrap(),
            play_game(&rules, &entrants, 4, 11).unwrap()
        );
    }

    /// Plays its level's moves, but none from ply `from` on.
    struct Quitter(u32);

    impl Entrant for Quitter {
        fn name(&self) -> String {
            "quitter".into()
        }

        fn player(&self, seed: u64) -> Box<dyn Player> {
            struct P(u32, Box<dyn Player>);
            impl Player for P {
                fn name(&self) -> String {
                    "quitter".into()
                }
                fn choose(&mut self, pos: &Position) -> Option<jump_capture::Move> {
                    if pos.ply() >= self.0 { None } else { self.1.choose(pos) }
                }
            }
            Box::new(P(self.0, Level::Greedy.player(seed)))
        }
    }

    #[test]
    fn a_player_with_no_move_to_give_forfeits_and_the_other_wins() {
        let rules = Rules::new(Preset::Old.spec().with_size(5, 5)).unwrap();
        let entrants = [Quitter(4), Quitter(u32::MAX)];
        let mut tally = Tally::new(&entrants);
        for g in 0..4 {
            let game = play_game(&rules, &entrants, g, 5).unwrap();
            assert_eq!(game.forfeit, Some(0), "game {g}");
            assert_eq!(game.shares, [0.0, 1.0]);
            // Its first turn at ply 4 or later: 4 in the first seat, 5 in the second.
            assert_eq!(game.plies, 4 + (g % 2) as u32);
            tally.add(&game);
        }
        let standings = tally.standings();
        assert_eq!((standings[0].forfeits, standings[1].forfeits), (4, 0));
        assert_eq!((standings[0].wins, standings[1].wins), (0.0, 4.0));
    }

    #[test]
    fn a_clean_sweep_still_has_an_interval_below_certainty() {
        let (low, high) = wilson(1.0, 100.0);
        assert!((low - 0.963).abs() < 0.001, "{low}");
        assert!((high - 1.0).abs() < 1e-9, "{high}");
        let (low, high) = wilson(0.5, 100.0);
        assert!((low - 0.404).abs() < 0.001 && (high - 0.596).abs() < 0.001, "{low} {high}");
    }
}
