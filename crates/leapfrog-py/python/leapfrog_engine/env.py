"""Jump-capture games as environments for learning programs.

Any rule set the stateless API takes, as an environment after OpenSpiel's
games and PettingZoo's turn-based environments (the Rust crate
``jump-env``, behind this package's native module):

* **One jump a step**, with a **stop** action. A move is a path of jumps and
  a position can have exponentially many, so no fixed action space holds
  whole paths; a jump — *from cell i in direction d* — fits one. The player
  keeps the turn while the chain can go on, as OpenSpiel's checkers does for
  multi-jumps; every prefix of a chain is a move in these games, so after a
  jump the player may stop, and a chain that cannot go on ends the move by
  itself. An opening's removal is one action. With ``cells = rows * cols``,
  ``i = rank * cols + file`` and ``D`` directions: ``i * D + d`` jumps,
  ``cells * D + i`` removes, ``cells * (D + 1)`` stops.
* **Observations** are float32 planes ``(channels, rows, cols)``: a plane a
  kind of piece, empty cells, the board's cells, the moving piece
  mid-chain, the player to move (a plane a player), each player's score.
* **Legal actions** as a boolean mask (PettingZoo's ``action_mask``).
* **Rewards**: the points each player scored by the step (the rule set's
  scoring), given when the move ends. **Returns** of a finished game are
  OpenSpiel's: +1 to the winners, -1 to the others, 0 to all when all
  share the win.
* :class:`BatchEnv` steps N games in Rust at once with the interpreter's
  lock released, starting a finished game again (its ``dones`` entry says
  so and ``returns`` holds its returns), as vectorised environments do.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

from . import ProblemError, _native

__all__ = ["Env", "BatchEnv", "StepResult"]

T = TypeVar("T")
Seed = Union[int, str, None]


def _checked(make: Callable[[], T]) -> T:
    """Runs ``make``; a refusal of the request becomes :class:`ProblemError`."""
    try:
        return make()
    except ValueError as e:
        text = str(e)
        if text.startswith("{"):
            raise ProblemError(json.loads(text)) from None
        raise


def _setup(rules: Dict[str, Any], players: Optional[int], seed: Seed) -> str:
    body: Dict[str, Any] = {"rules": rules}
    if players is not None:
        body["players"] = players
    if seed is not None:
        body["seed"] = seed
    return json.dumps(body)


class Env:
    """One game of ``rules`` (a rule set as the stateless API takes it),
    dealt from ``seed``, or from ``position`` (``board``, ``ply``,
    ``scores``) when given."""

    def __init__(
        self,
        rules: Dict[str, Any],
        players: Optional[int] = None,
        seed: Seed = None,
        position: Optional[Dict[str, Any]] = None,
    ) -> None:
        setup = _setup(rules, players, seed)
        at = None if position is None else json.dumps(position)
        self._env = _checked(lambda: _native.Env(setup, at))
        channels, rows, cols, actions, players_ = self._env.sizes()
        self.rules: Dict[str, Any] = rules
        self.observation_shape: Tuple[int, int, int] = (channels, rows, cols)
        self.num_actions: int = actions
        self.num_players: int = players_

    def reset(self) -> None:
        """Back to the start."""
        self._env.reset()

    @property
    def current_player(self) -> int:
        """The player to move (mid-chain, the one making the chain)."""
        return int(self._env.to_move())

    @property
    def is_over(self) -> bool:
        return bool(self._env.is_over())

    @property
    def in_chain(self) -> bool:
        """Whether a chain is under way: the player keeps the turn."""
        return bool(self._env.in_chain())

    def returns(self) -> Optional[List[float]]:
        """A finished game's returns; ``None`` while it goes on."""
        r = self._env.returns()
        return None if r is None else [float(x) for x in r]

    def observation(self) -> npt.NDArray[np.float32]:
        obs, _ = self._env.observe()
        return np.frombuffer(obs, dtype=np.float32).reshape(self.observation_shape)

    def action_mask(self) -> npt.NDArray[np.bool_]:
        _, mask = self._env.observe()
        return np.frombuffer(mask, dtype=np.uint8).astype(np.bool_)

    def legal_actions(self) -> List[int]:
        return [int(a) for a in self._env.legal_actions()]

    def step(self, action: int) -> npt.NDArray[np.float64]:
        """Plays ``action``: each player's points scored by it."""
        return np.asarray(self._env.step(int(action)), dtype=np.float64)

    def undo(self) -> bool:
        """Takes back the last step; ``False`` at the start."""
        return bool(self._env.undo())

    def action_name(self, action: int) -> str:
        name = self._env.action_name(int(action))
        if name is None:
            raise ValueError(f"{action} is not an action of this board")
        return str(name)

    def position(self) -> Dict[str, Any]:
        """The position at the start of the turn, as the stateless API
        takes it (``board``, ``ply``, ``scores``)."""
        board, ply, scores = self._env.position()
        return {"board": board, "ply": int(ply), "scores": [int(s) for s in scores]}

    def play_move(self, notation: str) -> npt.NDArray[np.float64]:
        """Plays a whole move given in notation (``c3xe3xe5``, ``d4``) as its
        steps, stopping the chain where it can go on: the points scored."""
        total = np.zeros(self.num_players)
        for action in self._env.actions_of(notation.split("x")):
            total += self.step(int(action))
        if self.in_chain:
            stop = self.num_actions - 1
            total += self.step(stop)
        return total


class StepResult(NamedTuple):
    """What :meth:`BatchEnv.step` answers, one row a game."""

    observations: npt.NDArray[np.float32]
    action_masks: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    dones: npt.NDArray[np.bool_]
    returns: npt.NDArray[np.float32]


class BatchEnv:
    """``n`` games of ``rules``, dealt from ``seed`` and the seeds after
    it, stepped together in Rust."""

    def __init__(self, rules: Dict[str, Any], n: int, players: Optional[int] = None, seed: int = 0) -> None:
        setup = _setup(rules, players, None)
        self._batch = _checked(lambda: _native.Batch(setup, n, seed))
        games, obs, actions, players_ = self._batch.sizes()
        first = Env(rules, players, seed)
        self.num_envs: int = games
        self.observation_shape: Tuple[int, int, int] = first.observation_shape
        self.num_actions: int = actions
        self.num_players: int = players_
        assert obs == int(np.prod(first.observation_shape))

    def reset(self) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Every game's observation and action mask."""
        obs, masks = self._batch.observe()
        return self._obs(obs), self._masks(masks)

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Plays ``actions[i]`` in game ``i``."""
        a = np.ascontiguousarray(actions, dtype="<u4")
        obs, masks, rewards, dones, returns = self._batch.step(a.tobytes())
        shape = (self.num_envs, self.num_players)
        return StepResult(
            self._obs(obs),
            self._masks(masks),
            np.frombuffer(rewards, dtype="<f4").reshape(shape),
            np.frombuffer(dones, dtype=np.uint8).view(np.bool_),
            np.frombuffer(returns, dtype="<f4").reshape(shape),
        )

    @property
    def moves(self) -> int:
        """The moves completed by every step so far (a move is a step, or a
        chain of them)."""
        return int(self._batch.moves())

    def play(self, actions: npt.ArrayLike) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.float32]]:
        """Plays ``actions[i]`` in game ``i`` without writing observations
        (rollouts): (rewards, dones, returns)."""
        a = np.ascontiguousarray(actions, dtype="<u4")
        _, _, rewards, dones, returns = self._batch.step(a.tobytes(), False)
        shape = (self.num_envs, self.num_players)
        return (
            np.frombuffer(rewards, dtype="<f4").reshape(shape),
            np.frombuffer(dones, dtype=np.uint8).view(np.bool_),
            np.frombuffer(returns, dtype="<f4").reshape(shape),
        )

    def sample(self) -> npt.NDArray[np.uint32]:
        """A uniformly random legal action of every game (drawn in Rust)."""
        return np.frombuffer(self._batch.sample(), dtype="<u4").astype(np.uint32)

    def _obs(self, raw: bytes) -> npt.NDArray[np.float32]:
        return np.frombuffer(raw, dtype="<f4").reshape((self.num_envs, *self.observation_shape))

    def _masks(self, raw: bytes) -> npt.NDArray[np.bool_]:
        # 0 and 1 bytes read as booleans where they lie: no copy.
        return np.frombuffer(raw, dtype=np.uint8).reshape((self.num_envs, self.num_actions)).view(np.bool_)
