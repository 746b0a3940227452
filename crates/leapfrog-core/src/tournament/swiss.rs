//! The Swiss pairing: the Dutch system (FIDE C.04.3) as rule book §17
//! simplifies it.
//!
//! Players are ranked by points, then seed. The highest-ranked unpaired
//! player is paired first, with the first of its candidates in the Dutch
//! order (its score group split in halves, the top half meeting the
//! bottom half in order; then the rest of its group; then the lower
//! groups in ranking order: a float down) **with whom everyone left can
//! still be paired** — a perfect-matching look-ahead stands for the Dutch
//! system's transpositions, exchanges and backtracking: it finds the first
//! pairing in this order that can be completed, in polynomial time.
//!
//! Two constraints: **no rematch** (no two players meet twice) and
//! **seats within one** (no two players meet who must both take the same
//! seat: a player's first seats never exceed its second seats by more
//! than one, nor the reverse). The pairing keeps both where it can; else
//! no rematch alone; else the seats alone (too many rounds for the field);
//! else neither, a pair that has not met still before one that has. The
//! answer says what gave ([`Relaxed`]).
//!
//! An odd field gives the lowest-ranked player who has had no bye, and
//! without whom the rest can be paired, a bye worth a win; a player has a
//! second bye only when everyone has had one.

use super::matching::Matcher;
use super::{Entrant, History, Pairing, Points};

/// Which constraint a round's pairing had to give up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Relaxed {
    /// None: no rematch, seats balanced within one.
    Nothing,
    /// The seat balance (no pairing kept it).
    Seats,
    /// No rematch (no pairing avoided one: too many rounds for the field);
    /// seats still balanced within one.
    Rematches,
    /// Both.
    SeatsAndRematches,
}

/// A Swiss round's pairings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissRound {
    /// The games, first seat first, in ranking order of their
    /// higher-ranked player.
    pub games: Vec<Pairing>,
    /// The player with the bye, in an odd field.
    pub bye: Option<Entrant>,
    /// What the pairing had to give up.
    pub relaxed: Relaxed,
}

/// What the pairing knows of a player.
#[derive(Debug, Clone, Default)]
struct Record {
    points: Points,
    /// First seats minus second seats, over games played.
    balance: i32,
    /// The seat of the last game played: `true` first.
    last_first: Option<bool>,
    byes: u32,
}

/// The next round of a Swiss event: its active players paired (rule book
/// §17). Every active player is in one game or has the bye.
pub fn swiss_round(history: &History) -> SwissRound {
    let n = history.players;
    let mut records = vec![Record::default(); n];
    let mut met = vec![false; n * n];
    for (p, points) in history.points().into_iter().enumerate() {
        records[p].points = points;
    }
    for round in &history.rounds {
        if let Some(b) = round.bye {
            records[b].byes += 1;
        }
        for g in &round.games {
            met[g.first * n + g.second] = true;
            met[g.second * n + g.first] = true;
            if !g.forfeit {
                for (p, first) in [(g.first, true), (g.second, false)] {
                    records[p].balance += if first { 1 } else { -1 };
                    records[p].last_first = Some(first);
                }
            }
        }
    }
    let mut ranked = history.active();
    ranked.sort_by_key(|&p| (std::cmp::Reverse(records[p].points), p));
    for relaxed in [Relaxed::Nothing, Relaxed::Seats, Relaxed::Rematches, Relaxed::SeatsAndRematches] {
        let allowed = |a: usize, b: usize| {
            let (pa, pb) = (ranked[a], ranked[b]);
            let rematch = met[pa * n + pb];
            let (da, db) = (records[pa].balance, records[pb].balance);
            let same_seat_due = da != 0 && da.signum() == db.signum();
            match relaxed {
                Relaxed::Nothing => !rematch && !same_seat_due,
                Relaxed::Seats => !rematch,
                Relaxed::Rematches => !same_seat_due,
                Relaxed::SeatsAndRematches => true,
            }
        };
        if let Some((pairs, bye)) = pair_ranked(&ranked, &records, &met, allowed, relaxed) {
            let games = pairs.into_iter().map(|(a, b)| seat(a, b, &records)).collect();
            return SwissRound { games, bye, relaxed };
        }
    }
    // Unreachable for a field of any size: the last level allows every
    // pair and every player the bye.
    SwissRound { games: Vec::new(), bye: None, relaxed: Relaxed::SeatsAndRematches }
}

/// Pairs (higher-ranked first) and the bye.
type Paired = (Vec<(Entrant, Entrant)>, Option<Entrant>);

/// Pairs the `ranked` players (allowed pairs given by rank index); the
/// pairs as entrants, higher-ranked first, and the bye.
fn pair_ranked(
    ranked: &[Entrant],
    records: &[Record],
    met: &[bool],
    allowed: impl Fn(usize, usize) -> bool,
    relaxed: Relaxed,
) -> Option<Paired> {
    let m = ranked.len();
    let base = Matcher::new(m, &allowed);
    let mut matcher = None;
    let mut bye = None;
    if m % 2 == 1 {
        // The lowest-ranked player without a bye whom the rest can do
        // without; anyone, lowest first, once everyone has had one.
        let fewest = ranked.iter().map(|&p| records[p].byes).min().unwrap_or(0);
        for i in (0..m).rev().filter(|&i| records[ranked[i]].byes == fewest) {
            let mut trial = base.clone();
            if trial.take_out(i) {
                (matcher, bye) = (Some(trial), Some(i));
                break;
            }
        }
        // A bye repeated before its time would break its rule: only the
        // last level, which allows every pair, gets here without one.
        matcher.as_ref()?;
    } else if base.is_perfect() {
        matcher = Some(base);
    }
    let mut matcher = matcher?;
    let n = records.len();
    let mut paired = vec![false; m];
    if let Some(b) = bye {
        paired[b] = true;
    }
    let mut pairs = Vec::with_capacity(m / 2);
    while let Some(x) = (0..m).find(|&i| !paired[i]) {
        let mut candidates = dutch_order(x, ranked, records, &paired);
        if relaxed >= Relaxed::Rematches {
            // Rematches last, where any must be.
            candidates.sort_by_key(|&c| met[ranked[x] * n + ranked[c]]);
        }
        let c = candidates.into_iter().find(|&c| matcher.fix_pair(x, c))?;
        paired[x] = true;
        paired[c] = true;
        pairs.push((ranked[x], ranked[c]));
    }
    Some((pairs, bye.map(|b| ranked[b])))
}

/// The candidates of the highest-ranked unpaired player `x` (rank
/// indices), in the Dutch order: its score group's unpaired players split
/// in halves (x heads the top half) — the bottom half in order, then the
/// rest of the top half — then the lower groups in ranking order.
fn dutch_order(x: usize, ranked: &[Entrant], records: &[Record], paired: &[bool]) -> Vec<usize> {
    let points = |i: usize| records[ranked[i]].points;
    let unpaired: Vec<usize> = (x + 1..ranked.len()).filter(|&i| !paired[i]).collect();
    let (group, lower): (Vec<usize>, Vec<usize>) =
        unpaired.into_iter().partition(|&i| points(i) == points(x));
    // The group with x has group.len() + 1 players; its top half, x first,
    // has half of them, rounded down (the Dutch system's S1).
    let top = group.len().div_ceil(2);
    let (own_half, other_half) = group.split_at(top.saturating_sub(1));
    other_half.iter().chain(own_half).chain(&lower).copied().collect()
}

/// The seats of a pair (`a` ranked above `b`): each player's due seat —
/// the one that evens its balance, or else the other than its last — is
/// given where the two differ; where both are due the same seat, the one
/// further from even gets it, then the higher-ranked.
fn seat(a: Entrant, b: Entrant, records: &[Record]) -> Pairing {
    // (wants the first seat, how strongly: 2 to even the balance, 1 to
    // alternate, 0 no wish).
    let wish = |p: Entrant| {
        let r = &records[p];
        match (r.balance.signum(), r.last_first) {
            (1, _) => (false, 2 + r.balance),
            (-1, _) => (true, 2 - r.balance),
            (_, Some(last)) => (!last, 1),
            (_, None) => (true, 0),
        }
    };
    let ((wa, sa), (wb, sb)) = (wish(a), wish(b));
    let a_first = if wa != wb || sa >= sb { wa } else { !wb };
    if a_first { Pairing::new(a, b) } else { Pairing::new(b, a) }
}
