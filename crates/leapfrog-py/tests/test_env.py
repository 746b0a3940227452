"""The environments: a game played at random ends with the engine's scores
and returns, undo goes back to the start, the batch restarts finished
games, observations and masks have their documented shapes, and a bad
rule set is refused with the stateless API's problem."""

from __future__ import annotations

import random
import unittest

import numpy as np

import leapfrog_engine as lf
from leapfrog_engine.env import BatchEnv, Env

MURRAY = {"preset": "murray", "rows": 6, "cols": 6}


class Environments(unittest.TestCase):
    def test_a_random_game_scores_as_the_engine_and_undoes_to_the_start(self) -> None:
        env = Env(MURRAY, players=2, seed=3)
        start = env.position()
        rng = random.Random(1)
        scored = np.zeros(2)
        steps = 0
        while not env.is_over:
            mask = env.action_mask()
            legal = env.legal_actions()
            self.assertEqual(list(np.flatnonzero(mask)), legal)
            self.assertEqual(env.observation().shape, env.observation_shape)
            scored += env.step(rng.choice(legal))
            steps += 1
        self.assertEqual(list(scored), env.position()["scores"])
        returns = env.returns()
        assert returns is not None
        self.assertIn(sorted(returns), ([-1.0, 1.0], [0.0, 0.0]))
        for _ in range(steps):
            self.assertTrue(env.undo())
        self.assertFalse(env.undo())
        self.assertEqual(env.position(), start)

    def test_a_move_of_the_stateless_api_plays_as_its_steps(self) -> None:
        env = Env(MURRAY, players=2, seed=3)
        while not env.is_over:
            rules, position = env.rules, env.position()
            page = lf.legal_moves({"rules": rules, "position": position, "limit": 1})
            move = page["moves"][0]
            after = lf.apply({"rules": rules, "position": position, "move": {"path": move["path"]}})
            env.play_move(move["notation"])
            self.assertEqual(env.position()["board"], after["position"]["board"])

    def test_the_batch_restarts_finished_games_and_reports_their_returns(self) -> None:
        batch = BatchEnv({"preset": "old", "rows": 4, "cols": 4}, 8, players=2, seed=0)
        obs, masks = batch.reset()
        self.assertEqual(obs.shape, (8, *batch.observation_shape))
        self.assertEqual(masks.shape, (8, batch.num_actions))
        finished = 0
        for _ in range(200):
            result = batch.step(batch.sample())
            finished += int(result.dones.sum())
            for i in np.flatnonzero(result.dones):
                self.assertIn(sorted(result.returns[i].tolist()), ([-1.0, 1.0], [0.0, 0.0]))
            self.assertTrue(result.action_masks.any(axis=1).all(), "every game has a move")
        self.assertGreater(finished, 8)
        self.assertGreater(batch.moves, 100)

    def test_bad_rules_and_actions_are_refused(self) -> None:
        with self.assertRaises(lf.ProblemError) as refused:
            Env({"preset": "old", "rows": 99, "cols": 99})
        self.assertEqual(refused.exception.field, "rules")
        env = Env(MURRAY, seed=1)
        illegal = int(np.flatnonzero(~env.action_mask())[0])
        with self.assertRaises(ValueError):
            env.step(illegal)
        with self.assertRaises(ValueError):
            BatchEnv(MURRAY, 2).step([0])


if __name__ == "__main__":
    unittest.main()
