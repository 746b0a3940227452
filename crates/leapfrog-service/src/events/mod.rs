//! Each game's and each account's events: encoded once, when a change is
//! made, stored with it in the log (`leapfrog_store`'s `game_events` and
//! `account_events`), and replayed from there to every stream that
//! follows it, in this process or another (an account's are also sent to
//! its webhooks, by the webhooks' outbox).
//!
//! - [`encode`] turns the core's [`Change`]s into a game log's rows: the
//!   games service writes them in the transaction of the change, so a game
//!   and its log never disagree. [`made_from_rows`] does it once for a game
//!   stored before there were logs. `account` does the same for the
//!   accounts a change concerns, from the wire's typed account events.
//! - [`Hub`] (`hub`): the followers of each log in this process; told that
//!   a log grew (by the service, or by PostgreSQL's `NOTIFY` for another
//!   process's change), it reads the new events from the log once and
//!   hands them to every follower.
//! - `cursor`: a follower's place in a log — resume, replay in batches, a
//!   gap or lag read from the log — shared by every stream.
//! - [`Stream`] (`stream`): a game's stream: the game as it stands or the
//!   events a reconnecting client missed, then the hub's.
//!   [`AccountStream`] (`account_stream`): an account's, the same way.
//!
//! Nothing here decides what happened: the core does ([`Game::apply`]).

pub mod account;
mod account_stream;
pub mod cursor;
mod hub;
mod stream;
#[cfg(test)]
mod tests;

use bytes::Bytes;
use serde::Serialize;

pub use account_stream::{ACCOUNT_HEARTBEAT, AccountStream, OpenError, STREAMS_PER_ACCOUNT};
pub use hub::{Follower, Hub, StreamLimits, StreamsFull, forward_postgres};
pub use stream::{HEARTBEAT, REMATCH_WAIT, Stream, StreamError};

use leapfrog_core::game::{Change, Game, HistoryMove, Resignation};
use leapfrog_store::EventRow;
use leapfrog_wire::events::{GameChange, GameOverEvent, MoveEvent, RematchEvent};
use leapfrog_wire::game::GameView;

/// What an event means to a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The end of play: only a rematch may follow.
    Over,
    /// The game that replays this one: nothing follows.
    Rematch,
    /// Anything else: a move or a change of the seats.
    Other,
}

/// One event of a game's log, in its wire form.
#[derive(Debug, Clone)]
pub struct Event {
    /// Its number in the game's log.
    pub seq: u64,
    /// What it means to a stream.
    pub kind: Kind,
    /// The bytes a stream sends.
    pub bytes: Bytes,
}

impl Event {
    /// The event of a stored row.
    pub fn of_row(row: &EventRow) -> Event {
        let seq = u64::try_from(row.seq).unwrap_or_default();
        let kind = match row.kind.as_str() {
            "over" => Kind::Over,
            "rematch" => Kind::Rematch,
            _ => Kind::Other,
        };
        Event { seq, kind, bytes: sse(&row.kind, Some(seq), &row.data) }
    }

    /// The `game` event: the game as it stands, first on a fresh stream.
    /// Its id is the number of the last event it includes, so that a
    /// reconnect resumes after it.
    ///
    /// # Errors
    ///
    /// When the game does not encode (never, for these plain values).
    pub fn snapshot(game: &Game) -> Result<Bytes, serde_json::Error> {
        let id = game.events().and_then(|n| n.checked_sub(1));
        Ok(sse("game", id, &serde_json::to_string(&GameView::of(game))?))
    }
}

/// An event in the text/event-stream format.
fn sse(event: &str, id: Option<u64>, data: &str) -> Bytes {
    let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
    Bytes::from(format!("event: {event}\n{id}data: {data}\n\n"))
}

/// The log's rows of `changes`, which made `after` from a game whose log
/// held `first` events, at `at` (Unix milliseconds): numbered from
/// `first`, in the order they happened.
///
/// # Errors
///
/// When an event's data does not encode (never, for these plain values).
pub fn encode(
    changes: &[Change],
    after: &Game,
    first: u64,
    at: i64,
) -> Result<Vec<EventRow>, serde_json::Error> {
    let seat = |event: &'static str, player| (event, json(&GameChange { player, game: GameView::of(after) }));
    let mut rows = Vec::with_capacity(changes.len());
    for change in changes {
        let (kind, data) = match change {
            Change::Moved(m) => ("move", json(&MoveEvent::of(m, Some(after)))),
            Change::Joined { player } => seat("joined", Some(*player)),
            Change::Left { player } => seat("left", Some(*player)),
            Change::Started => seat("started", None),
            Change::Resigned { player } => seat("resigned", Some(*player)),
            Change::TimedOut { player } => seat("timed_out", Some(*player)),
            Change::Abandoned => seat("abandoned", None),
            Change::Postponed { player, .. } => seat("deadline_moved", Some(*player)),
            Change::Over => ("over", json(&GameOverEvent::of(after))),
        };
        let at = match change {
            Change::Moved(m) => m.at,
            _ => at,
        };
        rows.push(EventRow {
            seq: (first + rows.len() as u64) as i64,
            kind: kind.to_string(),
            data: data?,
            at,
        });
    }
    Ok(rows)
}

/// The `rematch` event, number `seq`, of a game replayed by game `id`.
///
/// # Errors
///
/// When it does not encode (never).
pub fn rematch(seq: u64, id: &str, at: i64) -> Result<EventRow, serde_json::Error> {
    let data = json(&RematchEvent { id: id.to_string() })?;
    Ok(EventRow { seq: seq as i64, kind: "rematch".into(), data, at })
}

/// The log of `game`, stored before there were logs, made from what its
/// rows tell: its moves in order (without the game after each, which was
/// not stored), then each seat's resignation or time-out, the
/// abandonment, the end and the rematch. Joins and leaves were not stored
/// and are not invented.
///
/// # Errors
///
/// When an event's data does not encode (never).
pub fn made_from_rows(game: &Game, history: &[HistoryMove]) -> Result<Vec<EventRow>, serde_json::Error> {
    let mut rows: Vec<EventRow> = Vec::with_capacity(history.len() + 4);
    let mut push = |kind: &str, data: String, at: i64| {
        rows.push(EventRow { seq: rows.len() as i64, kind: kind.to_string(), data, at });
    };
    for m in history {
        push("move", json(&MoveEvent::of(m, None))?, m.at);
    }
    let at = game.updated_at();
    for s in game.seats() {
        let kind = match s.resigned {
            Some(Resignation::Resigned) => "resigned",
            Some(Resignation::TimedOut) => "timed_out",
            None => continue,
        };
        push(kind, json(&GameChange { player: Some(s.player), game: GameView::of(game) })?, at);
    }
    if let Some(abandoned) = game.abandoned_at() {
        push("abandoned", json(&GameChange { player: None, game: GameView::of(game) })?, abandoned);
    }
    if game.status() == leapfrog_core::game::GameStatus::Over {
        push("over", json(&GameOverEvent::of(game))?, at);
    }
    if let Some(id) = game.rematch() {
        push("rematch", json(&RematchEvent { id: id.to_string() })?, at);
    }
    Ok(rows)
}

fn json(data: &impl Serialize) -> Result<String, serde_json::Error> {
    serde_json::to_string(data)
}
