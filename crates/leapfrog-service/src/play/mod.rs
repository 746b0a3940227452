//! The games service: the one place a game changes. Every change — a
//! creation, a move (a person's or the computer's), a join, a leave, a
//! resignation, a time-out, an abandonment, a rematch — goes the same way:
//! load the game, apply a command to it (the pure core, [`Game::apply`]),
//! encode its changes once as events of the game's log
//! ([`crate::events::encode`]), commit the new game and its events
//! against the version read (one retry policy, one idempotency path), and
//! tell those who must hear of it: the event hub (and through PostgreSQL
//! every process's hub) and the computer, when it is to move. A rated
//! game's end writes its players' new ratings in the same transaction
//! (rule book §13).
//!
//! What drives it lives here too: `queries` (the reads it shares with
//! the streams' first load), `move_clock` (the move time limit) and `computer`
//! (the computer's seats, whose turns are claimed through this service).
//! Handlers, the clock, the computer and the sweep call this; nothing else
//! writes a game.
//!
//! Its parts beside those: `moving` (a move, and the idempotency of its
//! key), `seats` (joins, leaves, resignations, time-outs), `rematch`,
//! `rated` (a rated game's end), `conditional` (a seat's kept lines and
//! their replies), `consent` (the one check of who sits with whom), `hot`
//! (the games this process changed lately), `upkeep` (the sweep), `error`.

pub mod computer;
pub mod conditional;
pub mod consent;
mod error;
mod hot;
pub mod move_clock;
mod moving;
pub mod queries;
mod rated;
mod rematch;
mod seats;
mod upkeep;

use std::sync::Arc;

use jump_capture as jc;
use rand::TryRng;
use tokio::sync::mpsc;

use crate::play::queries as read;
pub use crate::play::queries::{history, list, load, position_at};

use crate::events::Hub;
pub use error::GameError;
pub use leapfrog_core::game::Created;
use leapfrog_core::game::{
    Away, Change, Command, Game, GameCursor, HistoryMove, Holder, NewGame, NewSeat, SeatToken, Visibility,
};
use leapfrog_store::{Commit, KeyRecord, SeatRow, Store};
use leapfrog_store::{EventRow, StoreError};
use leapfrog_store::{GameRows, MoveRows};
pub use upkeep::{SWEEP_GAMES, SweepReport};

/// Tries of a change that lost a race to another change of the game (not
/// to a change of its own seat). Moves are never tried again: the client
/// chose theirs against the game it saw.
const TRIES: usize = 8;

pub use leapfrog_process::now_ms;

/// The ids of games the computer may be to move in, as the service tells
/// them (see [`crate::play::computer::Computer::listen`]).
pub type Wakes = mpsc::UnboundedReceiver<String>;

/// The games service.
#[derive(Debug, Clone)]
pub struct Games {
    store: Store,
    hub: Hub,
    wake: mpsc::UnboundedSender<String>,
    /// Whom it asks of an account's absence (rule book §11).
    absences: Arc<dyn Absences>,
    /// The games this process changed lately, as stored (`hot`).
    hot: Arc<hot::Hot>,
}

/// An account's absence, being read.
pub type AwayFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Away, GameError>> + Send + 'a>>;

/// What the games service asks of an account's absence (rule book §11),
/// answered by another concept (the vacations).
pub trait Absences: std::fmt::Debug + Send + Sync {
    /// Account `account`'s absence at `at` (Unix milliseconds).
    fn away<'a>(&'a self, account: &'a str, at: i64) -> AwayFuture<'a>;
}

/// Nobody is ever away, and no seat has a vacation day.
#[derive(Debug)]
struct NobodyAway;

impl Absences for NobodyAway {
    fn away<'a>(&'a self, _: &'a str, _: i64) -> AwayFuture<'a> {
        Box::pin(std::future::ready(Ok(Away::default())))
    }
}

/// A new game's rows and its start's account events ([`Games::rows_of_new`]).
#[derive(Debug, Clone)]
pub struct NewRows {
    /// The game's row.
    pub game: leapfrog_store::GameRow,
    /// Its seats' rows.
    pub seats: Vec<SeatRow>,
    /// What its accounts are told.
    pub events: Vec<leapfrog_store::AccountEvent>,
}

/// Who creates a game, and how many unfinished games they may have.
#[derive(Debug, Clone)]
pub struct Creator {
    /// The client's address as the server sees it (or empty).
    pub client: String,
    /// Most games this client may have that are neither over nor
    /// abandoned; 0 for no limit.
    pub max_unfinished: u32,
    /// Most of those where the computer holds every seat; 0 for no limit.
    pub max_computer_games: u32,
}

/// Which open seat a joiner asks for.
#[derive(Debug, Clone, Default)]
pub struct SeatChoice {
    /// This seat; otherwise the first open one the joiner may take.
    pub player: Option<usize>,
    /// The invitation of a private seat.
    pub invitation: Option<SeatToken>,
    /// The joiner's account, when they join with its token.
    pub account: Option<leapfrog_core::game::SeatAccount>,
}

/// A seat just joined, or claimed in a rematch.
#[derive(Debug)]
pub struct Seated {
    /// The game.
    pub game: Game,
    /// The seat.
    pub player: usize,
    /// Its new token.
    pub token: SeatToken,
    /// Whether this call created the game (a rematch's first ask).
    pub created: bool,
}

impl Games {
    /// The service of `store`, telling `hub`; and the wake-ups of the
    /// computer, for it to listen to.
    pub fn new(store: Store, hub: Hub) -> (Games, Wakes) {
        let (wake, wakes) = mpsc::unbounded_channel();
        let hot = Arc::new(hot::Hot::default());
        (Games { store, hub, wake, absences: Arc::new(NobodyAway), hot }, wakes)
    }

    /// The service asking `absences` of an account's absence (the
    /// vacations' book); without, nobody is ever away and no seat has a
    /// vacation day.
    #[must_use]
    pub fn with_absences(mut self, absences: Arc<dyn Absences>) -> Games {
        self.absences = absences;
        self
    }

    /// Applies to game `id` the command `decide` makes of it as it stands
    /// (none: nothing to do) at `now`: read and decided again when another
    /// change came first, a few times.
    ///
    /// # Errors
    ///
    /// What the core refuses of the command; store failures.
    pub async fn change_with(
        &self,
        id: &str,
        now: i64,
        decide: impl Fn(&Game) -> Option<Command>,
    ) -> Result<(), GameError> {
        for _ in 0..TRIES {
            let game = self.load(id).await?;
            let Some(command) = decide(&game) else { return Ok(()) };
            let (next, changes) = game.apply(command, now)?;
            if changes.is_empty() || self.commit(&game, next, &changes, None, None).await?.is_some() {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The absence of the account to move in `game` at `at`, asked only of
    /// a long game's account seat (`None` otherwise).
    async fn away_to_move(&self, game: &Game, at: i64) -> Result<Option<Away>, GameError> {
        match game.account_to_move() {
            Some(account) if game.long() => Ok(Some(self.absences.away(account, at).await?)),
            _ => Ok(None),
        }
    }

    /// The store, for reading.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Game `id`.
    ///
    /// # Errors
    ///
    /// [`GameError::NotFound`]; a damaged row; store failures.
    pub async fn load(&self, id: &str) -> Result<Game, GameError> {
        read::load(&self.store, id).await
    }

    /// A page of the listing: see [`list`].
    ///
    /// # Errors
    ///
    /// A damaged row; store failures.
    pub async fn list(
        &self,
        status: Option<read::Listed>,
        limit: usize,
        after: Option<&GameCursor>,
    ) -> Result<(Vec<Game>, Option<GameCursor>), GameError> {
        read::list(&self.store, status, limit, after).await
    }

    /// A page of account `account_id`'s games: see [`read::account_games`].
    ///
    /// # Errors
    ///
    /// A damaged row; store failures.
    pub async fn account_games(
        &self,
        account_id: &str,
        filter: &read::GameFilter<'_>,
        limit: usize,
        after: Option<&GameCursor>,
    ) -> Result<(Vec<Game>, Option<GameCursor>), GameError> {
        read::account_games(&self.store, account_id, filter, limit, after).await
    }

    /// The moves of `game` from ply `from` on: see [`history`].
    ///
    /// # Errors
    ///
    /// A damaged row; store failures.
    pub async fn history(&self, game: &Game, from: u32) -> Result<Vec<HistoryMove>, GameError> {
        read::history(&self.store, game, from).await
    }

    /// The position of `game` after `ply` moves: see [`position_at`].
    ///
    /// # Errors
    ///
    /// [`GameError::NoSuchPly`]; a damaged row; store failures.
    pub async fn position_at(&self, game: &Game, ply: u32) -> Result<jc::Position, GameError> {
        read::position_at(&self.store, game, ply).await
    }

    /// Deals a new game of `seats` in turn order under `rules`, with an
    /// optional move time limit in seconds, and stores it; returns it with
    /// one new token per person's seat and one invitation per private open
    /// seat (shown to the creator once, stored only as hashes).
    ///
    /// # Errors
    ///
    /// What [`Game::new`] refuses; [`GameError::TooManyGames`] or
    /// [`GameError::TooManyComputerGames`] at the creator's caps (which
    /// concurrent creations may pass by a few: they stop floods, they are
    /// not a ledger); store failures.
    pub async fn create(
        &self,
        rules: Arc<jc::Rules>,
        seats: Vec<NewSeat>,
        seed: Option<u64>,
        move_limit: Option<u32>,
        rated: bool,
        creator: &Creator,
    ) -> Result<(Game, Created), GameError> {
        let computer_only = seats.iter().all(|s| matches!(s, NewSeat::Computer(..)));
        let new = NewGame {
            id: uuid::Uuid::new_v4().to_string(),
            max_moves: leapfrog_wire::budget::MOVES,
            rules,
            seats,
            seed: seed.map_or_else(random_seed, Ok)?,
            seed_chosen: seed.is_some(),
            move_limit,
            client: creator.client.clone(),
            rated,
        };
        let game = Game::new(new, now_ms())?;
        self.check_caps(creator, computer_only).await?;
        // The one check of who sits with whom; an account's unfinished games are capped
        // whatever network made them (challenges' too). The creator's account asks.
        let seated: Vec<(&str, consent::Role)> = game
            .seats()
            .iter()
            .filter_map(|s| s.account.as_deref())
            .map(|a| (a, consent::Role::Asking))
            .collect();
        if !seated.is_empty() {
            let terms = consent::terms(game.rules(), game.move_limit(), game.rated());
            self.consent(&seated, &terms, consent::Path::Other, creator.max_unfinished).await?;
        }
        let (created, rows) = seat_rows(&game)?;
        self.store.insert_game(&game.to_row()?, &rows).await?;
        self.tell(&game);
        Ok((game, created))
    }

    /// Whether `creator` may make one more game.
    pub async fn check_caps(&self, creator: &Creator, computer_only: bool) -> Result<(), GameError> {
        if creator.max_unfinished > 0
            && self.store.unfinished_games_of(&creator.client).await? >= i64::from(creator.max_unfinished)
        {
            return Err(GameError::TooManyGames { limit: creator.max_unfinished });
        }
        if computer_only
            && creator.max_computer_games > 0
            && self.store.unfinished_computer_games_of(&creator.client).await?
                >= i64::from(creator.max_computer_games)
        {
            return Err(GameError::TooManyComputerGames { limit: creator.max_computer_games });
        }
        Ok(())
    }

    /// Commits `next`, made from `before` by `changes`, if the stored game
    /// is still at `before`'s version — a move with its row and key
    /// record, any other change with the seat row it changed; a rated
    /// game's end with its players' new ratings — and tells of it once
    /// committed. Answers the game as committed, or `None` when another
    /// change came first.
    async fn commit(
        &self,
        before: &Game,
        mut next: Game,
        changes: &[Change],
        seat: Option<&SeatRow>,
        key: Option<&KeyRecord>,
    ) -> Result<Option<Game>, GameError> {
        let moved = changes
            .iter()
            .find_map(|c| match c {
                Change::Moved(m) => Some(m.to_row()),
                _ => None,
            })
            .transpose()?;
        // A turn handed to an account that is away counts from its return.
        if let Some(account) = next.turn_begun_from(before).map(str::to_string) {
            let away = self.absences.away(&account, next.turn_at()).await?;
            next = next.turn_counted_from_return(away);
        }
        let first = before.events().ok_or_else(|| GameError::corrupt(before.id(), "events", "no log"))?;
        let next = next.with_events(first + changes.len() as u64);
        // An aborted game is over unrated: it ends as a casual one does.
        let committed = if next.rated() && !next.aborted() && changes.contains(&Change::Over) {
            self.commit_rated_end(before, next, (first, changes), moved.as_ref(), seat, key).await?
        } else {
            let row = next.to_changed_row()?;
            let at = changed_at(&next, changes);
            let events = encode(changes, &next, first, at)?;
            let accounts = crate::events::account::of_changes(changes, &next, at);
            let commit = match &moved {
                Some(m) => self.store.commit_move(&row, before.version(), m, key, &events, &accounts).await?,
                None => self.store.update_game(&row, before.version(), seat, &events, &accounts).await?,
            };
            if commit == Commit::Conflict {
                return Ok(None);
            }
            self.tell(&next);
            self.tell_accounts(&accounts);
            Some(next)
        };
        if let Some(next) = &committed {
            self.hot.stored(next, changes);
        }
        if let (Some(_), Some(m)) = (&committed, &moved) {
            let by = if m.computer == 1 { "computer" } else { "person" };
            metrics::counter!(leapfrog_process::meter::MOVES, "by" => by).increment(1);
        }
        Ok(committed)
    }

    /// The rows that make `game`, new, when written — its row, its seats'
    /// (keeping only their secrets' hashes) — and the accounts' events of
    /// its start: for a game made in another concept's transaction (a
    /// challenge's acceptance), told of by [`Games::tell`] once written.
    ///
    /// # Errors
    ///
    /// What does not encode; no randomness for the secrets.
    pub fn rows_of_new(&self, game: &Game) -> Result<NewRows, GameError> {
        Ok(NewRows {
            game: game.to_row()?,
            seats: seat_rows(game)?.1,
            events: crate::events::account::of_changes(&[Change::Started], game, game.created_at()),
        })
    }

    /// Tells the hub of the accounts whose logs `events` grew.
    pub fn tell_accounts(&self, events: &[leapfrog_store::AccountEvent]) {
        for e in events {
            self.hub.notify(&format!("{}{}", leapfrog_store::ACCOUNT_KEY, e.account_id));
        }
    }

    /// Tells of a committed change of `game`: its followers, and the
    /// computer if it is to move.
    pub fn tell(&self, game: &Game) {
        self.hub.notify(game.id());
        if game.computer_to_move().is_some() {
            // Closed only when the computer has stopped: nobody to tell.
            let _ = self.wake.send(game.id().to_string());
        }
    }
}

pub(crate) use seats::no_token;

/// New secrets for a new game's seats — a token per person's seat, an
/// invitation per private open seat — and the seats' rows, which keep
/// only their hashes.
fn seat_rows(game: &Game) -> Result<(Created, Vec<SeatRow>), GameError> {
    let mut created = Created::default();
    for seat in game.seats() {
        match seat.holder {
            Holder::Person => created.tokens.push((seat.player, crate::play::new_token()?)),
            Holder::Open(Visibility::Private) => {
                created.invitations.push((seat.player, crate::play::new_token()?));
            }
            Holder::Open(Visibility::Public) | Holder::Computer(_) => {}
        }
    }
    let secret = |list: &[(usize, SeatToken)], player| {
        list.iter().find(|(p, _)| *p == player).map(|(_, t)| t.hash().as_str().to_string())
    };
    let rows = game
        .seats()
        .iter()
        .map(|seat| SeatRow {
            player: seat.player as i64,
            name: seat.name.as_str().to_string(),
            token_hash: secret(&created.tokens, seat.player).unwrap_or_else(|| no_token(game, seat.player)),
            invite_hash: secret(&created.invitations, seat.player),
            claim_hash: None,
            account_id: seat.account.clone(),
        })
        .collect();
    Ok((created, rows))
}

/// When `changes` were made: the game's last change, or its abandonment
/// (which is not play: the game's `updated_at` stays).
fn changed_at(next: &Game, changes: &[Change]) -> i64 {
    match next.abandoned_at() {
        Some(at) if changes.contains(&Change::Abandoned) => at,
        _ => next.updated_at(),
    }
}

/// The log's rows of `changes` (see [`crate::events::encode`]).
fn encode(changes: &[Change], after: &Game, first: u64, at: i64) -> Result<Vec<EventRow>, GameError> {
    Ok(crate::events::encode(changes, after, first, at).map_err(StoreError::Encode)?)
}

/// A seed for a deal, from the operating system's generator.
pub(crate) fn random_seed() -> Result<u64, GameError> {
    Ok(rand::rngs::SysRng.try_next_u64()?)
}

/// A new seat token or invitation: 32 bytes from the operating system's
/// generator.
pub(crate) fn new_token() -> Result<SeatToken, GameError> {
    let mut bytes = [0u8; 32];
    rand::rngs::SysRng.try_fill_bytes(&mut bytes)?;
    Ok(SeatToken::of_bytes(&bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_random_and_64_hex_digits() {
        let (a, b) = (super::new_token().unwrap(), super::new_token().unwrap());
        assert_eq!(a.reveal().len(), 64);
        assert!(a.reveal().chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a.hash(), b.hash());
    }
}
