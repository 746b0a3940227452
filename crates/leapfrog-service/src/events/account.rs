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

use serde_json::{Value, json};

use leapfrog_core::game::{Change, Game, GameStatus, Holder, Postponement};
use leapfrog_store::AccountEvent;
use leapfrog_wire::Outcome;
use leapfrog_wire::challenge::ChallengeView;
use leapfrog_wire::game::rfc3339;
use leapfrog_wire::position::tenth;

fn event(account: &str, kind: &str, data: &Value, at: i64) -> AccountEvent {
    AccountEvent {
        account_id: account.to_string(),
        kind: kind.to_string(),
        data: data.to_string(),
        at,
        vacation_day: false,
    }
}

/// The accounts' events of `changes`, which made `after`, at `at`.
pub fn of_changes(changes: &[Change], after: &Game, at: i64) -> Vec<AccountEvent> {
    let mut events = Vec::new();
    let seated = || after.seats().iter().filter_map(|s| s.account.as_deref().map(|a| (s.player, a)));
    if changes.contains(&Change::Started) {
        let players: Vec<Value> =
            after.seats().iter().map(|s| json!({"name": s.name.as_str(), "bot": s.bot})).collect();
        for (seat, account) in seated() {
            let data = json!({"game": after.id(), "seat": seat, "players": players, "rated": after.rated(),
                "move_time_limit": after.move_limit()});
            events.push(event(account, "game_started", &data, at));
        }
    }
    let turn_changed = changes.iter().any(|c| matches!(c, Change::Moved(_) | Change::Started));
    if turn_changed && after.status() == GameStatus::Started {
        let to_move = after.position().to_move();
        if let Some(seat) = after.seats().get(to_move)
            && seat.holder == Holder::Person
            && seat.resigned.is_none()
            && let Some(account) = &seat.account
        {
            let deadline = after.turn_ends_at();
            let data = json!({"game": after.id(), "seat": to_move, "ply": after.position().ply(),
                "deadline": deadline.map(rfc3339), "time_left_ms": deadline.map(|d| (d - at).max(0))});
            events.push(event(account, "your_turn", &data, at));
        }
    }
    for change in changes {
        if let Change::Postponed { player, reason: Postponement::VacationDay } = change
            && let Some(account) = after.seats().get(*player).and_then(|s| s.account.as_deref())
        {
            let data = json!({"reason": "day", "game": after.id(), "seat": player,
                "deadline": after.turn_ends_at().map(rfc3339)});
            events.push(AccountEvent { vacation_day: true, ..event(account, "vacation", &data, at) });
        }
    }
    if changes.contains(&Change::Over)
        && let Some(result) = after.result()
    {
        let outcome = serde_json::to_value(Outcome::of_game(&result)).unwrap_or(Value::Null);
        for (seat, account) in seated() {
            let rating = result.ratings.iter().find(|c| c.player == seat).map(|c| {
                json!({"pool": after.pool(), "before": tenth(c.before.0), "after": tenth(c.after.0),
                    "deviation": tenth(c.after.1)})
            });
            let data = json!({"game": after.id(), "seat": seat, "result": outcome, "rating": rating});
            events.push(event(account, "game_over", &data, at));
        }
    }
    events
}

/// A challenge's event (`challenge`, `challenge_canceled`,
/// `challenge_declined`) for `account`, at `at`.
pub fn of_challenge(account: &str, kind: &str, challenge: &ChallengeView, at: i64) -> AccountEvent {
    event(account, kind, &serde_json::to_value(challenge).unwrap_or(Value::Null), at)
}
