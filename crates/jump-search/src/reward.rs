//! What a finished game is worth to each player: the number the search
//! maximises, one per player.

use jump_capture::{EndRule, Position};

/// The weight of the share of points in a ranked game's reward; the rest
/// is the share of the win. Small enough that in a two-player game no
/// share of points outweighs a better result (a draw instead of a loss is
/// worth 0.4), large enough that a search with no win in sight still
/// prefers more points.
pub const SCORE_WEIGHT: f64 = 0.2;

/// Each player's reward, from 0 to 1, for a game that is over: the share
/// of the win (1 for a sole winner, 1/k for each of k who share it, 0 for
/// the others) — and, where players are ranked by score, a fifth of it
/// given instead by the player's share of all points scored. `None` while
/// the game goes on.
pub fn rewards(pos: &Position) -> Option<Vec<f64>> {
    let outcome = pos.outcome()?;
    let players = pos.players();
    let mut reward = vec![0.0; players];
    let share = 1.0 / outcome.winners.len().max(1) as f64;
    for &w in &outcome.winners {
        reward[w] = share;
    }
    if pos.rules().spec().end == EndRule::HighestScore {
        let total: u64 = pos.scores().iter().map(|&s| u64::from(s)).sum();
        for (p, r) in reward.iter_mut().enumerate() {
            let points =
                if total == 0 { 1.0 / players as f64 } else { f64::from(pos.scores()[p]) / total as f64 };
            *r = (1.0 - SCORE_WEIGHT) * *r + SCORE_WEIGHT * points;
        }
    }
    Some(reward)
}

/// Each player's share of the win alone (the result as the rule book
/// ranks it), for a game that is over.
pub fn win_shares(pos: &Position) -> Option<Vec<f64>> {
    let outcome = pos.outcome()?;
    let mut share = vec![0.0; pos.players()];
    for &w in &outcome.winners {
        share[w] = 1.0 / outcome.winners.len() as f64;
    }
    Some(share)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jump_capture::{Preset, Rules, Setup};

    fn over(text: &str, preset: Preset) -> Position {
        let setup: Setup = text.parse().unwrap();
        let rules = Rules::new(preset.spec().with_shape_of(&setup.grid)).unwrap();
        Position::from_setup(rules, &setup).unwrap()
    }

    #[test]
    fn a_sole_winner_gets_most_and_points_break_nothing() {
        // Nothing can jump: 3×3 with one piece in the corner.
        let pos = over("W2/3/3 10 7,3", Preset::Murray);
        let r = rewards(&pos).unwrap();
        assert!((r[0] - (0.8 + 0.2 * 0.7)).abs() < 1e-9, "{r:?}");
        assert!((r[1] - 0.2 * 0.3).abs() < 1e-9, "{r:?}");
        assert!(r[0] > r[1]);
    }

    #[test]
    fn shared_wins_split_the_win() {
        let pos = over("W2/3/3 10 5,5", Preset::Murray);
        assert_eq!(win_shares(&pos).unwrap(), [0.5, 0.5]);
        let r = rewards(&pos).unwrap();
        assert!((r[0] - 0.5).abs() < 1e-9 && (r[1] - 0.5).abs() < 1e-9, "{r:?}");
    }
}
