//! A new event's terms checked: its name, rules, players, format and
//! start, and a game it would make, made for nothing.

use leapfrog_store::TournamentPlayerRow;

use super::event::Format;
use super::rounds::new_game;
use super::{
    MAX_ARENA_MS, MAX_NAME, MAX_ROUNDS, MIN_ARENA_MS, NewTournament, TournamentError, Tournaments, limit_with,
};

impl Tournaments {
    /// Refuses an event the rules or the server's bounds do not allow.
    pub(super) fn check_new(&self, new: &NewTournament, now: i64) -> Result<(), TournamentError> {
        let name = new.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
            let detail =
                format!("a tournament's name has 1 to {MAX_NAME} characters, none a control character");
            return Err(TournamentError::Invalid("name", detail));
        }
        if !new.rules.player_range().contains(&2) {
            return Err(TournamentError::Invalid(
                "rules",
                "a tournament's games have two seats: these rules do not".into(),
            ));
        }
        let (min, max) = new.players;
        if min < 2 || min > max {
            return Err(TournamentError::Invalid(
                "min_players",
                format!("at least 2 players, and no more than the most: {min} to {max}"),
            ));
        }
        if max > self.limits.max_players {
            let detail = format!("{max} players: an event takes {} at most", self.limits.max_players);
            return Err(limit_with("max_players", self.limits.max_players as u64, detail));
        }
        check_format(new)?;
        if new.starts_at.is_some_and(|at| at <= now) {
            return Err(TournamentError::Invalid("starts_at", "the start time has passed".into()));
        }
        Self::trial_game(new)
    }

    /// A game the event would make, made for nothing: what the rules
    /// refuse of its games (a rated game they do not allow) is refused at
    /// its creation.
    fn trial_game(new: &NewTournament) -> Result<(), TournamentError> {
        let trial = |i: usize| TournamentPlayerRow {
            tournament_id: String::new(),
            account_id: format!("trial-{i}"),
            name: format!("Seat{i}"),
            bot: 0,
            rating: 0,
            joined_at: 0,
            seed: None,
            withdrawn_at: None,
            timeouts: 0,
        };
        let terms = (new.rules.clone(), Some(new.move_limit), new.rated);
        new_game("trial", terms, [&trial(0), &trial(1)])?;
        Ok(())
    }
}

/// Refuses a format's terms that do not go together: a Swiss's rounds, an
/// arena's length (live only), all games at once (a correspondence
/// round-robin's).
fn check_format(new: &NewTournament) -> Result<(), TournamentError> {
    match (new.format, new.rounds) {
        (Format::Swiss, Some(r)) if (1..=MAX_ROUNDS).contains(&r) => {}
        (Format::Swiss, _) => {
            return Err(TournamentError::Invalid("rounds", format!("a Swiss has 1 to {MAX_ROUNDS} rounds")));
        }
        (_, Some(_)) => {
            return Err(TournamentError::Invalid(
                "rounds",
                "only a Swiss says its rounds: a round-robin's follow from its players".into(),
            ));
        }
        (_, None) => {}
    }
    match (new.format, new.duration_ms) {
        (Format::Arena, Some(ms)) if (MIN_ARENA_MS..=MAX_ARENA_MS).contains(&ms) && !new.correspondence => {}
        (Format::Arena, Some(_)) if new.correspondence => {
            return Err(TournamentError::Invalid(
                "days_per_move",
                "an arena is live: give move_time_limit".into(),
            ));
        }
        (Format::Arena, _) => {
            let detail =
                format!("an arena lasts {} to {} minutes", MIN_ARENA_MS / 60_000, MAX_ARENA_MS / 60_000);
            return Err(TournamentError::Invalid("duration_minutes", detail));
        }
        (_, Some(_)) => {
            let detail = "only an arena lasts a fixed time: a round-based event plays its rounds".to_string();
            return Err(TournamentError::Invalid("duration_minutes", detail));
        }
        (_, None) => {}
    }
    if new.all_at_once && (matches!(new.format, Format::Swiss | Format::Arena) || !new.correspondence) {
        let detail = "all games at once is for a round-robin played by correspondence".to_string();
        return Err(TournamentError::Invalid("all_at_once", detail));
    }
    Ok(())
}
