//! Results of finished games (`docs/rules.md` §7).

use crate::cell::Cell;
use crate::rules::EndRule;

/// One player's place in the result.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Standing {
    /// The player, from 0.
    pub player: usize,
    /// Their score.
    pub score: u32,
    /// 1 for the winners; otherwise 1 + the number of players placed above
    /// (competition ranking: 1, 2, 2, 4).
    pub rank: usize,
}

/// The result of a finished game.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winners, in player order. Two or more share the win.
    pub winners: Vec<usize>,
    /// Every player, best first (ties in player order).
    pub standings: Vec<Standing>,
    /// Under [`EndRule::PiecesLeft`] (peg solitaire): what is left.
    pub solitaire: Option<Solitaire>,
}

/// How a game of peg solitaire ended (`docs/rules.md` §12).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Solitaire {
    /// Pieces left on the board.
    pub pieces_left: usize,
    /// The last piece's cell, when one is left.
    pub last: Option<Cell>,
    /// One piece left: solved.
    pub solved: bool,
    /// On a board with a centre (see [`crate::Rules::centre`]): whether
    /// the one piece left stands on it.
    pub perfect: Option<bool>,
}

impl Solitaire {
    /// The result of a board with `pieces` left, the last (if one) on
    /// `last`, and `centre` the board's centre if it has one.
    pub fn of(pieces: usize, last: Option<Cell>, centre: Option<Cell>) -> Solitaire {
        let solved = pieces == 1;
        Solitaire {
            pieces_left: pieces,
            last: last.filter(|_| solved),
            solved,
            perfect: centre.map(|c| solved && last == Some(c)),
        }
    }
}

impl Outcome {
    /// Decides the result under `rule`, with `to_move` the player who could
    /// not move.
    pub fn decide(rule: EndRule, scores: &[u32], to_move: usize) -> Outcome {
        // What each player is ranked by: the score, or for "no move loses"
        // 1 for everyone but the player stuck.
        let key = |p: usize| match rule {
            EndRule::HighestScore | EndRule::PiecesLeft => u64::from(scores[p]),
            EndRule::NoMoveLoses => u64::from(p != to_move),
        };
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by_key(|&p| (std::cmp::Reverse(key(p)), p));
        let standings: Vec<Standing> = order
            .iter()
            .map(|&p| Standing {
                player: p,
                score: scores[p],
                rank: 1 + order.iter().filter(|&&q| key(q) > key(p)).count(),
            })
            .collect();
        let winners = {
            let mut w: Vec<usize> = standings.iter().filter(|s| s.rank == 1).map(|s| s.player).collect();
            w.sort_unstable();
            w
        };
        Outcome { winners, standings, solitaire: None }
    }

    /// Whether two or more players share the win.
    pub fn is_shared(&self) -> bool {
        self.winners.len() > 1
    }
}
