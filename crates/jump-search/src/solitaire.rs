//! A solver for peg solitaire (`docs/rules.md` §12): a depth-first search
//! over single jumps, remembering every position already shown to fail,
//! up to the board's symmetries, and stopping at a budget of positions or
//! a deadline.
//!
//! The board's pegs are a bit set of its cells (at most 128); a jump is a
//! triple of cells (from, over, to) read off the rule set's directions.
//! The symmetries are found, not listed: every linear map of the grid
//! with entries in {−1, 0, 1} that permutes the direction set and, after a
//! shift, maps the board's cells onto themselves (the cross has 8, a
//! hexagon 12, a triangle 6).

use std::collections::HashSet;
use web_time::{Duration, Instant};

use jump_capture::{Capture, Cell, Move, Position};

/// Pegs as a bit set of the board's cells (its `cells` order).
type Pegs = u128;

/// What counts as solved.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Goal {
    /// One peg left, anywhere.
    OnePeg,
    /// One peg left, on this cell.
    OnePegOn(Cell),
}

impl Goal {
    /// The goal `text` names on a board whose centre is `centre`: a cell,
    /// `centre` (or `center`), `any`; with no text, the centre where the
    /// board has one (a perfect solution), else anywhere.
    ///
    /// # Errors
    ///
    /// [`GoalError`]: the centre of a board without one, or a cell that
    /// does not read.
    pub fn read(text: Option<&str>, centre: Option<Cell>) -> Result<Goal, GoalError> {
        match text {
            None => Ok(centre.map_or(Goal::OnePeg, Goal::OnePegOn)),
            Some("any") => Ok(Goal::OnePeg),
            Some("centre" | "center") => centre.map(Goal::OnePegOn).ok_or(GoalError::NoCentre),
            Some(cell) => cell.parse().map(Goal::OnePegOn).map_err(GoalError::Cell),
        }
    }
}

/// A goal that does not read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GoalError {
    /// `centre` on a board without one.
    #[error("this board has no centre; give a cell or 'any'")]
    NoCentre,
    /// Neither `any`, `centre` nor a cell.
    #[error("{0}")]
    Cell(jump_capture::ParseCellError),
}

impl std::fmt::Display for Goal {
    /// `any`, or the goal's cell: what [`Goal::read`] reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Goal::OnePeg => f.write_str("any"),
            Goal::OnePegOn(cell) => write!(f, "{cell}"),
        }
    }
}

/// How much a solve may do.
#[derive(Clone, Copy, Debug)]
pub struct SolveBudget {
    /// Positions it may visit.
    pub positions: u64,
    /// Time it may take.
    pub time: Duration,
}

impl Default for SolveBudget {
    /// Ten million positions (the table of failed ones near 120 MB) or ten
    /// seconds.
    fn default() -> Self {
        SolveBudget { positions: 10_000_000, time: Duration::from_secs(10) }
    }
}

/// What a solve found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Solved {
    /// A solution: its moves in order (a peg's jumps in a row make one
    /// move), each checked by the rules engine.
    Solution(Vec<Move>),
    /// No solution exists from the position: every way was tried.
    NoSolution,
    /// The budget ran out first.
    OutOfBudget,
}

/// A solve's answer and what it took.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solve {
    /// What it found.
    pub solved: Solved,
    /// Positions visited.
    pub positions: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Why a position cannot be solved here.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SolveError {
    /// Not a game for one player with shared pieces.
    #[error("the solver plays peg solitaire: one player, any piece moves ({players} players here)")]
    NotSolitaire {
        /// The position's players.
        players: usize,
    },
    /// A board past the solver's size.
    #[error("the board has {cells} cells; the solver takes at most 128")]
    TooLarge {
        /// The board's cells.
        cells: usize,
    },
    /// The goal's cell is not on the board.
    #[error("the goal cell {0} is not on the board")]
    GoalOffBoard(Cell),
}

/// The board as the solver sees it.
struct Board {
    cells: Vec<Cell>,
    /// Per jump: the bits of its from, over and to cells.
    jumps: Vec<(Pegs, Pegs, Pegs)>,
    /// Per symmetry that keeps the goal, the image of each cell's index.
    symmetries: Vec<Vec<u8>>,
}

impl Board {
    fn new(pos: &Position, goal: Goal) -> Result<Board, SolveError> {
        let rules = pos.rules();
        let cells: Vec<Cell> = rules.cells().collect();
        if cells.len() > 128 {
            return Err(SolveError::TooLarge { cells: cells.len() });
        }
        let index = |f: i32, r: i32| -> Option<usize> {
            let cell = Cell::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?)?;
            cells.binary_search_by_key(&(cell.rank(), cell.file()), |c| (c.rank(), c.file())).ok()
        };
        let deltas: Vec<(i32, i32)> = rules
            .directions()
            .directions()
            .iter()
            .map(|d| (i32::from(d.delta().0), i32::from(d.delta().1)))
            .collect();
        let mut jumps = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            let (f, r) = (i32::from(c.file()), i32::from(c.rank()));
            for &(df, dr) in &deltas {
                if let (Some(over), Some(to)) = (index(f + df, r + dr), index(f + 2 * df, r + 2 * dr)) {
                    jumps.push((1 << i, 1 << over, 1 << to));
                }
            }
        }
        let keeps = |image: &[u8]| match goal {
            Goal::OnePeg => true,
            Goal::OnePegOn(cell) => {
                cells.iter().position(|&c| c == cell).is_some_and(|g| usize::from(image[g]) == g)
            }
        };
        let symmetries = symmetries(&cells, &deltas).into_iter().filter(|s| keeps(s)).collect();
        Ok(Board { cells, jumps, symmetries })
    }

    fn pegs_of(&self, pos: &Position) -> Pegs {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, c)| pos.piece_at(**c).is_some())
            .fold(0, |p, (i, _)| p | 1 << i)
    }

    /// The least image of `pegs` under the symmetries.
    fn canonical(&self, pegs: Pegs) -> Pegs {
        self.symmetries
            .iter()
            .map(|image| {
                let (mut out, mut rest) = (0, pegs);
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    out |= 1 << image[i];
                }
                out
            })
            .min()
            .unwrap_or(pegs)
    }
}

/// The maps of `cells` onto themselves that keep the direction set: as,
/// per map, the image of each cell's index.
fn symmetries(cells: &[Cell], deltas: &[(i32, i32)]) -> Vec<Vec<u8>> {
    let points: Vec<(i32, i32)> = cells.iter().map(|c| (i32::from(c.file()), i32::from(c.rank()))).collect();
    let set: HashSet<(i32, i32)> = points.iter().copied().collect();
    let dirs: HashSet<(i32, i32)> = deltas.iter().copied().collect();
    let mut found = Vec::new();
    for m in 0..81 {
        let e = |k: u32| (m / 3i32.pow(k)) % 3 - 1;
        let (a, b, c, d) = (e(0), e(1), e(2), e(3));
        if (a * d - b * c).abs() != 1 {
            continue;
        }
        let map = |(f, r): (i32, i32)| (a * f + b * r, c * f + d * r);
        if deltas.iter().any(|&v| !dirs.contains(&map(v))) {
            continue;
        }
        let mapped: Vec<(i32, i32)> = points.iter().map(|&p| map(p)).collect();
        let low = |v: &[(i32, i32)]| {
            (v.iter().map(|p| p.0).min().unwrap_or(0), v.iter().map(|p| p.1).min().unwrap_or(0))
        };
        let ((f0, r0), (f1, r1)) = (low(&points), low(&mapped));
        let shifted: Vec<(i32, i32)> = mapped.iter().map(|&(f, r)| (f - f1 + f0, r - r1 + r0)).collect();
        if shifted.iter().all(|p| set.contains(p)) {
            let image =
                shifted.iter().map(|p| points.iter().position(|q| q == p).map_or(0, |i| i as u8)).collect();
            found.push(image);
        }
    }
    found
}

/// The search's state: what it has shown to fail and what it has spent.
struct Search<'a> {
    board: &'a Board,
    goal: Pegs,
    failed: HashSet<Pegs>,
    positions: u64,
    budget: SolveBudget,
    started: Instant,
    out_of_budget: bool,
    /// The jumps made so far (indices into `board.jumps`).
    line: Vec<usize>,
}

impl Search<'_> {
    fn solved(&self, pegs: Pegs) -> bool {
        pegs.count_ones() == 1 && (self.goal == 0 || pegs == self.goal)
    }

    /// Whether the goal can be reached from `pegs`; on success `line` holds
    /// the jumps.
    fn search(&mut self, pegs: Pegs) -> bool {
        if self.solved(pegs) {
            return true;
        }
        self.positions += 1;
        // The clock is read every 4,096 positions: a read costs more than a
        // position's work.
        if self.positions >= self.budget.positions
            || (self.positions.is_multiple_of(4096) && self.started.elapsed() >= self.budget.time)
        {
            self.out_of_budget = true;
            return false;
        }
        let key = self.board.canonical(pegs);
        if self.failed.contains(&key) {
            return false;
        }
        for (j, &(from, over, to)) in self.board.jumps.iter().enumerate() {
            if pegs & from != 0 && pegs & over != 0 && pegs & to == 0 {
                self.line.push(j);
                if self.search(pegs ^ from ^ over ^ to) {
                    return true;
                }
                self.line.pop();
                if self.out_of_budget {
                    return false;
                }
            }
        }
        self.failed.insert(key);
        false
    }
}

/// Solves the peg-solitaire position `pos` for `goal` within `budget`.
///
/// # Errors
///
/// [`SolveError`] when the position is not peg solitaire, the board is
/// too large, or the goal's cell is not on it.
pub fn solve(pos: &Position, goal: Goal, budget: SolveBudget) -> Result<Solve, SolveError> {
    let started = Instant::now();
    if pos.players() != 1 || pos.rules().spec().capture != Capture::Shared {
        return Err(SolveError::NotSolitaire { players: pos.players() });
    }
    let board = Board::new(pos, goal)?;
    let goal_bits = match goal {
        Goal::OnePeg => 0,
        Goal::OnePegOn(cell) => {
            let i = board.cells.iter().position(|&c| c == cell).ok_or(SolveError::GoalOffBoard(cell))?;
            1 << i
        }
    };
    let mut search = Search {
        board: &board,
        goal: goal_bits,
        failed: HashSet::new(),
        positions: 0,
        budget,
        started,
        out_of_budget: false,
        line: Vec::new(),
    };
    let found = search.search(board.pegs_of(pos));
    let solved = if found {
        Solved::Solution(moves_of(pos, &board, &search.line))
    } else if search.out_of_budget {
        Solved::OutOfBudget
    } else {
        Solved::NoSolution
    };
    Ok(Solve { solved, positions: search.positions, elapsed: started.elapsed() })
}

/// The jumps of `line` as moves: a peg's jumps in a row join into one
/// move where the rules allow it.
fn moves_of(pos: &Position, board: &Board, line: &[usize]) -> Vec<Move> {
    let cell_of = |bit: Pegs| board.cells[bit.trailing_zeros() as usize];
    let mut pos = pos.clone();
    let mut moves: Vec<Move> = Vec::new();
    let mut path: Vec<Cell> = Vec::new();
    for &j in line {
        let (from, _, to) = board.jumps[j];
        let (from, to) = (cell_of(from), cell_of(to));
        let longer = (path.last() == Some(&from))
            .then(|| Move::new(path.iter().copied().chain([to]).collect()).ok())
            .flatten()
            .filter(|m| pos.check(m).is_ok());
        path = match longer {
            Some(m) => m.path().to_vec(),
            None => {
                if let Ok(m) = Move::new(std::mem::take(&mut path)) {
                    pos.play(&m).expect("each jump of the solution is legal");
                    moves.push(m);
                }
                vec![from, to]
            }
        };
    }
    if let Ok(m) = Move::new(path) {
        pos.play(&m).expect("each jump of the solution is legal");
        moves.push(m);
    }
    moves
}

#[cfg(test)]
mod tests {
    use jump_capture::{Preset, Rules};

    use super::*;

    fn start(preset: Preset) -> Position {
        Position::start(Rules::new(preset.spec()).unwrap(), 1, Some(1)).unwrap().0
    }

    #[test]
    fn each_board_has_the_symmetries_of_its_shape() {
        for (preset, count) in [(Preset::English, 8), (Preset::Capture, 12), (Preset::Triangle, 6)] {
            let pos = start_any(preset);
            let board = Board::new(&pos, Goal::OnePeg).unwrap();
            assert_eq!(board.symmetries.len(), count, "{preset}");
        }
    }

    fn start_any(preset: Preset) -> Position {
        let rules = Rules::new(preset.spec()).unwrap();
        let players = *rules.player_range().start();
        Position::start(rules, players, Some(1)).unwrap().0
    }

    #[test]
    fn a_position_with_no_jump_and_two_pegs_has_no_solution() {
        let pos = start(Preset::English);
        let stuck: Position = {
            let setup: jump_capture::Setup = "--O2--/--3--/7/7/7/--3--/--2O-- 30 0".parse().unwrap();
            Position::from_setup(pos.rules_arc().clone(), &setup).unwrap()
        };
        let s = solve(&stuck, Goal::OnePeg, SolveBudget::default()).unwrap();
        assert_eq!(s.solved, Solved::NoSolution);
    }

    #[test]
    fn a_goal_reads_a_cell_the_centre_or_any_and_says_what_is_wrong() {
        let d4: Cell = "d4".parse().unwrap();
        assert_eq!(Goal::read(None, Some(d4)), Ok(Goal::OnePegOn(d4)));
        assert_eq!(Goal::read(None, None), Ok(Goal::OnePeg));
        assert_eq!(Goal::read(Some("centre"), Some(d4)), Ok(Goal::OnePegOn(d4)));
        assert_eq!(Goal::read(Some("any"), Some(d4)), Ok(Goal::OnePeg));
        assert_eq!(Goal::read(Some("c3"), None), Ok(Goal::OnePegOn("c3".parse().unwrap())));
        assert_eq!(Goal::read(Some("centre"), None), Err(GoalError::NoCentre));
        assert!(matches!(Goal::read(Some("zz"), None), Err(GoalError::Cell(_))));
        assert_eq!(Goal::OnePegOn(d4).to_string(), "d4");
        assert_eq!(Goal::read(Some(&Goal::OnePeg.to_string()), Some(d4)), Ok(Goal::OnePeg));
    }

    #[test]
    fn a_budget_of_positions_stops_the_search() {
        let budget = SolveBudget { positions: 100, time: Duration::from_secs(60) };
        let s = solve(&start(Preset::English), Goal::OnePegOn("d4".parse().unwrap()), budget).unwrap();
        assert_eq!((s.solved, s.positions), (Solved::OutOfBudget, 100));
    }
}
