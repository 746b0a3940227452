//! What a change tells the accounts it concerns (rule book §15): encoded
//! once, with the change, into the accounts' logs.
//!
//! - `game_started`: to every account seated, when the last seat is taken;
//! - `your_turn`: to the account whose seat is to move, after a move or the
//!   start (the game, the ply, the deadline and the time left);
//! - `game_over`: to every account seated (the result; its rating change);
//! - `challenge`, `challenge_canceled`, `challenge_declined`: to the other
//!   side of a challenge;
//! - `vacation`: to the account whose seat spent a vacation day at its
//!   deadline (`reason` `day`; the day is spent with the event), and when
//!   a vacation begins or ends (`started`, `ended`).

use leapfrog_core::game::{Change, Game, GameStatus, Holder, Postponement};
use leapfrog_store::AccountEvent;
use leapfrog_wire::Outcome;
use leapfrog_wire::account_events::{
    AccountEventData, AccountGameOverEvent, EventRatingChange, GameStartedEvent, StartedPlayer,
    VacationEvent, YourTurnEvent,
};
use leapfrog_wire::challenge::ChallengeView;
use leapfrog_wire::game::rfc3339;
use leapfrog_wire::position::tenth;

/// The log row of `data` for `account` at `at`: the one encoder of an
/// account's events. (Their data are plain values, which always encode.)
pub fn event(account: &str, data: &AccountEventData, at: i64) -> AccountEvent {
    AccountEvent {
        account_id: account.to_string(),
        kind: data.kind().name().to_string(),
        data: data.data_json().unwrap_or_else(|_| "null".to_string()),
        at,
        vacation_day: false,
    }
}

/// The accounts' events of `changes`, which made `after`, at `at`.
pub fn of_changes(changes: &[Change], after: &Game, at: i64) -> Vec<AccountEvent> {
    let mut events = Vec::new();
    let seated = || after.seats().iter().filter_map(|s| s.account.as_deref().map(|a| (s.player, a)));
    if changes.contains(&Change::Started) {
        let players: Vec<StartedPlayer> = after
            .seats()
            .iter()
            .map(|s| StartedPlayer { name: s.name.as_str().to_string(), bot: s.bot })
            .collect();
        for (seat, account) in seated() {
            let data = GameStartedEvent {
                game: after.id().to_string(),
                seat,
                players: players.clone(),
                rated: after.rated(),
                move_time_limit: after.move_limit(),
            };
            events.push(event(account, &AccountEventData::GameStarted(data), at));
        }
    }
    events.extend(your_turn(changes, after, at));
    for change in changes {
        if let Change::Postponed { player, reason: Postponement::VacationDay } = change
            && let Some(account) = after.seats().get(*player).and_then(|s| s.account.as_deref())
        {
            let day = VacationEvent::Day {
                game: after.id().to_string(),
                seat: *player,
                deadline: after.turn_ends_at().map(rfc3339),
            };
            let told = event(account, &AccountEventData::Vacation(day), at);
            events.push(AccountEvent { vacation_day: true, ..told });
        }
    }
    if changes.contains(&Change::Over)
        && let Some(result) = after.result()
    {
        for (seat, account) in seated() {
            let rating = result.ratings.iter().find(|c| c.player == seat).map(|c| EventRatingChange {
                pool: after.pool(),
                before: tenth(c.before.0),
                after: tenth(c.after.0),
                deviation: tenth(c.after.1),
            });
            let data = AccountGameOverEvent {
                game: after.id().to_string(),
                seat,
                result: Outcome::of_game(&result),
                rating,
            };
            events.push(event(account, &AccountEventData::GameOver(data), at));
        }
    }
    events
}

/// `your_turn` for the account whose person's seat is to move, when
/// `changes` (a move, the start) handed it the turn.
fn your_turn(changes: &[Change], after: &Game, at: i64) -> Option<AccountEvent> {
    let turn_changed = changes.iter().any(|c| matches!(c, Change::Moved(_) | Change::Started));
    if !turn_changed || after.status() != GameStatus::Started {
        return None;
    }
    let to_move = after.position().to_move();
    let seat = after.seats().get(to_move)?;
    if seat.holder != Holder::Person || seat.resigned.is_some() {
        return None;
    }
    let deadline = after.turn_ends_at();
    let data = YourTurnEvent {
        game: after.id().to_string(),
        seat: to_move,
        ply: after.position().ply(),
        deadline: deadline.map(rfc3339),
        time_left_ms: deadline.map(|d| (d - at).max(0)),
    };
    Some(event(seat.account.as_deref()?, &AccountEventData::YourTurn(data), at))
}

/// A challenge's event (`challenge`, `challenge_canceled`,
/// `challenge_declined`: `kind` makes it of the view) for `account`.
pub fn of_challenge(
    account: &str,
    kind: fn(ChallengeView) -> AccountEventData,
    challenge: &ChallengeView,
    at: i64,
) -> AccountEvent {
    event(account, &kind(challenge.clone()), at)
}
