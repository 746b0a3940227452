//! The engine protocol (JCP, "jump-capture protocol"): a line protocol in
//! the manner of UCI and UHP through which any program can play, and be
//! played by, the engines of this crate. The README of this crate
//! describes it for people who write engines.
//!
//! This module is the protocol without its input and output: [`Session`]
//! reads one command line at a time and answers with the lines to print,
//! or with a [`Search`] to run; [`Command`] parses and writes a line. The
//! `leapfrog engine` command runs a session on standard input and output,
//! and `leapfrog arena` and `leapfrog bot` speak it to other programs.

use std::fmt;

use jump_capture::{DirectionSet, Grid, Move, Position, Preset, Rules, RulesSpec, Setup};

use crate::{Budget, Habits};

/// The protocol's version, told by `jcp`.
pub const VERSION: u32 = 1;

/// The longest search `go` may ask for, in milliseconds (a day), and the
/// most iterations.
pub const MAX_MILLIS: u64 = 86_400_000;
/// See [`MAX_MILLIS`].
pub const MAX_ITERATIONS: u64 = 1_000_000_000;

/// How long `go` may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Go {
    /// `go movetime MS` / `go iterations N` / both: a search budget.
    Budget(Budget),
    /// `go infinite`: until `stop` (or [`MAX_MILLIS`]).
    Infinite,
}

impl Go {
    /// The search budget this asks for.
    pub fn budget(self) -> Budget {
        match self {
            Go::Budget(b) => b,
            Go::Infinite => Budget::Millis(MAX_MILLIS),
        }
    }
}

/// One command line from the program that drives an engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `jcp`: say who you are and which protocol you speak.
    Identify,
    /// `isready`: answer `readyok` once every command before it is done.
    IsReady,
    /// `newgame`: what follows is another game; forget this one.
    NewGame,
    /// `rules PRESET [DIRECTIONS]`: the rule set of the positions to come.
    Rules(Preset, Option<DirectionSet>),
    /// `position BOARD PLY SCORES [moves M1 M2 …]`: a position string,
    /// then the moves played from it.
    Position(Setup, Vec<Move>),
    /// `go …`: search the position and answer `bestmove`.
    Go(Go),
    /// `stop`: end the search now and answer its `bestmove`.
    Stop,
    /// `quit`: end the program.
    Quit,
}

/// A line that is not a command, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadCommand(pub String);

impl std::str::FromStr for Command {
    type Err = BadCommand;

    fn from_str(line: &str) -> Result<Command, BadCommand> {
        let bad = |s: String| Err(BadCommand(s));
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else { return bad("an empty line".into()) };
        match (first, rest) {
            ("jcp", []) => Ok(Command::Identify),
            ("isready", []) => Ok(Command::IsReady),
            ("newgame", []) => Ok(Command::NewGame),
            ("stop", []) => Ok(Command::Stop),
            ("quit", []) => Ok(Command::Quit),
            ("rules", [preset]) | ("rules", [preset, _]) => {
                let preset = preset.parse::<Preset>().map_err(|e| BadCommand(format!("rules: {e}")))?;
                let dirs = match rest.get(1) {
                    Some(d) => {
                        Some(d.parse::<DirectionSet>().map_err(|e| BadCommand(format!("rules: {e}")))?)
                    }
                    None => None,
                };
                Ok(Command::Rules(preset, dirs))
            }
            ("position", [board, ply, scores, more @ ..]) => {
                let text = format!("{board} {ply} {scores}");
                let setup = text.parse::<Setup>().map_err(|e| BadCommand(format!("position: {e}")))?;
                let moves = match more {
                    [] => Vec::new(),
                    ["moves", moves @ ..] => moves
                        .iter()
                        .map(|m| m.parse::<Move>().map_err(|e| BadCommand(format!("position: {m}: {e}"))))
                        .collect::<Result<_, _>>()?,
                    _ => return bad("position: after the position string, only 'moves M1 M2 …'".into()),
                };
                Ok(Command::Position(setup, moves))
            }
            ("go", ["infinite"]) => Ok(Command::Go(Go::Infinite)),
            ("go", args) => read_go(args).map(|b| Command::Go(Go::Budget(b))),
            (word, _) if KNOWN.contains(&word) => bad(format!("{word}: {}", usage(word))),
            (word, _) => {
                bad(format!("unknown command {:?}; the commands are {}", clip(word), KNOWN.join(", ")))
            }
        }
    }
}

const KNOWN: [&str; 8] = ["jcp", "isready", "newgame", "rules", "position", "go", "stop", "quit"];

fn usage(word: &str) -> &'static str {
    match word {
        "rules" => "say 'rules PRESET [DIRECTIONS]'",
        "position" => "say 'position BOARD PLY SCORES [moves M1 M2 …]'",
        "go" => "say 'go movetime MS', 'go iterations N', both, or 'go infinite'",
        _ => "it takes no arguments",
    }
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// `go`'s arguments: `movetime MS` and / or `iterations N`.
fn read_go(args: &[&str]) -> Result<Budget, BadCommand> {
    let (mut millis, mut iterations) = (None, None);
    let mut it = args.iter();
    while let Some(&key) = it.next() {
        let (slot, max) = match key {
            "movetime" => (&mut millis, MAX_MILLIS),
            "iterations" => (&mut iterations, MAX_ITERATIONS),
            other => return Err(BadCommand(format!("go: no argument {:?}; {}", clip(other), usage("go")))),
        };
        let value = it.next().ok_or_else(|| BadCommand(format!("go: {key} needs a number")))?;
        let n = value
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| BadCommand(format!("go: {key} must be a whole number from 1 to {max}")))?;
        *slot = Some(n);
    }
    match (iterations, millis) {
        (Some(iterations), Some(millis)) => Ok(Budget::IterationsWithin { iterations, millis }),
        (Some(n), None) => Ok(Budget::Iterations(n)),
        (None, Some(ms)) => Ok(Budget::Millis(ms)),
        (None, None) => Err(BadCommand(format!("go: {}", usage("go")))),
    }
}

impl fmt::Display for Command {
    /// The command as a line (without its newline), as [`Command`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Identify => f.write_str("jcp"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("newgame"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Rules(p, None) => write!(f, "rules {}", p.id()),
            Command::Rules(p, Some(d)) => write!(f, "rules {} {d}", p.id()),
            Command::Position(setup, moves) => {
                write!(f, "position {setup}")?;
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(Go::Infinite) => f.write_str("go infinite"),
            Command::Go(Go::Budget(b)) => {
                f.write_str("go")?;
                if let Some(n) = b.iterations() {
                    write!(f, " iterations {n}")?;
                }
                if let Some(ms) = b.millis() {
                    write!(f, " movetime {ms}")?;
                }
                Ok(())
            }
        }
    }
}

/// The rule set `rules PRESET [DIRECTIONS]` names, on the board of a
/// position's `grid`: what an engine plays, and what a driver checks a
/// game's rules against before it names them so.
pub fn spec_of(preset: Preset, directions: Option<DirectionSet>, grid: &Grid) -> RulesSpec {
    let spec = preset.spec().with_shape_of(grid);
    match directions {
        Some(d) => spec.with_directions(d),
        None => spec,
    }
}

/// A search a session asks its driver to run: on another thread, so that
/// `stop` can end it (see [`crate::analyse_until`]).
#[derive(Debug, Clone)]
pub struct Search {
    /// The position to search.
    pub position: Position,
    /// How long.
    pub budget: Budget,
    /// The search's seed.
    pub seed: u64,
    /// What the session has seen of the other players this game.
    pub habits: Habits,
}

/// What a session answers to a line.
#[derive(Debug)]
pub enum Reply {
    /// Lines to print, in order (perhaps none).
    Lines(Vec<String>),
    /// A search to run; print [`Search::told`]'s lines when it ends.
    Search(Box<Search>),
    /// The program should end.
    Quit,
}

/// An engine's side of the protocol: the rules, the game so far, and what
/// it has seen of the other players.
#[derive(Debug, Clone)]
pub struct Session {
    name: String,
    rules: Option<(Preset, Option<DirectionSet>)>,
    position: Option<Position>,
    habits: Habits,
    seed: u64,
}

impl Session {
    /// A session of the engine called `name` (its name and version, as
    /// `jcp` tells them), drawing its searches from `seed`.
    pub fn new(name: &str, seed: u64) -> Session {
        Session { name: name.to_string(), rules: None, position: None, habits: Habits::new(), seed }
    }

    /// The answer to one line of input.
    pub fn handle(&mut self, line: &str) -> Reply {
        if line.trim().is_empty() {
            return Reply::Lines(Vec::new());
        }
        let command = match line.parse::<Command>() {
            Ok(c) => c,
            Err(e) => return Reply::Lines(vec![format!("error {e}")]),
        };
        let lines = match command {
            Command::Identify => vec![
                format!("id name {}", self.name),
                format!("protocol jcp {VERSION}"),
                format!("presets {}", Preset::ALL.map(Preset::id).join(" ")),
                "jcpok".to_string(),
            ],
            Command::IsReady => vec!["readyok".to_string()],
            Command::NewGame => {
                self.position = None;
                self.habits = Habits::new();
                Vec::new()
            }
            Command::Rules(preset, dirs) => {
                self.rules = Some((preset, dirs));
                self.position = None;
                Vec::new()
            }
            Command::Position(setup, moves) => match self.set_position(&setup, &moves) {
                Ok(()) => Vec::new(),
                Err(e) => vec![format!("error position: {e}")],
            },
            Command::Go(go) => return self.go(go),
            // Nothing is being searched: nothing to stop.
            Command::Stop => Vec::new(),
            Command::Quit => return Reply::Quit,
        };
        Reply::Lines(lines)
    }

    /// Sets the position; the moves after it are played and watched for
    /// habits. Nothing changes when any of it is refused.
    fn set_position(&mut self, setup: &Setup, moves: &[Move]) -> Result<(), String> {
        let (preset, dirs) = self.rules.ok_or("no rules yet: send 'rules PRESET [DIRECTIONS]' first")?;
        let rules = Rules::new(spec_of(preset, dirs, &setup.grid)).map_err(|e| e.to_string())?;
        let mut pos = Position::from_setup(rules, setup).map_err(|e| e.to_string())?;
        let mut habits = Habits::new();
        for mv in moves {
            habits.observe(&pos, mv);
            pos.play(mv).map_err(|e| format!("{mv}: {e}"))?;
        }
        self.position = Some(pos);
        self.habits = habits;
        Ok(())
    }

    fn go(&mut self, go: Go) -> Reply {
        let Some(position) = self.position.clone() else {
            return Reply::Lines(vec!["error go: no position yet: send 'position …' first".to_string()]);
        };
        // A different stream for each ply, the same for the same game.
        let seed = self.seed ^ u64::from(position.ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Reply::Search(Box::new(Search { position, budget: go.budget(), seed, habits: self.habits.clone() }))
    }
}

impl Search {
    /// The lines that tell what the search found: one `info` line, then
    /// `bestmove MOVE`, or `bestmove none` when the game is over.
    pub fn told(analysis: Option<&crate::Analysis>) -> Vec<String> {
        let Some(a) = analysis else { return vec!["bestmove none".to_string()] };
        let line: Vec<String> = a.line.iter().map(ToString::to_string).collect();
        let mut info = format!(
            "info iterations {} time {} exact {}",
            a.iterations,
            a.elapsed.as_millis(),
            if a.exact { "yes" } else { "no" }
        );
        if let Some(v) = a.candidates.first().map(|c| &c.expected) {
            let values: Vec<String> = v.iter().map(|x| format!("{x:.3}")).collect();
            info.push_str(&format!(" expected {}", values.join(",")));
        }
        info.push_str(&format!(" pv {}", line.join(" ")));
        vec![info, format!("bestmove {}", a.best)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(reply: Reply) -> Vec<String> {
        match reply {
            Reply::Lines(l) => l,
            other => panic!("expected lines, got {other:?}"),
        }
    }

    #[test]
    fn every_command_reads_back_as_it_is_written() {
        for line in [
            "jcp",
            "isready",
            "newgame",
            "stop",
            "quit",
            "rules konane",
            "rules murray all",
            "position 1OO/1OO/1OO 2 1,1",
            "position 1OO/1OO/1OO 2 1,1 moves c2xa2 a1xc1",
            "go infinite",
            "go movetime 2000",
            "go iterations 5000",
            "go iterations 5000 movetime 100",
        ] {
            let c: Command = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(c.to_string(), line);
        }
    }

    #[test]
    fn a_bad_line_is_an_error_that_says_what_to_send() {
        for (line, says) in [
            ("", "empty"),
            ("hello", "unknown command \"hello\"; the commands are jcp"),
            ("go", "say 'go movetime MS'"),
            ("go movetime", "movetime needs a number"),
            ("go movetime 0", "from 1 to 86400000"),
            ("go depth 3", "no argument \"depth\""),
            ("rules chess", "rules:"),
            ("rules murray sideways", "rules:"),
            ("position 1OO/1OO", "position BOARD PLY SCORES"),
            ("position 1OO/1OO/1OO 2 1,1 then c2xa2", "only 'moves"),
            ("position 1OO/1OO/1OO 2 1,1 moves c2-d4", "position: c2-d4"),
            ("quit now", "takes no arguments"),
        ] {
            let e = line.parse::<Command>().unwrap_err().0;
            assert!(e.contains(says), "{line:?}: {e}");
        }
    }

    #[test]
    fn a_session_identifies_itself_takes_rules_and_a_position_and_searches_it() {
        let mut s = Session::new("leapfrog 0.0.0", 1);
        let id = lines(s.handle("jcp"));
        assert_eq!(id.first().map(String::as_str), Some("id name leapfrog 0.0.0"));
        assert_eq!(id.last().map(String::as_str), Some("jcpok"));
        assert_eq!(lines(s.handle("go movetime 10")), ["error go: no position yet: send 'position …' first"]);
        assert!(lines(s.handle("position 1OO/1OO/1OO 2 1,1"))[0].contains("no rules yet"));
        assert!(lines(s.handle("rules old")).is_empty());
        assert!(lines(s.handle("position 1OO/1OO/1OO 2 1,1 moves c2xa2")).is_empty());
        let Reply::Search(search) = s.handle("go iterations 50") else { panic!("a search") };
        assert_eq!(search.position.to_string(), "1OO/O2/1OO 3 2,1");
        assert_eq!(search.budget, Budget::Iterations(50));
        let found = crate::analyse_with(&search.position, search.budget, search.seed, &search.habits);
        let told = Search::told(found.as_ref());
        let best = told.last().unwrap().strip_prefix("bestmove ").unwrap();
        assert!(search.position.check(&best.parse().unwrap()).is_ok(), "{told:?}");
        assert!(matches!(s.handle("quit"), Reply::Quit));
    }

    #[test]
    fn an_illegal_move_in_a_position_changes_nothing() {
        let mut s = Session::new("e", 1);
        s.handle("rules old");
        s.handle("position 1OO/1OO/1OO 2 1,1");
        let e = lines(s.handle("position 1OO/1OO/1OO 2 1,1 moves b1xb3"));
        assert!(e[0].starts_with("error position: b1xb3: "), "{e:?}");
        let Reply::Search(search) = s.handle("go iterations 1") else { panic!("a search") };
        assert_eq!(search.position.to_string(), "1OO/1OO/1OO 2 1,1");
    }

    #[test]
    fn a_game_over_is_told_as_bestmove_none() {
        assert_eq!(Search::told(None), ["bestmove none"]);
    }
}
