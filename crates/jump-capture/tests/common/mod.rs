//! Helpers shared by the rules crate's tests, including a deliberately
//! simple move generator that the fast one is checked against.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
#![allow(dead_code)]

use jump_capture::{
    Capture, Cell, Chain, Direction, Grid, Move, Opening, Position, Preset, Rules, RulesSpec, Setup, Square,
};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Rules from a preset at a size.
pub fn rules(preset: Preset, rows: u8, cols: u8) -> Rules {
    Rules::new(preset.spec().with_size(rows, cols)).expect("valid preset size")
}

/// A position from a position string, with the board's size.
pub fn pos(spec: RulesSpec, text: &str) -> Position {
    let setup: Setup = text.parse().expect("a well-formed position string");
    let spec = spec.with_shape_of(&setup.grid);
    Position::from_setup(Rules::new(spec).expect("valid rules"), &setup).expect("a valid position")
}

/// Sorted move strings.
pub fn moves(p: &Position) -> Vec<String> {
    p.legal_moves_unbounded().iter().map(ToString::to_string).collect()
}

/// Plays a move given in notation.
pub fn play(p: &mut Position, mv: &str) {
    let mv: Move = mv.parse().expect("a well-formed move");
    p.play(&mv).unwrap_or_else(|e| panic!("{mv} should be legal: {e}"));
}

// ---------------------------------------------------------------------
// The reference generator: reads the rule book literally, on a Grid,
// one cell at a time, cloning the board at every step. Slow and obvious.
// ---------------------------------------------------------------------

fn on_board(grid: &Grid, c: Option<Cell>) -> Option<Cell> {
    let c = c?;
    match grid.get(c) {
        Some(Square::Missing) | None => None,
        Some(_) => Some(c),
    }
}

fn owner(spec: &RulesSpec, letter: char) -> Option<usize> {
    spec.kinds.iter().find(|k| k.letter == letter).and_then(|k| k.owner)
}

fn may_move(spec: &RulesSpec, grid: &Grid, c: Cell, player: usize) -> bool {
    match grid.get(c) {
        Some(Square::Piece(l)) => spec.capture == Capture::Shared || owner(spec, l) == Some(player),
        _ => false,
    }
}

fn may_capture(spec: &RulesSpec, grid: &Grid, c: Cell, player: usize, players: usize) -> bool {
    match grid.get(c) {
        Some(Square::Piece(l)) => match spec.capture {
            Capture::Shared => true,
            Capture::Owned => owner(spec, l).is_some_and(|o| o != player && o < players),
        },
        _ => false,
    }
}

/// Every legal move of the setup under `spec`, as sorted strings.
pub fn reference_moves(spec: &RulesSpec, setup: &Setup) -> Vec<String> {
    let grid = &setup.grid;
    let players = setup.scores.len();
    let player = setup.ply as usize % players;
    let mut out = Vec::new();
    let cells: Vec<Cell> = grid.squares().map(|(c, _)| c).collect();
    if setup.ply < spec.opening.plies(players) {
        for &c in &cells {
            if !may_move(spec, grid, c, player) {
                continue;
            }
            let Some(Square::Piece(l)) = grid.get(c) else { continue };
            let ok = match &spec.opening {
                Opening::EachPlayerRemoves { kinds } | Opening::FirstPlayerRemoves { kinds } => {
                    kinds.as_ref().is_none_or(|k| k.contains(&l))
                }
                Opening::Konane if setup.ply == 0 => {
                    let (r, f, rows, cols) = (c.rank(), c.file(), grid.rows(), grid.cols());
                    let centre = (r == rows / 2 || r == rows / 2 - 1) && (f == cols / 2 || f == cols / 2 - 1);
                    let corner = (r == 0 || r == rows - 1) && (f == 0 || f == cols - 1);
                    centre || corner
                }
                Opening::Konane => [Direction::N, Direction::E, Direction::S, Direction::W]
                    .iter()
                    .any(|&d| on_board(grid, c.step(d)).is_some_and(|n| grid.get(n) == Some(Square::Empty))),
                Opening::None => false,
            };
            if ok {
                out.push(c.to_string());
            }
        }
    } else {
        for &c in &cells {
            if may_move(spec, grid, c, player) {
                extend(spec, grid.clone(), vec![c], None, player, players, &mut out);
            }
        }
    }
    out.sort();
    out
}

fn extend(
    spec: &RulesSpec,
    grid: Grid,
    path: Vec<Cell>,
    first: Option<Direction>,
    player: usize,
    players: usize,
    out: &mut Vec<String>,
) {
    let here = *path.last().unwrap();
    for &d in spec.directions.directions() {
        if spec.chain == Chain::Straight && first.is_some_and(|f| f != d) {
            continue;
        }
        let Some(over) = on_board(&grid, here.step(d)) else { continue };
        let Some(to) = on_board(&grid, over.step(d)) else { continue };
        if !may_capture(spec, &grid, over, player, players) || grid.get(to) != Some(Square::Empty) {
            continue;
        }
        let mut next = grid.clone();
        let piece = next.get(here).unwrap();
        next.set(here, Square::Empty);
        next.set(over, Square::Empty);
        next.set(to, piece);
        let mut p = path.clone();
        p.push(to);
        out.push(p.iter().map(ToString::to_string).collect::<Vec<_>>().join("x"));
        extend(spec, next, p, Some(d), player, players, out);
    }
}

/// Reference perft: through the reference generator and the position's own
/// `play` (whose checks are separate from the fast generator).
pub fn reference_perft(spec: &RulesSpec, p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    reference_moves(spec, &p.setup())
        .iter()
        .map(|m| {
            let mut child = p.clone();
            child.play(&m.parse().unwrap()).unwrap();
            reference_perft(spec, &child, depth - 1)
        })
        .sum()
}

/// A random well-formed position of `preset` with `dirs`: random size,
/// random holes, random pieces, a random ply (sometimes in the opening).
pub fn random_position(
    preset: Preset,
    dirs: jump_capture::DirectionSet,
    rng: &mut ChaCha8Rng,
) -> (RulesSpec, Position) {
    random_position_within(preset, dirs, 2..=4, rng)
}

/// [`random_position`] with sides drawn from twice `halves` (Konane) or
/// from `2 * start - 1 ..= 2 * end` (the others).
pub fn random_position_within(
    preset: Preset,
    dirs: jump_capture::DirectionSet,
    halves: std::ops::RangeInclusive<u8>,
    rng: &mut ChaCha8Rng,
) -> (RulesSpec, Position) {
    let sides = 2 * halves.start() - 1..=2 * halves.end();
    let (rows, cols, players) = if preset == Preset::Konane {
        (2 * rng.random_range(halves.clone()), 2 * rng.random_range(halves), 2)
    } else {
        (rng.random_range(sides.clone()), rng.random_range(sides), rng.random_range(1..=4usize))
    };
    let mut spec = sized(preset, dirs, rows, cols);
    let (rows, cols) = (spec.rows, spec.cols);
    let players = players.clamp(spec.min_players, spec.max_players);
    let mut grid = Grid::filled(rows, cols, Square::Empty);
    let holes: f64 = rng.random_range(0.05..0.6);
    if rng.random_bool(0.2) {
        let c = Cell::new(rng.random_range(0..cols), rng.random_range(0..rows)).unwrap();
        spec.mask.push(c);
    }
    for (c, _) in Grid::filled(rows, cols, Square::Empty).squares() {
        let sq = if spec.mask.contains(&c) {
            Square::Missing
        } else if rng.random_bool(holes) {
            Square::Empty
        } else {
            let k = &spec.kinds[rng.random_range(0..spec.kinds.len())];
            Square::Piece(k.letter)
        };
        grid.set(c, sq);
    }
    let opening = spec.opening.plies(players);
    let ply = rng.random_range(0..opening + 4);
    let scores = (0..players).map(|_| rng.random_range(0..20)).collect();
    let setup = Setup { grid, ply, scores };
    let rules = Rules::new(spec.clone()).unwrap();
    (spec, Position::from_setup(rules, &setup).unwrap())
}

/// A position past the opening built for long paths: nearly every cell
/// whose file or rank is odd holds a piece (what jumps capture), and most
/// cells of even file and rank are empty (where they land), so paths of
/// many jumps, and paths that come back to their start, abound.
pub fn lattice_position(
    preset: Preset,
    dirs: jump_capture::DirectionSet,
    rng: &mut ChaCha8Rng,
) -> (RulesSpec, Position) {
    let side = |rng: &mut ChaCha8Rng| {
        if preset == Preset::Konane { 2 * rng.random_range(3..=4) } else { rng.random_range(5..=8) }
    };
    let spec = sized(preset, dirs, side(rng), side(rng));
    let (rows, cols) = (spec.rows, spec.cols);
    let players = if preset == Preset::Konane { 2 } else { rng.random_range(1..=3usize) }
        .clamp(spec.min_players, spec.max_players);
    let mut grid = Grid::filled(rows, cols, Square::Empty);
    for (c, _) in Grid::filled(rows, cols, Square::Empty).squares() {
        let landing = c.file() % 2 == 0 && c.rank() % 2 == 0;
        if spec.mask.contains(&c) {
            grid.set(c, Square::Missing);
        } else if rng.random_bool(if landing { 0.2 } else { 0.7 }) {
            let k = &spec.kinds[rng.random_range(0..spec.kinds.len())];
            grid.set(c, Square::Piece(k.letter));
        }
    }
    let ply = spec.opening.plies(players) + rng.random_range(0..2);
    let setup = Setup { grid, ply, scores: vec![0; players] };
    let rules = Rules::new(spec.clone()).unwrap();
    (spec, Position::from_setup(rules, &setup).unwrap())
}

/// The preset's rules with `dirs` on a board of about `rows × cols`: that
/// rectangle, or the preset's shape with the side nearest to fit in it.
pub fn sized(preset: Preset, dirs: jump_capture::DirectionSet, rows: u8, cols: u8) -> RulesSpec {
    let shape = preset.shape();
    let spec = if shape == jump_capture::Shape::Rectangle {
        preset.spec().with_size(rows, cols)
    } else {
        let fits = shape.sides().rfind(|&s| shape.grid(s).0 <= rows.max(cols));
        preset.spec_with_side(fits.unwrap_or(*shape.sides().start())).unwrap()
    };
    spec.with_directions(dirs)
}

/// A seeded generator for tests.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
