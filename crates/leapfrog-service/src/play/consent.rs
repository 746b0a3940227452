//! Consent (rule book §15): the one check of who may be seated with whom,
//! made wherever a seat is filled — a creation, a lobby join, a rematch,
//! a challenge's acceptance — with the accounts as they stand at that
//! moment (not as they were when a challenge was sent).
//!
//! - A bot plays only the games of challenges: it creates, joins and
//!   plays again no game, and no game other than a challenge's seats one.
//! - A rated game with a bot in it needs every person in it to have
//!   agreed to rated games against bots (`rated_against_bots`).
//! - Every account seated by another's request (the other side of a
//!   rematch) takes the game by its acceptance profile, seen from its own
//!   seat (`bots`/`people`: whether another seat is a bot). One that
//!   offered the game (a challenge's sender, or an earlier acceptance of
//!   it) agreed to its terms then, and is held to whom its profile takes
//!   (bots, people) and its most games at once; the one asking now, to
//!   its most games alone, its ask being its consent; one seated already
//!   (by its own ask, in a game waiting for players) gave its consent.

use super::GameError;
use crate::accounts::Account;
use leapfrog_wire::profile::{Accepts, Reason};

/// Why a seat may not be filled so.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A bot asked for a game other than by a challenge, or a game with a
    /// bot seat was to be made other than by one.
    #[error(
        "a bot plays the games of challenges it sends or accepts, not games it creates, joins or plays again: send a challenge"
    )]
    BotsPlayChallenges,
    /// A person who has not agreed to rated games against bots.
    #[error("{0} has not agreed to rated games against bots (the account's setting rated_against_bots)")]
    OptIn(String),
    /// An account's profile does not take the game.
    #[error("{detail}")]
    Declined {
        /// The key a program acts on.
        reason: Reason,
        /// In words.
        detail: String,
    },
}

/// How an account comes to sit in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Its request fills the seat: its ask is its consent.
    Asking,
    /// Another's request seats it: its profile must take the game.
    Asked,
    /// It offered these terms (a challenge it sent or accepted earlier):
    /// its profile must still take whom it meets, and its most games.
    Offered,
    /// It took its seat before, by its own ask.
    Seated,
}

/// An account about to sit in a game, with its unfinished games.
#[derive(Debug, Clone, Copy)]
pub struct Party<'a> {
    /// The account, as it stands now.
    pub account: &'a Account,
    /// Its unfinished games (before this one).
    pub games: u64,
    /// How it comes to sit there.
    pub role: Role,
}

/// How the game comes to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// A challenge's acceptance: bots welcome.
    Challenge,
    /// A creation, a join or a rematch: people only.
    Other,
}

/// What a challenge asks for, as a profile judges it.
#[derive(Debug, Clone, Copy)]
pub struct Terms<'a> {
    /// The preset whose rules it has exactly (at its size and directions),
    /// or `None` for custom rules.
    pub preset: Option<&'a str>,
    /// The board's rows and columns.
    pub size: (u8, u8),
    /// Seconds per move, if limited.
    pub move_limit: Option<u32>,
    /// Whether it is rated.
    pub rated: bool,
    /// Whether the challenger is a bot.
    pub from_bot: bool,
}

/// Why the profile `accepts` would decline a game on `terms`, if it would;
/// `games` is how many unfinished games the account has.
pub fn refusal(accepts: &Accepts, terms: &Terms<'_>, games: u64) -> Option<Reason> {
    if terms.from_bot && !accepts.bots {
        return Some(Reason::NoBot);
    }
    if !terms.from_bot && !accepts.people {
        return Some(Reason::OnlyBot);
    }
    let preset_ok =
        accepts.presets.is_empty() || terms.preset.is_some_and(|p| accepts.presets.iter().any(|q| q == p));
    let (rows, cols) = terms.size;
    let size_ok = accepts.min_size.is_none_or(|min| rows >= min && cols >= min)
        && accepts.max_size.is_none_or(|max| rows <= max && cols <= max);
    if !preset_ok || !size_ok {
        return Some(Reason::Rules);
    }
    match terms.move_limit {
        None if !accepts.untimed => return Some(Reason::TooSlow),
        Some(limit) if accepts.min_move_time.is_some_and(|min| limit < min) => return Some(Reason::TooFast),
        Some(limit) if accepts.max_move_time.is_some_and(|max| limit > max) => return Some(Reason::TooSlow),
        _ => {}
    }
    if terms.rated && !accepts.rated {
        return Some(Reason::Casual);
    }
    if !terms.rated && !accepts.casual {
        return Some(Reason::Rated);
    }
    if accepts.max_games.is_some_and(|most| games >= u64::from(most)) {
        return Some(Reason::Busy);
    }
    None
}

/// Whether `parties` may sit together in a game of `terms` (whose
/// `from_bot` is ignored: each party's is whether another is a bot) made
/// by `path`.
///
/// # Errors
///
/// The first [`Refused`] met, in the order of the module's rules.
pub fn check(parties: &[Party<'_>], terms: &Terms<'_>, path: Path) -> Result<(), Refused> {
    let is_bot = |p: &Party<'_>| p.account.bot;
    if path == Path::Other && parties.iter().any(is_bot) {
        return Err(Refused::BotsPlayChallenges);
    }
    if terms.rated
        && parties.iter().any(is_bot)
        && let Some(person) = parties.iter().find(|p| !is_bot(p) && !p.account.rated_against_bots)
    {
        return Err(Refused::OptIn(person.account.name.clone()));
    }
    for (i, p) in parties.iter().enumerate() {
        let profile = p.account.takes();
        let from_bot = parties.iter().enumerate().any(|(j, q)| j != i && is_bot(q));
        let busy = profile.max_games.is_some_and(|most| p.games >= u64::from(most));
        let refusal = match p.role {
            Role::Seated => None,
            Role::Asking => busy.then_some(Reason::Busy),
            Role::Asked => refusal(&profile, &Terms { from_bot, ..*terms }, p.games),
            Role::Offered if from_bot && !profile.bots => Some(Reason::NoBot),
            Role::Offered if !from_bot && !profile.people => Some(Reason::OnlyBot),
            Role::Offered => busy.then_some(Reason::Busy),
        };
        if let Some(reason) = refusal {
            let detail = if p.role == Role::Asking {
                format!("{} plays its most games at once", p.account.name)
            } else {
                format!("{} does not take this game: {}", p.account.name, reason.key())
            };
            return Err(Refused::Declined { reason, detail });
        }
    }
    Ok(())
}

/// The terms of a game of `rules`, `move_limit` and `rated`, as
/// acceptance profiles read them (`from_bot` unset).
pub fn terms(rules: &jump_capture::Rules, move_limit: Option<u32>, rated: bool) -> Terms<'_> {
    let spec = rules.spec();
    let preset = leapfrog_core::game::preset_pool(rules).map(|_| spec.name.as_str());
    Terms { preset, size: (spec.rows, spec.cols), move_limit, rated, from_bot: false }
}

impl super::Games {
    /// The one check every path that fills a seat goes through: the
    /// accounts of `seated` (ids, and how each comes to sit) read as they
    /// stand now, each but those seated already held to the server's most
    /// unfinished games (`most`, 0 for none), then [`check`]ed. The
    /// accounts read, in the order of `seated`; one deleted is `None`.
    ///
    /// # Errors
    ///
    /// [`GameError::AccountTooManyGames`], [`GameError::Consent`]; store
    /// failures.
    pub async fn consent(
        &self,
        seated: &[(&str, Role)],
        terms: &Terms<'_>,
        path: Path,
        most: u32,
    ) -> Result<Vec<Option<Account>>, GameError> {
        let mut read = Vec::with_capacity(seated.len());
        for &(id, role) in seated {
            let Some(account) = self.store.account_by_id(id).await?.as_ref().map(Account::from) else {
                read.push(None);
                continue;
            };
            let games = match role {
                Role::Seated => 0,
                Role::Asking | Role::Asked | Role::Offered => {
                    self.store.unfinished_games_of_account(id).await?
                }
            };
            if most > 0 && games >= u64::from(most) {
                return Err(GameError::AccountTooManyGames { account: account.name, limit: most });
            }
            read.push(Some((account, games, role)));
        }
        let parties: Vec<Party<'_>> = read
            .iter()
            .flatten()
            .map(|(account, games, role)| Party { account, games: *games, role: *role })
            .collect();
        check(&parties, terms, path)?;
        Ok(read.into_iter().map(|r| r.map(|(account, _, _)| account)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(name: &str, bot: bool, opted_in: bool, accepts: Option<&str>) -> Account {
        Account {
            id: name.into(),
            name: name.into(),
            created_at: 0,
            bot,
            rated_against_bots: opted_in,
            accepts: accepts.map(|json| serde_json::from_str(json).unwrap()),
        }
    }

    fn terms(rated: bool) -> Terms<'static> {
        Terms { preset: Some("murray"), size: (8, 8), move_limit: Some(60), rated, from_bot: false }
    }

    fn party(account: &Account, asking: bool) -> Party<'_> {
        Party { account, games: 0, role: if asking { Role::Asking } else { Role::Asked } }
    }

    fn challenge() -> Terms<'static> {
        Terms { preset: Some("murray"), size: (8, 8), move_limit: Some(60), rated: true, from_bot: true }
    }

    #[test]
    fn a_profile_declines_with_the_key_of_the_first_thing_it_does_not_take() {
        let any = Accepts::default();
        assert_eq!(refusal(&any, &challenge(), 1000), None, "unset: anything, any number of games");
        let picky = Accepts {
            presets: vec!["konane".into()],
            min_size: Some(6),
            max_size: Some(10),
            min_move_time: Some(30),
            max_move_time: Some(300),
            untimed: false,
            rated: false,
            bots: false,
            max_games: Some(2),
            ..Accepts::default()
        };
        assert_eq!(refusal(&picky, &challenge(), 0), Some(Reason::NoBot));
        let person = Terms { from_bot: false, ..challenge() };
        assert_eq!(refusal(&picky, &person, 0), Some(Reason::Rules), "murray is not konane");
        let konane = Terms { preset: Some("konane"), ..person };
        assert_eq!(refusal(&picky, &Terms { size: (12, 12), ..konane }, 0), Some(Reason::Rules));
        assert_eq!(refusal(&picky, &Terms { move_limit: Some(10), ..konane }, 0), Some(Reason::TooFast));
        assert_eq!(refusal(&picky, &Terms { move_limit: Some(900), ..konane }, 0), Some(Reason::TooSlow));
        assert_eq!(refusal(&picky, &Terms { move_limit: None, ..konane }, 0), Some(Reason::TooSlow));
        assert_eq!(refusal(&picky, &konane, 0), Some(Reason::Casual), "rated refused: send casual");
        let casual = Terms { rated: false, ..konane };
        assert_eq!(refusal(&picky, &casual, 1), None);
        assert_eq!(refusal(&picky, &casual, 2), Some(Reason::Busy));
        let only_rated = Accepts { casual: false, ..Accepts::default() };
        assert_eq!(refusal(&only_rated, &casual, 0), Some(Reason::Rated));
        let only_bots = Accepts { people: false, ..Accepts::default() };
        assert_eq!(refusal(&only_bots, &person, 0), Some(Reason::OnlyBot));
        let custom = Terms { preset: None, ..person };
        assert_eq!(refusal(&picky, &custom, 0), Some(Reason::Rules), "custom rules with presets named");
    }

    #[test]
    fn a_bot_is_seated_only_by_a_challenge() {
        let (bot, carol) = (account("bot", true, false, None), account("carol", false, true, None));
        let both = [party(&bot, true), party(&carol, false)];
        assert_eq!(check(&both, &terms(false), Path::Other), Err(Refused::BotsPlayChallenges));
        assert_eq!(check(&both, &terms(false), Path::Challenge), Ok(()));
    }

    #[test]
    fn a_rated_game_with_a_bot_needs_every_person_to_have_opted_in() {
        let (bot, carol) = (account("bot", true, false, None), account("carol", false, false, None));
        let both = [party(&bot, true), party(&carol, false)];
        assert_eq!(check(&both, &terms(true), Path::Challenge), Err(Refused::OptIn("carol".into())));
        assert_eq!(check(&both, &terms(false), Path::Challenge), Ok(()));
    }

    #[test]
    fn a_challenger_is_held_to_whom_it_takes_not_to_the_terms_it_offered() {
        let profile = r#"{"bots": false, "presets": ["konane"]}"#;
        let (bot, ann) = (account("bot", true, false, None), account("ann", false, false, Some(profile)));
        let person = account("bob", false, false, None);
        let offered = |a| Party { account: a, games: 0, role: Role::Offered };
        // Ann offered an `old` game (not among her presets): Bob takes it, a bot may not.
        assert_eq!(check(&[offered(&ann), party(&person, true)], &terms(false), Path::Challenge), Ok(()));
        let refused = check(&[offered(&ann), party(&bot, true)], &terms(false), Path::Challenge);
        assert!(matches!(refused, Err(Refused::Declined { reason: Reason::NoBot, .. })), "{refused:?}");
    }

    #[test]
    fn the_others_profiles_are_read_from_their_seats_and_the_asker_is_held_to_its_most_games() {
        let no_bots = r#"{"bots": false}"#;
        let (bot, carol) = (account("bot", true, false, None), account("carol", false, true, Some(no_bots)));
        let refused = check(&[party(&bot, true), party(&carol, false)], &terms(true), Path::Challenge);
        assert!(matches!(refused, Err(Refused::Declined { reason: Reason::NoBot, .. })), "{refused:?}");
        // Carol's own ask is her consent: her profile filters what others ask of her.
        assert_eq!(check(&[party(&bot, false), party(&carol, true)], &terms(true), Path::Challenge), Ok(()));
        let busy = account("dan", false, false, Some(r#"{"max_games": 1}"#));
        let dan = Party { account: &busy, games: 1, role: Role::Asking };
        let ann = account("ann", false, false, None);
        let refused = check(&[dan, party(&ann, false)], &terms(false), Path::Other);
        assert!(matches!(refused, Err(Refused::Declined { reason: Reason::Busy, .. })), "{refused:?}");
        // One seated already by its own ask is not asked again.
        let seated = Party { account: &busy, games: 5, role: Role::Seated };
        assert_eq!(check(&[seated, party(&ann, true)], &terms(false), Path::Other), Ok(()));
    }
}
