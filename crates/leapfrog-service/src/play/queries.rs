//! Reading games from the store: one, a page of the listing, a history, a
//! past position. Free functions of the store, shared by the games service
//! (`crate::play`) and the event hub (`crate::events`), which both read
//! games and neither of which may depend on the other.

use jump_capture as jc;

use crate::play::GameError;
use leapfrog_core::game::{Credential, Game, GameCursor, HistoryMove};
use leapfrog_store::{AccountGames, GameRow, Store};
use leapfrog_store::{GameRows, MoveRows};

/// The game with this id.
///
/// # Errors
///
/// [`GameError::NotFound`]; a damaged row; store failures.
pub async fn load(store: &Store, id: &str) -> Result<Game, GameError> {
    let row = store.game(id).await?.ok_or_else(|| GameError::NotFound(id.to_string()))?;
    logged(store, Game::from_row(row)?).await
}

/// `game` with its event log: a game stored before there were logs gets
/// one made from its rows, once (the first reader to store it wins; the
/// others read the game again).
async fn logged(store: &Store, game: Game) -> Result<Game, GameError> {
    if game.events().is_some() {
        return Ok(game);
    }
    let moves = history(store, &game, 0).await?;
    let events = crate::events::made_from_rows(&game, &moves).map_err(leapfrog_store::StoreError::Encode)?;
    let n = events.len() as u64;
    if store.start_log(game.id(), events).await? {
        return Ok(game.with_events(n));
    }
    let row = store.game(game.id()).await?.ok_or_else(|| GameError::NotFound(game.id().to_string()))?;
    Ok(Game::from_row(row)?)
}

/// Game `id` and the seat `credential` acts for in it, if any: the seat
/// of its token, or of its account (the one to move, when the account
/// holds several).
///
/// # Errors
///
/// [`GameError::NotFound`]; a damaged row; store failures.
pub async fn with_seat(
    store: &Store,
    id: &str,
    credential: &Credential,
) -> Result<(Game, Option<usize>), GameError> {
    match credential {
        Credential::Seat(token) => {
            let (row, seat) = store
                .game_and_seat(id, token.hash().as_str())
                .await?
                .ok_or_else(|| GameError::NotFound(id.to_string()))?;
            let seat = seat
                .map(|s| usize::try_from(s).map_err(|e| GameError::corrupt(id, "seat", e)))
                .transpose()?;
            Ok((logged(store, Game::from_row(row)?).await?, seat))
        }
        Credential::Account(account) => {
            let game = load(store, id).await?;
            let held: Vec<usize> = game
                .seats()
                .iter()
                .filter(|s| s.account.as_ref() == Some(account))
                .map(|s| s.player)
                .collect();
            let to_move = game.position().to_move();
            let seat = held.iter().copied().find(|&p| p == to_move).or_else(|| held.first().copied());
            Ok((game, seat))
        }
    }
}

/// A page of up to `limit` games, newest first, only those of `status` if
/// given (a stored status, or [`leapfrog_store::WAITING`]: waiting with
/// public seats), after `after`; and the cursor of the next page, if there
/// is one.
///
/// # Errors
///
/// A damaged row; store failures.
pub async fn list(
    store: &Store,
    status: Option<Listed>,
    limit: usize,
    after: Option<&GameCursor>,
) -> Result<(Vec<Game>, Option<GameCursor>), GameError> {
    let after = after.map(|c| (c.created_at, c.id.clone()));
    page(store.list_games(status.map(Listed::stored), limit as i64 + 1, after).await?, limit)
}

/// The games of `rows` (read one past `limit`) and the cursor of the next
/// page, if there is one.
fn page(mut rows: Vec<GameRow>, limit: usize) -> Result<(Vec<Game>, Option<GameCursor>), GameError> {
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next =
        rows.last().filter(|_| more).map(|r| GameCursor { created_at: r.created_at, id: r.id.clone() });
    let games = rows.into_iter().map(Game::from_row).collect::<Result<_, _>>()?;
    Ok((games, next))
}

/// A page of up to `limit` games `account_id` holds a seat of, newest
/// first, filtered, after `after`; and the cursor of the next page.
///
/// # Errors
///
/// A damaged row; store failures.
pub async fn account_games(
    store: &Store,
    account_id: &str,
    filter: &GameFilter<'_>,
    limit: usize,
    after: Option<&GameCursor>,
) -> Result<(Vec<Game>, Option<GameCursor>), GameError> {
    let filters = AccountGames {
        status: filter.status.map(Listed::stored),
        pool: filter.pool,
        rated: filter.rated,
        after: after.map(|c| (c.created_at, c.id.as_str())),
    };
    page(store.account_games(account_id, &filters, limit as i64 + 1).await?, limit)
}

/// Which of an account's games a listing shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameFilter<'a> {
    /// Only games of this status.
    pub status: Option<Listed>,
    /// Only games of this pool (`murray/orthogonal`).
    pub pool: Option<&'a str>,
    /// Only rated games, or only casual ones.
    pub rated: Option<bool>,
}

/// A game's status as listings filter it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    /// Waiting for players.
    Waiting,
    /// In its opening.
    Opening,
    /// Under way.
    Playing,
    /// Over.
    Over,
}

impl Listed {
    /// The status as the store keeps it.
    fn stored(self) -> &'static str {
        match self {
            Listed::Waiting => leapfrog_store::WAITING,
            Listed::Opening => jump_capture::Phase::Opening.name(),
            Listed::Playing => jump_capture::Phase::Playing.name(),
            Listed::Over => jump_capture::Phase::Over.name(),
        }
    }
}

/// The moves of `game` from ply `from` on, in order, each with the kinds
/// it took (moves stored before kinds were are replayed for them).
///
/// # Errors
///
/// A damaged row; store failures.
pub async fn history(store: &Store, game: &Game, from: u32) -> Result<Vec<HistoryMove>, GameError> {
    let read = |from: u32| async move {
        let rows = store.moves(game.id(), i64::from(from)).await?;
        let moves = rows.into_iter().map(|m| HistoryMove::from_row(game.id(), m));
        Ok::<_, GameError>(moves.collect::<Result<Vec<_>, _>>()?)
    };
    let moves = read(from).await?;
    if !moves.iter().any(HistoryMove::lacks_kinds) {
        return Ok(moves);
    }
    let mut all = if from == 0 { moves } else { read(0).await? };
    game.fill_kinds(&mut all)?;
    Ok(all.split_off((from as usize).min(all.len())))
}

/// The position of `game` after its first `ply` moves (0: the deal),
/// replayed from the rules, the seed and the history.
///
/// # Errors
///
/// [`GameError::NoSuchPly`] past the game's ply; a damaged row.
pub async fn position_at(store: &Store, game: &Game, ply: u32) -> Result<jc::Position, GameError> {
    let now = game.position().ply();
    if ply > now {
        return Err(GameError::NoSuchPly { id: game.id().to_string(), ply: now, asked: ply });
    }
    let rows = store.moves(game.id(), 0).await?;
    let moves = rows
        .into_iter()
        .take(ply as usize)
        .map(|m| HistoryMove::from_row(game.id(), m))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(game.replay(&moves)?.0)
}
