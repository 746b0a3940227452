//! Players from other programs: `cmd:COMMAND` in `leapfrog arena
//! --players` and `leapfrog bot --level` starts `COMMAND` (through `sh`)
//! for each game and speaks the engine protocol (JCP, see
//! `jump_search::protocol`) to it. A program that does not answer in time,
//! answers what is not a legal move, or ends, has no move to give: the
//! arena counts that as a forfeit, and the bot tries again.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use jump_capture::{Move, Position, Preset};
use jump_search::protocol::{self, Command, Go};
use jump_search::{Budget, Level, Player};

/// How long a program may take to start and say `jcpok`, and to answer
/// `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Time a program may take past its `movetime` to answer `bestmove` (its
/// start-up, a slow machine): after it, the move is forfeit.
const GRACE: Duration = Duration::from_secs(5);

/// A player: one of the project's levels, or another program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contestant {
    /// A level of the project's own computer.
    Level(Level),
    /// `cmd:COMMAND`: a program speaking the engine protocol, given
    /// `movetime` milliseconds a move.
    Program {
        /// The command line, run by `sh -c`.
        command: String,
        /// Milliseconds a move.
        movetime: u64,
    },
}

/// The time a move a program is given unless said otherwise.
pub const DEFAULT_MOVETIME: u64 = 1_000;

impl FromStr for Contestant {
    type Err = String;

    fn from_str(s: &str) -> Result<Contestant, String> {
        match s.strip_prefix("cmd:") {
            Some(c) if c.trim().is_empty() => {
                Err("cmd: needs a command, as in 'cmd:./leapfrog engine'".into())
            }
            Some(c) => Ok(Contestant::Program { command: c.trim().to_string(), movetime: DEFAULT_MOVETIME }),
            None => s.parse::<Level>().map(Contestant::Level).map_err(|e| format!("{e}, or cmd:COMMAND")),
        }
    }
}

impl fmt::Display for Contestant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Level(l) => l.fmt(f),
            Contestant::Program { command, .. } => write!(f, "cmd:{command}"),
        }
    }
}

impl Contestant {
    /// The same, a program given `movetime` milliseconds a move.
    pub fn with_movetime(self, movetime: u64) -> Contestant {
        match self {
            Contestant::Program { command, .. } => Contestant::Program { command, movetime },
            level => level,
        }
    }
}

impl jump_search::arena::Entrant for Contestant {
    fn name(&self) -> String {
        self.to_string()
    }

    fn player(&self, seed: u64) -> Box<dyn Player> {
        match self {
            Contestant::Level(l) => l.player(seed),
            Contestant::Program { command, movetime } => Box::new(Program::new(command, *movetime)),
        }
    }
}

/// A program started for one game. It is started at the first move asked
/// of it and ended (`quit`, then killed) when the game is dropped.
pub struct Program {
    command: String,
    movetime: u64,
    running: Option<Running>,
    /// The game's first position seen, and the moves played since.
    start: Option<Position>,
    moves: Vec<Move>,
}

struct Running {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Program {
    pub fn new(command: &str, movetime: u64) -> Program {
        Program { command: command.to_string(), movetime, running: None, start: None, moves: Vec::new() }
    }

    /// Starts the program, checks that it speaks the protocol, and gives it
    /// the rules of `pos`.
    fn launch(&self, pos: &Position) -> Result<Running, String> {
        let rules = pos.rules();
        let preset: Preset = rules.name().parse().map_err(|_| format!("{}: not a preset", rules.name()))?;
        let told = Command::Rules(preset, Some(rules.directions()));
        if protocol::spec_of(preset, Some(rules.directions()), &pos.setup().grid) != *rules.spec() {
            return Err(format!(
                "these {} rules differ from the preset's; the protocol names presets",
                preset.id()
            ));
        }
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(format!("exec {}", self.command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {:?}: {e}", self.command))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("no pipes to the program".into());
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut running = Running { child, input, lines };
        running.send(&Command::Identify)?;
        running.expect(|l| l == "jcpok", HANDSHAKE).map_err(|e| format!("jcp: {e}"))?;
        running.send(&told)?;
        running.send(&Command::IsReady)?;
        running.expect(|l| l == "readyok", HANDSHAKE).map_err(|e| format!("{told}: {e}"))?;
        Ok(running)
    }

    fn ask(&mut self, pos: &Position) -> Result<Option<Move>, String> {
        if self.running.is_none() {
            self.running = Some(self.launch(pos)?);
        }
        let start = self.start.get_or_insert_with(|| pos.clone()).setup();
        let running = self.running.as_mut().ok_or("not running")?;
        running.send(&Command::Position(start, self.moves.clone()))?;
        running.send(&Command::Go(Go::Budget(Budget::Millis(self.movetime))))?;
        let wait = Duration::from_millis(self.movetime) + GRACE;
        let line = running.expect(|l| l.starts_with("bestmove ") || l.starts_with("error "), wait)?;
        match line.strip_prefix("bestmove ").map(str::trim) {
            Some("none") => Ok(None),
            Some(text) => text.parse::<Move>().map(Some).map_err(|e| format!("bestmove {text}: {e}")),
            None => Err(line),
        }
    }

    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.send(&Command::Quit);
            // A moment to leave by itself, then it is ended.
            let until = Instant::now() + Duration::from_millis(200);
            while Instant::now() < until && matches!(r.child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }
}

impl Running {
    fn send(&mut self, command: &Command) -> Result<(), String> {
        writeln!(self.input, "{command}").and_then(|()| self.input.flush()).map_err(|e| match e.kind() {
            // Whether the write or the read notices first is a race.
            std::io::ErrorKind::BrokenPipe => format!("{command}: the program ended or stopped reading"),
            _ => format!("{command}: {e}"),
        })
    }

    /// The first line that `wanted` takes, within `wait`; other lines
    /// (`info`, `id`, …) are passed over.
    fn expect(&mut self, wanted: impl Fn(&str) -> bool, wait: Duration) -> Result<String, String> {
        let until = Instant::now() + wait;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(line.trim()) => return Ok(line.trim().to_string()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {} ms", wait.as_millis()));
                }
                Err(RecvTimeoutError::Disconnected) => return Err("the program ended".into()),
            }
        }
    }
}

impl Player for Program {
    fn name(&self) -> String {
        format!("cmd:{}", self.command)
    }

    fn choose(&mut self, pos: &Position) -> Option<Move> {
        // A program told of another game's moves cannot be trusted with
        // this one's start: begin again from here.
        if self.start.is_some() && self.moves.is_empty() && self.start.as_ref() != Some(pos) {
            self.start = None;
        }
        match self.ask(pos) {
            Ok(mv) => mv,
            Err(e) => {
                eprintln!("cmd:{}: {e}", self.command);
                // It will be started again if asked again.
                self.stop();
                None
            }
        }
    }

    fn observe(&mut self, before: &Position, mv: &Move) {
        if self.start.is_none() {
            self.start = Some(before.clone());
        }
        self.moves.push(mv.clone());
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stop();
    }
}
