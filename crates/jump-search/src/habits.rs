//! What a search learns of how the other players choose, from the moves it
//! sees them make.
//!
//! Without it, the search takes every other player for one as careful as
//! itself (max-n: each picks what is best for itself). Against people and
//! programs that simply take the largest gain that is the wrong model, and
//! in games of three or more it costs the most: a player who takes the
//! bait its predecessor leaves grows fat on it, and a search that expects
//! nobody to take bait does not see it coming nor profit from it. So a
//! player seen to take a largest gain every time it had a choice of gains
//! is expected to go on doing so: at its turns the search looks only at
//! its moves of the largest gain, each as likely as the others.

use jump_capture::{Move, Position};

/// Choices between moves of different gains a player must have made, all
/// of them for a largest gain, before the search expects it to be greedy.
pub const GREEDY_AFTER: u32 = 3;

/// How each player has been seen to choose.
///
/// ```
/// use jump_capture::{Position, Preset, Rules};
/// use jump_search::{GreedyPlayer, Habits, Player};
///
/// let rules = Rules::new(Preset::Murray.spec().with_size(8, 8))?;
/// let (mut pos, _) = Position::start(rules, 3, Some(1))?;
/// let mut habits = Habits::new();
/// let mut greedy = GreedyPlayer::new(1);
/// while !habits.is_greedy(pos.to_move()) {
///     let mv = greedy.choose(&pos).expect("the game goes on");
///     habits.observe(&pos, &mv);
///     pos.play(&mv)?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Habits {
    /// Per player: choices between different gains, and how many of them
    /// went to a largest gain.
    seen: Vec<(u32, u32)>,
}

impl Habits {
    /// Nothing seen yet: every player is taken for a searcher.
    pub fn new() -> Habits {
        Habits::default()
    }

    /// Notes that the player to move in `before` played `mv` there. A
    /// choice where every move gains the same tells nothing and is not
    /// counted; nor is a move that is not legal in `before`.
    pub fn observe(&mut self, before: &Position, mv: &Move) {
        let Ok(played) = before.check(mv) else { return };
        let (mut least, mut most) = (u32::MAX, 0);
        crate::for_each_considered(before, |m| {
            least = least.min(m.gain);
            most = most.max(m.gain);
        });
        if least >= most {
            return;
        }
        let player = before.to_move();
        if self.seen.len() <= player {
            self.seen.resize(player + 1, (0, 0));
        }
        let (choices, largest) = &mut self.seen[player];
        *choices += 1;
        if played.gain == most {
            *largest += 1;
        }
    }

    /// Whether `player` has taken a largest gain at each of at least
    /// [`GREEDY_AFTER`] choices between different gains, and never less.
    pub fn is_greedy(&self, player: usize) -> bool {
        self.seen.get(player).is_some_and(|&(choices, largest)| choices >= GREEDY_AFTER && largest == choices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jump_capture::{Rules, Setup};

    fn position(text: &str) -> Position {
        let setup: Setup = text.parse().unwrap();
        let rules = Rules::new(jump_capture::Preset::Murray.spec().with_shape_of(&setup.grid)).unwrap();
        Position::from_setup(rules, &setup).unwrap()
    }

    #[test]
    fn a_player_who_always_takes_the_largest_gain_is_expected_to_go_on() {
        // Player 0 can take the red (3) or the white (1).
        let pos = position("5/5/1W3/WR3/W4 4 0,0");
        let largest: Move = "a2xc2".parse().unwrap();
        let mut habits = Habits::new();
        for _ in 0..GREEDY_AFTER - 1 {
            habits.observe(&pos, &largest);
        }
        assert!(!habits.is_greedy(0), "too few choices seen");
        habits.observe(&pos, &largest);
        assert!(habits.is_greedy(0));
        assert!(!habits.is_greedy(1), "nothing seen of player 1");
    }

    #[test]
    fn one_smaller_gain_taken_is_enough_to_doubt_it() {
        let pos = position("5/5/1W3/WR3/W4 4 0,0");
        let mut habits = Habits::new();
        for _ in 0..GREEDY_AFTER {
            habits.observe(&pos, &"a2xc2".parse().unwrap());
        }
        habits.observe(&pos, &"a1xa3".parse().unwrap());
        assert!(!habits.is_greedy(0));
    }

    #[test]
    fn choices_between_equal_gains_and_illegal_moves_tell_nothing() {
        // Two whites to take, both worth 1.
        let pos = position("5/WW3/5/WW3/5 4 0,0");
        let mut habits = Habits::new();
        for _ in 0..GREEDY_AFTER + 2 {
            habits.observe(&pos, &"a2xc2".parse().unwrap());
            habits.observe(&pos, &"a4xc4".parse().unwrap());
            habits.observe(&pos, &"e5xe3".parse().unwrap());
        }
        assert!(!habits.is_greedy(0));
        assert_eq!(habits, Habits::new());
    }
}
