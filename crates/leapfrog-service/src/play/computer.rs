//! The computer's seats in persisted games (rule book §11): after every
//! move, and when the server starts, the games where the computer is to
//! move are played on the thinking pool until a person is to move or the
//! game is over.
//!
//! Several processes may think for one game (after a restart, or when two
//! share a PostgreSQL): each stores its move only if the game is still at
//! the version it read, so each computer move is made exactly once. A
//! periodic scan picks up any game whose computer move was left undone (a
//! process killed while thinking), so none is forgotten: it reads only the
//! games marked as the computer's turn (an index), and claims each for a
//! while, so that of several processes one picks it up.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::compute::pools::{JobKind, SEARCH_THREADS, Thinkers};
use crate::play::GameError;
use crate::play::{Games, Wakes, now_ms};

/// How often the scan for forgotten computer moves runs, and how long a
/// game must have been still to be picked up by it.
pub const SCAN_EVERY: Duration = Duration::from_secs(10);

/// How long a game picked up by a scan is this process's alone: another
/// process picks it up after that if it is still the computer's turn.
pub const CLAIM: Duration = Duration::from_secs(60);

/// Plays the computer's seats.
#[derive(Debug, Clone)]
pub struct Computer {
    games: Games,
    thinkers: Thinkers,
    /// The games this process is playing for now, each with whether it was
    /// woken again meanwhile (then it looks once more before it stops).
    playing: Arc<Mutex<HashMap<String, bool>>>,
}

impl Computer {
    /// The computer of this process, playing through the games service.
    pub fn new(games: Games, thinkers: Thinkers) -> Computer {
        Computer { games, thinkers, playing: Arc::default() }
    }

    /// Wakes each game the games service tells of, for as long as the
    /// process runs.
    pub async fn listen(self, mut wakes: Wakes) {
        while let Some(id) = wakes.recv().await {
            self.wake(&id);
        }
    }

    /// Looks at game `id` (after a move, a creation, a restart) and plays
    /// for the computer while it is to move there.
    pub fn wake(&self, id: &str) {
        self.wake_as(id, false);
    }

    /// Wakes game `id`; `marked`: it was found marked as the computer's
    /// turn, and the mark is cleared if a person is to move.
    fn wake_as(&self, id: &str, marked: bool) {
        {
            let mut playing = self.lock();
            if let Some(again) = playing.get_mut(id) {
                *again = true;
                return;
            }
            playing.insert(id.to_string(), false);
        }
        tokio::task::spawn_local(self.clone().play(id.to_string(), marked));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, bool>> {
        self.playing.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn play(self, id: String, mut marked: bool) {
        loop {
            if let Err(e) = self.play_while_its_turn(&id, std::mem::take(&mut marked)).await {
                tracing::warn!(game = %id, error = %e, "the computer could not move; the scan retries");
            }
            let mut playing = self.lock();
            match playing.get_mut(&id) {
                Some(again) if *again => *again = false,
                _ => {
                    playing.remove(&id);
                    return;
                }
            }
        }
    }

    async fn play_while_its_turn(&self, id: &str, marked: bool) -> Result<(), GameError> {
        loop {
            let game = self.games.load(id).await?;
            let Some(level) = game.computer_to_move() else {
                if marked {
                    self.games.not_computer_turn(id, game.version()).await?;
                }
                return Ok(());
            };
            // The moves so far: the computer learns from them how the
            // others play.
            let history = Arc::new(self.games.history(&game, 0).await?);
            // The same game, ply and level: the same move, where the level
            // counts iterations.
            let seed = game.seed() ^ u64::from(game.position().ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            // A person waits: first. Computer seats alone: in the background,
            // each creator's games taking turns with everyone else's.
            let lane = if game.has_people() { JobKind::Play } else { JobKind::Background };
            let client = game.client().to_string();
            let thinking = std::time::Instant::now();
            let choice = loop {
                let (game, history) = (game.clone(), history.clone());
                // On as many threads as its budget uses and the pool gives.
                let wide = level.budget().map_or(1, |b| b.threads_of(SEARCH_THREADS));
                match self.thinkers.submit_search(lane, &client, None, wide, move |threads| {
                    game.computer_choice(level, seed, &history, threads)
                }) {
                    Ok(answer) => match answer.await {
                        Ok(Ok(choice)) => break choice,
                        // It waited its most for a thread: it asks again.
                        Ok(Err(_late)) => {}
                        // The search panicked (logged): the scan retries.
                        Err(_) => return Ok(()),
                    },
                    // The queue is full: the game waits its turn.
                    Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
                }
            };
            let Some(mv) = choice? else { return Ok(()) };
            metrics::histogram!(leapfrog_process::meter::COMPUTER_MOVE)
                .record(thinking.elapsed().as_secs_f64());
            match self.games.play_for_computer(&game, mv).await {
                Ok(played) => {
                    tracing::debug!(game = %id, ply = played.position().ply(), %level, "the computer moved");
                }
                // Another process stored a move first: look again.
                Err(GameError::Conflict) => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Claims and wakes the games where the computer's turn began `still`
    /// ago or more (all of them when zero) and no other process holds
    /// them; how many.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn pick_up(&self, still: Duration) -> Result<usize, GameError> {
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        let now = now_ms();
        let ids = self
            .games
            .claim_computer_turns(now, now.saturating_sub(ms(still)), now.saturating_add(ms(CLAIM)))
            .await?;
        for id in &ids {
            self.wake_as(id, true);
        }
        Ok(ids.len())
    }

    /// Picks up games at start, then every [`SCAN_EVERY`] the games left
    /// still that long, for as long as the process runs.
    pub async fn scan(self) {
        let mut every = tokio::time::interval(SCAN_EVERY);
        let mut first = true;
        loop {
            every.tick().await;
            let still = if first { Duration::ZERO } else { SCAN_EVERY };
            match self.pick_up(still).await {
                Ok(n) if n > 0 => {
                    tracing::info!(games = n, "picked up games where the computer may be to move")
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "the scan for the computer's games failed; it runs again")
                }
            }
            first = false;
        }
    }
}
