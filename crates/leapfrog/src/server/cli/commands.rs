//! The commands that answer from the engine alone: `setup`, `solve`,
//! `analyse`, `arena`, `replay` (and the position they read).

use super::*;

pub(super) fn setup(args: SetupArgs) -> Result<String, CliError> {
    let shape = match (args.rows, args.cols) {
        (Some(r), Some(c)) => Shape::RowsCols(r, c),
        _ => Shape::Size(args.size),
    };
    let mut spec = args.rules.rules(shape)?.spec().clone();
    spec.mask.extend(&args.mask);
    if let Some(holes) = &args.holes {
        spec.holes.clone_from(holes);
    }
    let rules = Rules::new(spec)?;
    let (mut pos, seed) = Position::start(rules, args.players, args.seed).map_err(CliError::Start)?;
    if args.seed.is_none() {
        eprintln!("seed {seed}");
    }
    let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
    for _ in 0..args.random_plies {
        let Some(mv) = pos.random_move_unbounded(&mut rng) else { break };
        pos.play(&mv)?;
    }
    Ok(format!("{pos}\n"))
}

pub(super) fn solve(args: &SolveArgs) -> Result<String, CliError> {
    use jump_search::{Goal, SolveBudget, Solved};
    let pos = match &args.position {
        Some(text) => {
            let setup: Setup = text.parse()?;
            Position::from_setup(args.rules.rules(Shape::Of(&setup.grid))?, &setup)?
        }
        None => {
            let rules = args.rules.rules(Shape::Size(args.size))?;
            let players = *rules.player_range().start();
            Position::start(rules, players, Some(0)).map_err(CliError::Start)?.0
        }
    };
    let goal =
        Goal::read(args.goal.as_deref(), pos.rules().centre()).map_err(|e| CliError::Usage(e.to_string()))?;
    let budget =
        SolveBudget { positions: args.max_positions, time: std::time::Duration::from_millis(args.millis) };
    let s = jump_search::solve(&pos, goal, budget)?;
    let spent = format!("{} positions in {} ms", s.positions, s.elapsed.as_millis());
    let goal = match goal {
        Goal::OnePeg => "one peg left".to_string(),
        Goal::OnePegOn(c) => format!("one peg left, on {c}"),
    };
    let mut out = String::new();
    match s.solved {
        Solved::Solution(moves) => {
            for m in &moves {
                let _ = writeln!(out, "{m}");
            }
            let jumps: usize = moves.iter().map(|m| m.path().len() - 1).sum();
            let _ = writeln!(out, "solved: {goal}; {} moves, {jumps} jumps; {spent}", moves.len());
        }
        Solved::NoSolution => {
            let _ = writeln!(out, "no solution: {goal} cannot be reached from this position; {spent}");
        }
        Solved::OutOfBudget => {
            let _ = writeln!(out, "stopped: no solution found within the budget; {spent}");
        }
    }
    Ok(out)
}

pub(super) fn analyse(args: &AnalyseArgs) -> Result<String, CliError> {
    use jump_search::Budget;
    let pos = position(&args.position)?;
    let budget = match (args.iterations, args.millis) {
        (_, Some(ms)) => Budget::Millis(ms),
        (n, None) => Budget::Iterations(n.unwrap_or(20_000)),
    };
    let Some(a) = jump_search::analyse(&pos, budget, args.seed) else {
        return Ok("none: the game is over\n".to_string());
    };
    let mut out = String::new();
    let how = if a.exact {
        format!("exact: searched to the end ({} positions)", a.iterations)
    } else {
        format!("{} iterations", a.iterations)
    };
    let _ = writeln!(out, "{}  {how} in {} ms", a.best, a.elapsed.as_millis());
    let players: Vec<String> = (1..=pos.players()).map(|p| format!("p{p}")).collect();
    let _ = writeln!(out, "{:<24} {:>9}  expected result {}", "move", "visits", players.join(" "));
    for c in a.candidates.iter().take(args.top) {
        let expected: Vec<String> = c.expected.iter().map(|e| format!("{e:.3}")).collect();
        let proof = match c.proven {
            Some(true) => "  wins against any defence",
            Some(false) => "  loses against any defence",
            None => "",
        };
        let _ = writeln!(out, "{:<24} {:>9}  {}{proof}", c.mv.to_string(), c.visits, expected.join(" "));
    }
    let line: Vec<String> = a.line.iter().map(ToString::to_string).collect();
    let _ = writeln!(out, "line: {}", line.join(" "));
    Ok(out)
}

pub(super) fn arena(args: &ArenaArgs) -> Result<String, CliError> {
    let rules = args.rules.rules(Shape::Size(args.size))?;
    let players: Vec<_> = args.players.iter().map(|p| p.clone().with_movetime(args.movetime)).collect();
    let programs = players.iter().any(|p| matches!(p, super::external::Contestant::Program { .. }));
    let threads = args
        .threads
        .or(programs.then_some(1))
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get() as u64))
        .unwrap_or(1)
        .min(args.games);
    let progress = indicatif::ProgressBar::new(args.games).with_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (about {eta} left)")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let threads = usize::try_from(threads).unwrap_or(1);
    let tally = jump_search::arena::run(&rules, &players, args.games, args.seed, threads, || progress.inc(1))
        .map_err(|e| CliError::Arena(e.to_string()));
    progress.finish_and_clear();
    let tally = tally?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} games of {} {}×{} ({}), seed {}, seats rotated",
        args.games,
        rules.name(),
        rules.rows(),
        rules.cols(),
        rules.directions(),
        args.seed
    );
    let _ = writeln!(
        out,
        "{:<3} {:<14} {:>8} {:>9}  {:<15} {:>10} {:>9}",
        "#", "player", "wins", "win rate", "95% interval", "mean score", "forfeits"
    );
    for (i, s) in tally.standings().iter().enumerate() {
        let interval = format!("{:.1}%–{:.1}%", 100.0 * s.interval.0, 100.0 * s.interval.1);
        let _ = writeln!(
            out,
            "{:<3} {:<14} {:>8.1} {:>8.1}%  {:<15} {:>10.1} {:>9}",
            i + 1,
            s.name,
            s.wins,
            100.0 * s.rate,
            interval,
            s.mean_score,
            s.forfeits
        );
    }
    Ok(out)
}

pub(super) fn position(args: &PositionArgs) -> Result<Position, CliError> {
    let setup: Setup = args.position.parse()?;
    let rules = args.rules.rules(Shape::Of(&setup.grid))?;
    Ok(Position::from_setup(rules, &setup)?)
}

/// `replay`: the record's plies, each with the position after it, then its
/// result (or that the game is unfinished).
pub(super) fn replay(args: &ReplayArgs) -> Result<String, CliError> {
    let read = |source| CliError::Read { path: args.file.display().to_string(), source };
    let text = if args.file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(read)?
    } else {
        std::fs::read_to_string(&args.file).map_err(read)?
    };
    let record = leapfrog_wire::record::Record::parse(&text)?;
    let replayed = record.replay()?;
    Ok(record.told(&replayed))
}
