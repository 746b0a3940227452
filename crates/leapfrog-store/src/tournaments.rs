//! The `tournaments`, `tournament_players` and `tournament_games` tables
//! (rule book §17): an event by its id, the events listed newest first,
//! its players and games; and one way to change an event — its new row,
//! written only if it is still at the version read, with every player,
//! game and account event the change makes, in one transaction. So of
//! two processes pairing the same round, one writes and the other reads
//! the event again.

use std::sync::LazyLock;

use super::account_events::AccountEvent;
use super::rows::{GameRow, SeatRow, TournamentGameRow, TournamentPlayerRow, TournamentRow};
use super::sql::{Arg, Execute, Statement};
use super::{Store, StoreError, is_unique_violation};

/// One change of an event, written whole or not at all.
#[derive(Debug, Clone, Default)]
pub struct TournamentChange {
    /// The event after it (its `version` the next).
    pub tournament: Option<TournamentRow>,
    /// The version it was read at.
    pub old_version: i64,
    /// Players joining.
    pub joining: Vec<TournamentPlayerRow>,
    /// Players changed: their seed, withdrawal, time-outs.
    pub players: Vec<TournamentPlayerRow>,
    /// Players leaving before the start.
    pub leaving: Vec<String>,
    /// Games (and byes) paired.
    pub paired: Vec<TournamentGameRow>,
    /// Games whose outcome is decided: (round, board, outcome, forfeit).
    pub decided: Vec<(i64, i64, String, i64)>,
    /// The games made for the pairings, with their seats.
    pub games: Vec<(GameRow, Vec<SeatRow>)>,
    /// The accounts' events of the change.
    pub events: Vec<AccountEvent>,
}

/// How a change of an event went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TournamentWrite {
    /// Written.
    Done,
    /// The event changed since it was read: nothing written.
    Moved,
    /// A player joining is in it already: nothing written.
    AlreadyIn,
}

const COLUMNS: &str = "id, creator_id, name, format, rules, rated, rounds, all_at_once, move_limit, correspondence, \
                       duration_ms, min_players, max_players, starts_at, bots, invited, status, round, version, \
                       created_at, started_at, ended_at";
const PLAYER_COLUMNS: &str =
    "tournament_id, account_id, name, bot, rating, joined_at, seed, withdrawn_at, timeouts";
const GAME_COLUMNS: &str = "tournament_id, round, board, game_id, first_id, second_id, outcome, forfeit";

static INSERT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "INSERT INTO tournaments ({COLUMNS}) VALUES (:id, :creator_id, :name, :format, :rules, :rated, :rounds, \
         :all_at_once, :move_limit, :correspondence, :duration_ms, :min_players, :max_players, :starts_at, :bots, \
         :invited, :status, :round, :version, :created_at, :started_at, :ended_at)"
    ))
});
/// An event's change, only of the row read (its version).
static UPDATE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE tournaments SET status = :status, round = :round, version = :version, started_at = :started_at, \
         ended_at = :ended_at WHERE id = :id AND version = :old_version",
    )
});
static BY_ID: LazyLock<Statement> =
    LazyLock::new(|| Statement::new(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = :id")));
static LISTED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "SELECT {COLUMNS} FROM tournaments WHERE (:status = '' OR status = :status) \
         AND (created_at < :before_at OR (created_at = :before_at AND id < :before_id)) \
         ORDER BY created_at DESC, id DESC LIMIT :limit"
    ))
});
/// Events with something to do: open ones due to start, running ones with
/// a game over but not yet counted, or with every game counted (a round to
/// pair, or the end), or an arena whose time is up.
static DUE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT t.id FROM tournaments t WHERE ((t.status = 'open' AND t.starts_at <= :now) \
         OR (t.status = 'running' AND (EXISTS (SELECT 1 FROM tournament_games tg JOIN games g ON g.id = tg.game_id \
           WHERE tg.tournament_id = t.id AND tg.outcome IS NULL AND g.status = 'over') \
         OR NOT EXISTS (SELECT 1 FROM tournament_games tg WHERE tg.tournament_id = t.id AND tg.outcome IS NULL) \
         OR (t.format = 'arena' AND t.started_at + t.duration_ms <= :now)))) \
         AND t.id > :after ORDER BY t.id LIMIT :limit",
    )
});
/// An event's games that are over but not yet counted.
static ENDED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT tg.game_id FROM tournament_games tg JOIN games g ON g.id = tg.game_id \
         WHERE tg.tournament_id = :id AND tg.outcome IS NULL AND g.status = 'over' ORDER BY tg.round, tg.board",
    )
});
static RUNNING_OF_CREATOR: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT COUNT(*) FROM tournaments WHERE creator_id = :creator AND status IN ('open', 'running')",
    )
});
static RUNNING_ALL: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("SELECT COUNT(*) FROM tournaments WHERE status IN ('open', 'running')"));
static PLAYERS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "SELECT {PLAYER_COLUMNS} FROM tournament_players WHERE tournament_id = :id ORDER BY joined_at, account_id"
    ))
});
static INSERT_PLAYER: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "INSERT INTO tournament_players ({PLAYER_COLUMNS}) VALUES (:tournament_id, :account_id, :name, :bot, \
         :rating, :joined_at, :seed, :withdrawn_at, :timeouts)"
    ))
});
static UPDATE_PLAYER: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE tournament_players SET seed = :seed, withdrawn_at = :withdrawn_at, timeouts = :timeouts \
         WHERE tournament_id = :tournament_id AND account_id = :account_id",
    )
});
static DELETE_PLAYER: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("DELETE FROM tournament_players WHERE tournament_id = :id AND account_id = :account_id")
});
static GAMES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "SELECT {GAME_COLUMNS} FROM tournament_games WHERE tournament_id = :id \
         AND (round > :after_round OR (round = :after_round AND board > :after_board)) \
         AND (:only_round = 0 OR round = :only_round) ORDER BY round, board LIMIT :limit"
    ))
});
static INSERT_GAME: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "INSERT INTO tournament_games ({GAME_COLUMNS}) VALUES (:tournament_id, :round, :board, :game_id, \
         :first_id, :second_id, :outcome, :forfeit)"
    ))
});
static DECIDE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE tournament_games SET outcome = :outcome, forfeit = :forfeit \
         WHERE tournament_id = :id AND round = :round AND board = :board",
    )
});
/// The event a game belongs to, if any.
static OF_GAME: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("SELECT tournament_id FROM tournament_games WHERE game_id = :game"));

impl Store {
    /// Stores a new event, with its accounts' events.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn insert_tournament(
        &self,
        t: &TournamentRow,
        events: &[AccountEvent],
    ) -> Result<(), StoreError> {
        let (t, events) = (t.clone(), events.to_vec());
        self.transaction(move |s, tx| {
            Box::pin(async move {
                tx.execute(&INSERT, &tournament_args(&t)).await?;
                Self::append_account_events(s.backend, tx, &events).await
            })
        })
        .await
    }

    /// Event `id`, if there is one.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        self.row(&BY_ID, &[("id", id.into())]).await
    }

    /// Events newest first (of `status` only, if given), at most `limit`,
    /// before the one made at `before` (time and id).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournaments(
        &self,
        status: Option<&str>,
        before: Option<(i64, &str)>,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let (before_at, before_id) = before.unwrap_or((i64::MAX, "~"));
        let args = [
            ("status", status.unwrap_or("").into()),
            ("before_at", before_at.into()),
            ("before_id", before_id.into()),
            ("limit", limit.into()),
        ];
        self.rows(&LISTED, &args).await
    }

    /// The ids of the events with something to do at `now`, at most
    /// `limit`, in order of id after `after`: open ones whose start time
    /// has come; running ones with a game over but not counted, or with
    /// every game counted; arenas whose time is up.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournaments_due(
        &self,
        now: i64,
        after: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let args = [("now", now.into()), ("after", after.into()), ("limit", limit.into())];
        let ids: Vec<(String,)> = self.rows(&DUE, &args).await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// The ids of event `id`'s games that are over but not yet counted.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournament_games_ended(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let ids: Vec<(String,)> = self.rows(&ENDED, &[("id", id.into())]).await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// Events not over nor canceled: of `creator`, and of everyone.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournaments_under_way(&self, creator: &str) -> Result<(u64, u64), StoreError> {
        let (mine,): (i64,) = self.one(&RUNNING_OF_CREATOR, &[("creator", creator.into())]).await?;
        let (all,): (i64,) = self.one(&RUNNING_ALL, &[]).await?;
        Ok((u64::try_from(mine).unwrap_or(0), u64::try_from(all).unwrap_or(0)))
    }

    /// Event `id`'s players, in the order they joined.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournament_players(&self, id: &str) -> Result<Vec<TournamentPlayerRow>, StoreError> {
        self.rows(&PLAYERS, &[("id", id.into())]).await
    }

    /// Event `id`'s games in order of round and board, at most `limit`,
    /// after board `after` (round, board); of round `only_round` alone, if
    /// given.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournament_games(
        &self,
        id: &str,
        after: (i64, i64),
        limit: i64,
        only_round: Option<i64>,
    ) -> Result<Vec<TournamentGameRow>, StoreError> {
        let args = [
            ("id", id.into()),
            ("after_round", after.0.into()),
            ("after_board", after.1.into()),
            ("limit", limit.into()),
            ("only_round", only_round.unwrap_or(0).into()),
        ];
        self.rows(&GAMES, &args).await
    }

    /// The event game `game_id` belongs to, if any.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn tournament_of_game(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = self.row(&OF_GAME, &[("game", game_id.into())]).await?;
        Ok(row.map(|(id,)| id))
    }

    /// Writes `change` if its event is still at `old_version`: nothing, if
    /// any part fails.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn change_tournament(&self, change: TournamentChange) -> Result<TournamentWrite, StoreError> {
        let keep = |w: &TournamentWrite| *w == TournamentWrite::Done;
        self.transaction_kept_if(keep, move |s, tx| {
            Box::pin(async move {
                let Some(t) = &change.tournament else { return Ok(TournamentWrite::Moved) };
                let args = [
                    ("status", (&t.status).into()),
                    ("round", t.round.into()),
                    ("version", t.version.into()),
                    ("started_at", t.started_at.into()),
                    ("ended_at", t.ended_at.into()),
                    ("id", (&t.id).into()),
                    ("old_version", change.old_version.into()),
                ];
                if tx.execute(&UPDATE, &args).await? != 1 {
                    return Ok(TournamentWrite::Moved);
                }
                for p in &change.joining {
                    match tx.execute(&INSERT_PLAYER, &player_args(p)).await {
                        Ok(_) => {}
                        Err(StoreError::Database(e)) if is_unique_violation(&e) => {
                            return Ok(TournamentWrite::AlreadyIn);
                        }
                        Err(e) => return Err(e),
                    }
                }
                for p in &change.players {
                    let args = [
                        ("seed", p.seed.into()),
                        ("withdrawn_at", p.withdrawn_at.into()),
                        ("timeouts", p.timeouts.into()),
                        ("tournament_id", (&p.tournament_id).into()),
                        ("account_id", (&p.account_id).into()),
                    ];
                    tx.execute(&UPDATE_PLAYER, &args).await?;
                }
                for account in &change.leaving {
                    tx.execute(&DELETE_PLAYER, &[("id", (&t.id).into()), ("account_id", account.into())])
                        .await?;
                }
                for (g, seats) in &change.games {
                    Store::insert_rows(tx, g, seats).await?;
                }
                for g in &change.paired {
                    tx.execute(&INSERT_GAME, &game_args(g)).await?;
                }
                for (round, board, outcome, forfeit) in &change.decided {
                    let args = [
                        ("outcome", outcome.into()),
                        ("forfeit", (*forfeit).into()),
                        ("id", (&t.id).into()),
                        ("round", (*round).into()),
                        ("board", (*board).into()),
                    ];
                    tx.execute(&DECIDE, &args).await?;
                }
                Self::append_account_events(s.backend, tx, &change.events).await?;
                if s.backend == super::Backend::Postgres {
                    for (g, _) in &change.games {
                        super::games::NOTIFY.query(&[("game", (&g.id).into())])?.execute(&mut **tx).await?;
                    }
                }
                Ok(TournamentWrite::Done)
            })
        })
        .await
    }
}

fn tournament_args(t: &TournamentRow) -> Vec<(&'static str, Arg<'_>)> {
    vec![
        ("id", (&t.id).into()),
        ("creator_id", (&t.creator_id).into()),
        ("name", (&t.name).into()),
        ("format", (&t.format).into()),
        ("rules", (&t.rules).into()),
        ("rated", t.rated.into()),
        ("rounds", t.rounds.into()),
        ("all_at_once", t.all_at_once.into()),
        ("move_limit", t.move_limit.into()),
        ("correspondence", t.correspondence.into()),
        ("duration_ms", t.duration_ms.into()),
        ("min_players", t.min_players.into()),
        ("max_players", t.max_players.into()),
        ("starts_at", t.starts_at.into()),
        ("bots", t.bots.into()),
        ("invited", (&t.invited).into()),
        ("status", (&t.status).into()),
        ("round", t.round.into()),
        ("version", t.version.into()),
        ("created_at", t.created_at.into()),
        ("started_at", t.started_at.into()),
        ("ended_at", t.ended_at.into()),
    ]
}

fn player_args(p: &TournamentPlayerRow) -> Vec<(&'static str, Arg<'_>)> {
    vec![
        ("tournament_id", (&p.tournament_id).into()),
        ("account_id", (&p.account_id).into()),
        ("name", (&p.name).into()),
        ("bot", p.bot.into()),
        ("rating", p.rating.into()),
        ("joined_at", p.joined_at.into()),
        ("seed", p.seed.into()),
        ("withdrawn_at", p.withdrawn_at.into()),
        ("timeouts", p.timeouts.into()),
    ]
}

fn game_args(g: &TournamentGameRow) -> Vec<(&'static str, Arg<'_>)> {
    vec![
        ("tournament_id", (&g.tournament_id).into()),
        ("round", g.round.into()),
        ("board", g.board.into()),
        ("game_id", (&g.game_id).into()),
        ("first_id", (&g.first_id).into()),
        ("second_id", (&g.second_id).into()),
        ("outcome", (&g.outcome).into()),
        ("forfeit", g.forfeit.into()),
    ]
}
