//! Many games stepped at once.

use jump_capture::Position;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::env::{Env, EnvError};

/// `n` games of one rule set and board, stepped together; a game that
/// ends starts again from its start at its next step's end (its last
/// observation is the new game's), as vectorised environments do.
#[derive(Debug)]
pub struct Batch {
    envs: Vec<Env>,
    rng: ChaCha8Rng,
    moves: u64,
}

impl Batch {
    /// `starts.len()` games, each from its start; `seed` for
    /// [`Batch::sample`].
    pub fn new(starts: Vec<Position>, seed: u64) -> Batch {
        Batch {
            envs: starts.into_iter().map(|p| Env::new(p).without_undo()).collect(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            moves: 0,
        }
    }

    /// The games.
    pub fn envs(&self) -> &[Env] {
        &self.envs
    }

    /// The moves completed by every step so far (a move is one step or a
    /// chain of them).
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// Plays `actions[i]` in game `i`, and writes for each game its points
    /// scored (`rewards`, players a game), whether it ended (`done`: then
    /// `returns` holds its returns and the game has started again), its
    /// observation and its legal mask. Buffers are the games' in order.
    ///
    /// # Errors
    ///
    /// The first game whose action was refused, by its index (the games
    /// before it have stepped).
    pub fn step(&mut self, actions: &[u32], out: Outputs<'_>) -> Result<(), (usize, EnvError)> {
        let (obs_len, mask_len, players) = self.sizes();
        for (i, (env, &a)) in self.envs.iter_mut().zip(actions).enumerate() {
            let ply = env.position().ply();
            let rewards = env.step(a).map_err(|e| (i, e))?;
            self.moves += u64::from(env.position().ply() != ply);
            out.rewards[i * players..(i + 1) * players]
                .iter_mut()
                .zip(&rewards)
                .for_each(|(r, &x)| *r = x as f32);
            let done = env.is_over();
            out.done[i] = u8::from(done);
            let returns = &mut out.returns[i * players..(i + 1) * players];
            match env.returns() {
                Some(r) if done => returns.iter_mut().zip(r).for_each(|(o, x)| *o = x as f32),
                _ => returns.fill(0.0),
            }
            if done {
                env.reset();
            }
            // Rollouts need no observation: empty buffers are not written.
            if let Some(obs) = out.observations.get_mut(i * obs_len..(i + 1) * obs_len) {
                env.observe(obs);
            }
            if let Some(mask) = out.masks.get_mut(i * mask_len..(i + 1) * mask_len) {
                env.legal_mask(mask);
            }
        }
        Ok(())
    }

    /// Writes every game's observation and mask (as after a reset).
    pub fn observe(&self, observations: &mut [f32], masks: &mut [u8]) {
        let (obs_len, mask_len, _) = self.sizes();
        for (i, env) in self.envs.iter().enumerate() {
            env.observe(&mut observations[i * obs_len..(i + 1) * obs_len]);
            env.legal_mask(&mut masks[i * mask_len..(i + 1) * mask_len]);
        }
    }

    /// A uniformly random legal action of each game, into `actions`.
    pub fn sample(&mut self, actions: &mut [u32]) {
        let rng = &mut self.rng;
        for (env, a) in self.envs.iter().zip(actions) {
            *a = env.random_action(|n| rand::RngExt::random_range(rng, 0..n)).unwrap_or(0);
        }
    }

    /// (observation floats, mask bytes, players) of one game.
    fn sizes(&self) -> (usize, usize, usize) {
        self.envs.first().map_or((0, 0, 0), |e| {
            let (c, r, k) = e.encoding().shape();
            (c * r * k, e.encoding().actions(), e.position().players())
        })
    }
}

/// Where [`Batch::step`] writes, each the games' in order.
#[derive(Debug)]
pub struct Outputs<'a> {
    /// Observations, `n × channels × rows × cols` (or empty: not written).
    pub observations: &'a mut [f32],
    /// Legal masks, `n × actions` (or empty: not written).
    pub masks: &'a mut [u8],
    /// Points scored by the step, `n × players`.
    pub rewards: &'a mut [f32],
    /// Whether the game ended, `n`.
    pub done: &'a mut [u8],
    /// An ended game's returns, `n × players` (zero otherwise).
    pub returns: &'a mut [f32],
}
