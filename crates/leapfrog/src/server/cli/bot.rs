//! `leapfrog bot`: the project's own computer players as a bot account on
//! any server (rule book §15). It publishes what it accepts, follows the
//! account's event stream (resuming with `Last-Event-ID` after a drop),
//! accepts the challenges sent to it, and plays each of its games on a
//! thread of its own: on its turn it reads the game's record, replays it,
//! and sends the move its level (or its program, `cmd:COMMAND`) chooses.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use jump_search::arena::Entrant;

use super::external::Contestant;
use leapfrog_wire::account_events::{AccountEventData, GameStartedEvent, YourTurnEvent};
use serde_json::{Value, json};

/// How long to wait before opening the stream again after it dropped.
const RECONNECT: Duration = Duration::from_secs(1);
/// A game thread looks at its game at least this often, turn told or not.
const LOOK_EVERY: Duration = Duration::from_secs(5);

#[derive(Debug, Args)]
pub struct BotArgs {
    /// The server's base URL (`https://leapfrog.example`, `http://127.0.0.1:8080`).
    #[arg(long, value_name = "URL")]
    server: String,
    /// The bot account's name.
    #[arg(long, value_name = "NAME")]
    account: String,
    /// A personal access token of the account with the `play` scope (and
    /// `account` to publish what it accepts). Prefer the environment
    /// variable: other users of the machine may read a command line.
    #[arg(long, env = "LEAPFROG_BOT_TOKEN", hide_env_values = true)]
    token: String,
    /// The computer's level: random, greedy, lookahead, easy, medium, hard,
    /// or mcts-N / mcts-Nms; or cmd:COMMAND, a program speaking the engine
    /// protocol (started by sh for each game).
    #[arg(long, default_value = "medium")]
    level: Contestant,
    /// Milliseconds a move for a cmd: level.
    #[arg(long, value_name = "MS", default_value_t = super::external::DEFAULT_MOVETIME,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,
    /// The presets it accepts, comma-separated (`murray,konane`); default:
    /// any rules.
    #[arg(long, value_name = "PRESETS", value_delimiter = ',')]
    accept: Vec<String>,
    /// The most games it plays at once; past it the server declines `busy`.
    #[arg(long, value_name = "N", default_value_t = 4)]
    max_games: u32,
}

/// What the bot did, for its last line.
#[derive(Debug, Default)]
struct Tally {
    games: AtomicU64,
    moves: AtomicU64,
    over: AtomicU64,
}

#[derive(Clone)]
struct Client {
    base: String,
    auth: String,
    agent: ureq::Agent,
}

impl Client {
    fn new(server: &str, token: &str) -> Client {
        let agent = ureq::AgentBuilder::new().timeout_connect(Duration::from_secs(10)).redirects(0).build();
        Client { base: server.trim_end_matches('/').to_string(), auth: format!("Bearer {token}"), agent }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
        let request = self
            .agent
            .request(method, &format!("{}{path}", self.base))
            .set("Authorization", &self.auth)
            .timeout(Duration::from_secs(30));
        let answer = match body {
            Some(b) => request.send_json(b.clone()),
            None => request.call(),
        };
        match answer {
            Ok(r) => Ok((r.status(), r.into_json().unwrap_or(Value::Null))),
            Err(ureq::Error::Status(code, r)) => Ok((code, r.into_json().unwrap_or(Value::Null))),
            Err(e) => Err(format!("{method} {path}: {e}")),
        }
    }

    fn text(&self, path: &str) -> Result<String, String> {
        let r = self.agent.get(&format!("{}{path}", self.base)).set("Authorization", &self.auth).call();
        r.map_err(|e| format!("GET {path}: {e}"))?.into_string().map_err(|e| format!("GET {path}: {e}"))
    }
}

/// Runs the bot until the process is interrupted.
///
/// # Errors
///
/// A server that refuses the token, or the account's settings.
pub fn run(args: &BotArgs) -> Result<String, String> {
    let client = Client::new(&args.server, &args.token);
    let me = args.account.clone();
    let accepts = json!({"accepts": {"presets": args.accept, "max_games": args.max_games}});
    let (status, answer) = client.call("PATCH", &format!("/v1/accounts/{me}"), Some(&accepts))?;
    if status != 200 {
        return Err(format!("publishing what {me} accepts: {status} {answer}"));
    }
    if answer["bot"] != json!(true) {
        return Err(format!("{me} is not a bot account: make it one first (PATCH its bot setting)"));
    }
    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    watch_interrupt(stop.clone(), tally.clone());
    eprintln!(
        "{me}: playing at level {} on {} (at most {} games at once)",
        args.level, client.base, args.max_games
    );
    let games: Arc<Mutex<HashMap<String, mpsc::Sender<()>>>> = Arc::default();
    let mut last: Option<String> = None;
    let level = args.level.clone().with_movetime(args.movetime);
    while !stop.load(Ordering::Relaxed) {
        if let Err(e) = follow(&client, &me, &level, &mut last, &games, &tally) {
            eprintln!(
                "{me}: the stream dropped ({e}); reconnecting after {}",
                last.as_deref().unwrap_or("the start")
            );
        }
        std::thread::sleep(RECONNECT);
    }
    Ok(String::new())
}

/// Stops the process cleanly on SIGINT or SIGTERM, saying what it did.
fn watch_interrupt(stop: Arc<AtomicBool>, tally: Arc<Tally>) {
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else { return };
        runtime.block_on(async {
            use tokio::signal::unix::{SignalKind, signal};
            let (Ok(mut term), Ok(mut int)) =
                (signal(SignalKind::terminate()), signal(SignalKind::interrupt()))
            else {
                return;
            };
            tokio::select! { _ = term.recv() => {}, _ = int.recv() => {} }
        });
        stop.store(true, Ordering::Relaxed);
        eprintln!(
            "stopped: {} games, {} moves, {} over",
            tally.games.load(Ordering::Relaxed),
            tally.moves.load(Ordering::Relaxed),
            tally.over.load(Ordering::Relaxed)
        );
        std::process::exit(0);
    });
}

/// Reads the account's stream until it ends, acting on each event.
fn follow(
    client: &Client,
    me: &str,
    level: &Contestant,
    last: &mut Option<String>,
    games: &Arc<Mutex<HashMap<String, mpsc::Sender<()>>>>,
    tally: &Arc<Tally>,
) -> Result<(), String> {
    let mut request = client
        .agent
        .get(&format!("{}/v1/accounts/{me}/events", client.base))
        .set("Authorization", &client.auth);
    if let Some(id) = last.as_deref() {
        request = request.set("Last-Event-ID", id);
    }
    let answer = request.call().map_err(|e| e.to_string())?;
    let reader = BufReader::new(answer.into_reader());
    let (mut event, mut id, mut data) = (String::new(), None, String::new());
    for line in reader.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(v) = line.strip_prefix("event: ") {
            event = v.to_string();
        } else if let Some(v) = line.strip_prefix("id: ") {
            id = Some(v.to_string());
        } else if let Some(v) = line.strip_prefix("data: ") {
            data.push_str(v);
        } else if line.is_empty() && !event.is_empty() {
            // An event of a kind this client does not know is passed over.
            if let Ok(told) = AccountEventData::read(&event, &data) {
                act(client, me, level, &told, games, tally);
            }
            if id.is_some() {
                *last = id.take();
            }
            event.clear();
            data.clear();
        }
    }
    Err("the server closed it".into())
}

/// Acts on one event of the account's stream.
fn act(
    client: &Client,
    me: &str,
    level: &Contestant,
    told: &AccountEventData,
    games: &Arc<Mutex<HashMap<String, mpsc::Sender<()>>>>,
    tally: &Arc<Tally>,
) {
    match told {
        AccountEventData::Challenge(c)
            if c.status == "open" && c.to.as_deref().is_some_and(|t| t.eq_ignore_ascii_case(me)) =>
        {
            match client.call("POST", &format!("/v1/challenges/{}/accept", c.id), None) {
                Ok((200, _)) => eprintln!("{me}: accepted the challenge of {}", c.from.name),
                Ok((status, answer)) => {
                    eprintln!("{me}: could not accept {}: {status} {}", c.id, answer["detail"])
                }
                Err(e) => eprintln!("{me}: {e}"),
            }
        }
        AccountEventData::GameStarted(GameStartedEvent { game, .. })
        | AccountEventData::YourTurn(YourTurnEvent { game, .. }) => {
            let mut running = games.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let known = running.get(game).is_some_and(|tx| tx.send(()).is_ok());
            if !known {
                let (tx, rx) = mpsc::channel();
                running.insert(game.to_string(), tx);
                tally.games.fetch_add(1, Ordering::Relaxed);
                eprintln!("{me}: game {game} started");
                let (client, me, game, games, tally, level) = (
                    client.clone(),
                    me.to_string(),
                    game.to_string(),
                    games.clone(),
                    tally.clone(),
                    level.clone(),
                );
                std::thread::spawn(move || {
                    play(&client, &me, &level, &game, &rx, &tally);
                    games.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&game);
                });
            }
        }
        AccountEventData::GameOver(over) => {
            tally.over.fetch_add(1, Ordering::Relaxed);
            let won = over.result.winners.contains(&over.seat);
            let change = match &over.rating {
                Some(r) => format!(", rating {} → {}", r.before, r.after),
                None => String::new(),
            };
            eprintln!("{me}: game {} over: {}{change}", over.game, if won { "won" } else { "not won" });
            if let Some(tx) = games.lock().ok().and_then(|g| g.get(&over.game).cloned()) {
                let _ = tx.send(());
            }
        }
        // A tournament's games start as any other (`game_started`): these
        // only say where the bot stands.
        AccountEventData::TournamentPaired(p) => match (&p.game, &p.opponent) {
            (Some(game), Some(opponent)) => {
                eprintln!(
                    "{me}: tournament {} round {}: game {game} against {opponent}",
                    p.tournament, p.round
                )
            }
            _ => eprintln!("{me}: tournament {} round {}: a bye", p.tournament, p.round),
        },
        AccountEventData::TournamentOver(o) => {
            eprintln!(
                "{me}: tournament {} over: place {} of {}, {} points",
                o.tournament, o.place, o.players, o.points
            )
        }
        _ => {}
    }
}

/// Plays game `id` until it is over: on each of its turns, the move the
/// level chooses in the position its record replays to.
fn play(client: &Client, me: &str, level: &Contestant, id: &str, told: &mpsc::Receiver<()>, tally: &Tally) {
    let mut player = level.player(rand::random());
    loop {
        let game = match client.call("GET", &format!("/v1/games/{id}"), None) {
            Ok((200, game)) => game,
            Ok((status, _)) => return eprintln!("{me}: game {id}: {status}"),
            Err(e) => {
                eprintln!("{me}: game {id}: {e}");
                std::thread::sleep(LOOK_EVERY);
                continue;
            }
        };
        if game["status"] == "over" {
            return;
        }
        let to_move = game["position"]["to_move"].as_u64().unwrap_or(u64::MAX) as usize;
        let mine = game["players"][to_move]["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(me));
        if mine && game["status"] != "waiting" {
            match choose(client, id, player.as_mut()) {
                Ok(Some(path)) => {
                    let body = json!({"path": path});
                    let ply = game["position"]["ply"].clone();
                    let if_match = format!("\"{}\"", game["version"]);
                    let sent = client
                        .agent
                        .post(&format!("{}/v1/games/{id}/moves", client.base))
                        .set("Authorization", &client.auth)
                        .set("If-Match", &if_match)
                        .send_json(body);
                    match sent {
                        Ok(_) => {
                            tally.moves.fetch_add(1, Ordering::Relaxed);
                            eprintln!("{me}: game {id}: played {} at ply {ply}", path.join("x"));
                            continue;
                        }
                        // Someone moved first (or the game changed): look again.
                        Err(ureq::Error::Status(409 | 412, _)) => continue,
                        Err(e) => eprintln!("{me}: game {id}: the move was refused: {e}"),
                    }
                }
                Ok(None) => {}
                Err(e) => eprintln!("{me}: game {id}: {e}"),
            }
        }
        // Wait for the stream to say something changed, or look anyway.
        match told.recv_timeout(LOOK_EVERY) {
            Ok(()) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// The move `player` chooses in game `id` as its record replays it.
fn choose(
    client: &Client,
    id: &str,
    player: &mut dyn jump_search::Player,
) -> Result<Option<Vec<String>>, String> {
    let text = client.text(&format!("/v1/games/{id}/record"))?;
    let record = leapfrog_wire::record::Record::parse(&text).map_err(|e| e.to_string())?;
    let replayed = record.replay().map_err(|e| e.to_string())?;
    let Some(position) = replayed.positions.last() else { return Ok(None) };
    Ok(player.choose(position).map(|mv| mv.path().iter().map(ToString::to_string).collect()))
}
