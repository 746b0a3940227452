//! Standings: points, then the tiebreaks an event names, in its order
//! (rule book §17), then seed.
//!
//! - **Buchholz**: the sum of the points of the opponents met over the
//!   board (a bye and a forfeit meet no one).
//! - **Sonneborn–Berger**: the points of each opponent beaten, and half
//!   the points of each drawn with.
//! - **Direct encounter**: among players still level, the points each
//!   scored in the games between them.
//! - **Wins**: games won over the board (not byes, not forfeits).
//!
//! Values are counted in the units that keep them whole (half-points;
//! Sonneborn–Berger in quarter-points) and given as numbers of points.

use super::{Entrant, History, Outcome, Points};

/// A tiebreak, applied in the order an event gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tiebreak {
    /// Opponents' points.
    Buchholz,
    /// Beaten opponents' points and half the drawn ones'.
    SonnebornBerger,
    /// Points in the games between the players still level.
    DirectEncounter,
    /// Games won over the board.
    Wins,
}

impl Tiebreak {
    /// Quarter-points or games in a value's unit: the divisor that gives
    /// points (1 for wins).
    fn unit(self) -> f64 {
        match self {
            Tiebreak::Buchholz | Tiebreak::DirectEncounter => 2.0,
            Tiebreak::SonnebornBerger => 4.0,
            Tiebreak::Wins => 1.0,
        }
    }
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The player.
    pub entrant: Entrant,
    /// 1 for the first.
    pub place: usize,
    /// Points in half-points.
    pub points: Points,
    /// The tiebreaks' values, in the event's order, in points (wins:
    /// games).
    pub tiebreaks: Vec<(Tiebreak, f64)>,
    /// Games played over the board.
    pub played: u32,
}

/// The standings of `history`: every player of the roster (withdrawn
/// ones too), best first.
pub fn standings(history: &History, order: &[Tiebreak]) -> Vec<Standing> {
    let points = history.points();
    let n = history.players;
    // Values per tiebreak, per player, in whole units; direct encounter
    // is filled in per level group as the order reaches it.
    let mut values = vec![vec![0i64; n]; order.len()];
    let mut groups: Vec<Vec<Entrant>> = group_by(&(0..n).collect::<Vec<_>>(), |p| i64::from(points[p]));
    for (k, &tiebreak) in order.iter().enumerate() {
        let mut next = Vec::new();
        for group in groups {
            for &p in &group {
                values[k][p] = value(history, &points, tiebreak, p, &group);
            }
            next.extend(group_by(&group, |p| values[k][p]));
        }
        groups = next;
    }
    let mut place = 0;
    let mut out = Vec::with_capacity(n);
    for group in groups {
        // Still level: seed decides (a group is in seeding order).
        for p in group {
            place += 1;
            let tiebreaks =
                order.iter().enumerate().map(|(k, &t)| (t, values[k][p] as f64 / t.unit())).collect();
            let played =
                history.games().filter(|g| !g.forfeit && g.outcome.is_some() && g.opponent_of(p).is_some());
            out.push(Standing {
                entrant: p,
                place,
                points: points[p],
                tiebreaks,
                played: played.count() as u32,
            });
        }
    }
    out
}

/// `players` split into groups of equal `key`, highest key first, each in
/// the order it came.
fn group_by(players: &[Entrant], key: impl Fn(Entrant) -> i64) -> Vec<Vec<Entrant>> {
    let mut keys: Vec<i64> = players.iter().map(|&p| key(p)).collect();
    keys.sort_unstable_by(|a, b| b.cmp(a));
    keys.dedup();
    keys.into_iter().map(|k| players.iter().copied().filter(|&p| key(p) == k).collect()).collect()
}

/// The value of `tiebreak` for `p` (level with the rest of `group`).
fn value(history: &History, points: &[Points], tiebreak: Tiebreak, p: Entrant, group: &[Entrant]) -> i64 {
    let over_the_board = history.games().filter(|g| !g.forfeit && g.outcome.is_some());
    let mut total = 0i64;
    for g in over_the_board {
        let Some(o) = g.opponent_of(p) else { continue };
        let scored = i64::from(g.points_of(p));
        total += match tiebreak {
            Tiebreak::Buchholz => i64::from(points[o]),
            Tiebreak::SonnebornBerger => scored * i64::from(points[o]),
            Tiebreak::DirectEncounter => i64::from(group.contains(&o)) * scored,
            Tiebreak::Wins => i64::from(g.outcome != Some(Outcome::Draw) && scored > 0),
        };
    }
    total
}
