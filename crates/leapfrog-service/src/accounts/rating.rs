//! Glicko-2 ratings (rule book §13): Glickman, "Example of the Glicko-2
//! system" (2012), to the letter — a new player at 1500, deviation 350,
//! volatility 0.06; τ = 0.5; the volatility found by the paper's Illinois
//! iteration to ε = 0.000001.
//!
//! Each finished rated game is one rating period for each of its players,
//! with one result against every other player, read from the final
//! ranking: 1 against a player ranked lower, ½ against one ranked equal, 0
//! against one ranked higher. Every update uses everyone's rating from
//! before the game, and a deviation does not grow between games. Pure
//! functions: the games service stores what they give.

use std::f64::consts::PI;

/// The scale between Glicko and Glicko-2 units.
const SCALE: f64 = 173.7178;
/// The system constant τ, which limits how fast volatility changes.
pub const TAU: f64 = 0.5;
/// The convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;
/// Above this deviation a player is provisional (left out of leaderboards).
pub const PROVISIONAL_ABOVE: f64 = 110.0;

/// A player's rating in one pool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating (Glicko scale).
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating.
    pub const NEW: Rating = Rating { rating: 1500.0, deviation: 350.0, volatility: 0.06 };

    /// Whether the rating is still too uncertain to rank.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_ABOVE
    }

    /// The rating after one period with these results, each an opponent's
    /// rating from before the period and the score against them (1, ½ or
    /// 0). With no results, the rating is unchanged (no growth of the
    /// deviation between games).
    pub fn after(&self, results: &[(Rating, f64)]) -> Rating {
        if results.is_empty() {
            return *self;
        }
        // Step 2: to the Glicko-2 scale.
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let scaled: Vec<(f64, f64, f64)> =
            results.iter().map(|(o, s)| ((o.rating - 1500.0) / SCALE, o.deviation / SCALE, *s)).collect();
        // Steps 3 and 4: the estimated variance and the improvement.
        let (mut inverse_v, mut sum) = (0.0, 0.0);
        for &(mu_j, phi_j, s) in &scaled {
            let g = g(phi_j);
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g * g * e * (1.0 - e);
            sum += g * (s - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = volatility(phi, self.volatility, v, delta);
        // Steps 6 to 8: the new deviation and rating, back to the Glicko scale.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating { rating: SCALE * mu_new + 1500.0, deviation: SCALE * phi_new, volatility: sigma }
    }
}

/// Glickman's g(φ): how much an opponent's uncertainty discounts a result.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The expected score against an opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// Step 5 of the paper: the new volatility, by the Illinois algorithm.
fn volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// The ratings after one game of players with `before` ratings who
/// finished at `ranks` (1 best; equal ranks share), in the same order:
/// each player scores 1 against every player ranked lower, ½ against every
/// one ranked equal and 0 against every one ranked higher, all against
/// the ratings from before the game.
pub fn after_game(before: &[Rating], ranks: &[usize]) -> Vec<Rating> {
    before
        .iter()
        .enumerate()
        .map(|(p, rating)| {
            let results: Vec<(Rating, f64)> = before
                .iter()
                .zip(ranks)
                .enumerate()
                .filter(|&(q, _)| q != p)
                .map(|(_, (other, &rank))| {
                    let score = match ranks[p].cmp(&rank) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    };
                    (*other, score)
                })
                .collect();
            rating.after(&results)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman's worked example: 1500/200/0.06 beats 1400/30, loses to
    /// 1550/100 and to 1700/300 → 1464.06, 151.52, 0.05999.
    #[test]
    fn glickmans_worked_example_gives_his_figures() {
        let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
        let after = player.after(&[
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ]);
        // The paper works on the Glicko-2 scale to four decimals (μ' =
        // −0.2069, φ' = 0.8722) and converts those: 1464.06 and 151.52.
        let round4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
        let (mu, phi) = ((after.rating - 1500.0) / SCALE, after.deviation / SCALE);
        assert_eq!((round4(mu), round4(phi)), (-0.2069, 0.8722), "{after:?}");
        assert!(close(SCALE * -0.2069 + 1500.0, 1464.06, 0.005));
        assert!(close(SCALE * 0.8722, 151.52, 0.005));
        // Unrounded, the same within a hundredth.
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        // σ' = 0.0599960, which the paper writes 0.05999.
        assert!(close(after.volatility, 0.05999, 0.000_01), "{after:?}");
    }

    #[test]
    fn a_game_scores_each_player_against_every_other_from_the_ranking() {
        let new = [Rating::NEW; 3];
        // Ann first, Bob and Cy share second.
        let after = after_game(&new, &[1, 2, 2]);
        assert!(after[0].rating > 1500.0);
        assert!(after[1].rating < 1500.0);
        assert_eq!(after[1], after[2], "equal ranks, equal ratings before: the same change");
        assert!(after.iter().all(|r| r.deviation < 350.0), "every game narrows the deviation");
        // Two players of equal rating who draw keep their rating.
        let drawn = after_game(&new[..2], &[1, 1]);
        assert!(close(drawn[0].rating, 1500.0, 1e-9));
    }

    #[test]
    fn everyone_is_rated_against_the_ratings_from_before_the_game() {
        let before = [Rating::NEW, Rating { rating: 1700.0, deviation: 80.0, volatility: 0.06 }];
        let after = after_game(&before, &[2, 1]);
        assert_eq!(after[0], before[0].after(&[(before[1], 0.0)]));
        assert_eq!(after[1], before[1].after(&[(before[0], 1.0)]));
    }

    #[test]
    fn a_player_is_provisional_while_the_deviation_is_above_110() {
        assert!(Rating::NEW.provisional());
        assert!(!Rating { deviation: 110.0, ..Rating::NEW }.provisional());
        let mut r = Rating::NEW;
        let opponent = Rating { rating: 1500.0, deviation: 60.0, volatility: 0.06 };
        let mut games = 0;
        while r.provisional() {
            r = r.after(&[(opponent, if games % 2 == 0 { 1.0 } else { 0.0 })]);
            games += 1;
        }
        assert!((5..40).contains(&games), "{games} games to settle");
    }
}
