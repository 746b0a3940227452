//! `jump-env`'s environments for Python: made from the same JSON as the
//! stateless API's (a setup request, or rules and a position), refused
//! with the same problems. Arrays cross as little-endian bytes that the
//! Python side views as numpy arrays (the buffer protocol is in the stable
//! ABI only from CPython 3.11; the package supports 3.9): one copy a step.

use jump_capture::Position;
use leapfrog_wire::problem::Problem;
use leapfrog_wire::stateless::{SetupRequest, deal, rules_and_position};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// A refusal as Python's `ValueError` carrying the problem's JSON (the
/// package turns it into `ProblemError`).
fn refused(problem: Problem) -> PyErr {
    PyValueError::new_err(serde_json::to_string(&problem).unwrap_or_default())
}

/// The starting position of `setup` (a setup request's JSON), or, with
/// `position`, that position under `setup`'s rules.
fn start_of(setup: &str, position: Option<&str>) -> PyResult<Position> {
    let req: SetupRequest = leapfrog_wire::body::parse(setup.as_bytes()).map_err(|e| refused(e.into()))?;
    match position {
        None => Ok(deal(&req).map_err(|e| refused((&e).into()))?.0),
        Some(p) => {
            let input = leapfrog_wire::body::parse(p.as_bytes()).map_err(|e| refused(e.into()))?;
            rules_and_position(&req.rules, &input).map_err(|e| refused((&e).into()))
        }
    }
}

/// One game, a jump a step.
#[derive(Debug)]
#[pyclass(module = "leapfrog_engine._native")]
pub struct Env {
    env: jump_env::Env,
}

#[pymethods]
impl Env {
    #[new]
    #[pyo3(signature = (setup, position=None))]
    fn new(setup: &str, position: Option<&str>) -> PyResult<Env> {
        Ok(Env { env: jump_env::Env::new(start_of(setup, position)?) })
    }

    /// (channels, rows, cols, actions, players).
    fn sizes(&self) -> (usize, usize, usize, usize, usize) {
        let e = self.env.encoding();
        let (c, r, k) = e.shape();
        (c, r, k, e.actions(), self.env.position().players())
    }

    fn reset(&mut self) {
        self.env.reset();
    }

    fn to_move(&self) -> usize {
        self.env.to_move()
    }

    fn is_over(&self) -> bool {
        self.env.is_over()
    }

    fn returns(&self) -> Option<Vec<f64>> {
        self.env.returns()
    }

    fn legal_actions(&self) -> Vec<u32> {
        self.env.legal_actions()
    }

    fn step(&mut self, action: u32) -> PyResult<Vec<f64>> {
        self.env.step(action).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn undo(&mut self) -> bool {
        self.env.undo()
    }

    fn in_chain(&self) -> bool {
        self.env.in_chain()
    }

    /// The actions of a move given by its path's cells (`["c3", "e3"]`).
    fn actions_of(&self, path: Vec<String>) -> PyResult<Vec<u32>> {
        let cells = path
            .iter()
            .map(|c| c.parse::<jump_capture::Cell>().map_err(|e| PyValueError::new_err(format!("{c}: {e}"))))
            .collect::<PyResult<Vec<_>>>()?;
        self.env
            .actions_of(&cells)
            .ok_or_else(|| PyValueError::new_err(format!("{} is not a move's path", path.join("-"))))
    }

    /// The observation (float32, channels × rows × cols) and the legal
    /// mask (uint8, actions), as bytes.
    fn observe<'py>(&self, py: Python<'py>) -> (Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let e = self.env.encoding();
        let (c, r, k) = e.shape();
        let (mut obs, mut legal) = (vec![0.0f32; c * r * k], vec![0u8; e.actions()]);
        self.env.observe(&mut obs);
        self.env.legal_mask(&mut legal);
        (PyBytes::new(py, bytemuck::cast_slice(&obs)), PyBytes::new(py, &legal))
    }

    /// The action in words (`jump c3 N`, `remove d4`, `stop`).
    fn action_name(&self, action: u32) -> Option<String> {
        use jump_env::Action;
        self.env.encoding().decode(action).map(|a| match a {
            Action::Jump { from, direction } => format!("jump {from} {direction:?}"),
            Action::Remove(cell) => format!("remove {cell}"),
            Action::Stop => "stop".to_string(),
        })
    }

    /// The position at the start of the turn, as the stateless API writes
    /// it (`board`, `ply`, `scores`).
    fn position(&self) -> (String, u32, Vec<u32>) {
        let pos = self.env.position();
        let setup = pos.setup();
        (setup.grid.to_string(), pos.ply(), pos.scores().to_vec())
    }
}

/// Many games stepped at once, the interpreter's lock released.
#[derive(Debug)]
#[pyclass(module = "leapfrog_engine._native")]
pub struct Batch {
    batch: jump_env::Batch,
    sizes: (usize, usize, usize),
    buffers: Buffers,
}

#[derive(Debug, Default)]
struct Buffers {
    observations: Vec<f32>,
    masks: Vec<u8>,
    rewards: Vec<f32>,
    done: Vec<u8>,
    returns: Vec<f32>,
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (setup, n, seed))]
    fn new(setup: &str, n: usize, seed: u64) -> PyResult<Batch> {
        let mut req: SetupRequest =
            leapfrog_wire::body::parse(setup.as_bytes()).map_err(|e| refused(e.into()))?;
        if n == 0 || n > 1 << 16 {
            return Err(PyValueError::new_err(format!("n is {n}; give 1 to 65536 games")));
        }
        // Each game its own deal: the request's seed, then the ones after it.
        let first = req.seed.map_or(seed, |s| s.0);
        let mut starts = Vec::with_capacity(n);
        for i in 0..n as u64 {
            req.seed = Some(leapfrog_wire::SeedInput(first.wrapping_add(i)));
            starts.push(deal(&req).map_err(|e| refused((&e).into()))?.0);
        }
        let batch = jump_env::Batch::new(starts, seed);
        let e = batch.envs()[0].encoding();
        let (c, r, k) = e.shape();
        let sizes = (c * r * k, e.actions(), batch.envs()[0].position().players());
        let buffers = Buffers {
            observations: vec![0.0; n * sizes.0],
            masks: vec![0; n * sizes.1],
            rewards: vec![0.0; n * sizes.2],
            done: vec![0; n],
            returns: vec![0.0; n * sizes.2],
        };
        Ok(Batch { batch, sizes, buffers })
    }

    /// The moves completed by every step so far.
    fn moves(&self) -> u64 {
        self.batch.moves()
    }

    /// (games, observation floats a game, actions, players).
    fn sizes(&self) -> (usize, usize, usize, usize) {
        (self.batch.len(), self.sizes.0, self.sizes.1, self.sizes.2)
    }

    /// Every game's observation and mask (as after a reset), as bytes.
    fn observe<'py>(&mut self, py: Python<'py>) -> (Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let Batch { batch, buffers, .. } = self;
        py.detach(|| batch.observe(&mut buffers.observations, &mut buffers.masks));
        (
            PyBytes::new(py, bytemuck::cast_slice(&self.buffers.observations)),
            PyBytes::new(py, &self.buffers.masks),
        )
    }

    /// Steps every game by its action (`actions`: uint32 bytes, one a
    /// game): (observations, masks, rewards, done, returns) as bytes; with
    /// `observe` false (rollouts), observations and masks are empty.
    #[pyo3(signature = (actions, observe=true))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &[u8],
        observe: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        if actions.len() != 4 * self.batch.len() {
            return Err(PyValueError::new_err(format!(
                "{} action bytes for {} games",
                actions.len(),
                self.batch.len()
            )));
        }
        let actions: Vec<u32> =
            actions.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let Batch { batch, buffers, .. } = self;
        py.detach(|| {
            let (observations, masks) = if observe {
                (&mut buffers.observations[..], &mut buffers.masks[..])
            } else {
                (&mut [][..], &mut [][..])
            };
            let out = jump_env::Outputs {
                observations,
                masks,
                rewards: &mut buffers.rewards,
                done: &mut buffers.done,
                returns: &mut buffers.returns,
            };
            batch.step(&actions, out)
        })
        .map_err(|(i, e)| PyValueError::new_err(format!("game {i}: {e}")))?;
        let b = &self.buffers;
        let (observations, masks): (&[f32], &[u8]) =
            if observe { (&b.observations, &b.masks) } else { (&[], &[]) };
        Ok(vec![
            PyBytes::new(py, bytemuck::cast_slice(observations)),
            PyBytes::new(py, masks),
            PyBytes::new(py, bytemuck::cast_slice(&b.rewards)),
            PyBytes::new(py, &b.done),
            PyBytes::new(py, bytemuck::cast_slice(&b.returns)),
        ])
    }

    /// A uniformly random legal action of every game, as uint32 bytes.
    fn sample<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let mut out = vec![0u32; self.batch.len()];
        let batch = &mut self.batch;
        py.detach(|| batch.sample(&mut out));
        PyBytes::new(py, bytemuck::cast_slice(&out))
    }
}
