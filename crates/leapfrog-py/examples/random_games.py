"""Random games: one played a step at a time with the actions named, then
a batch of Murray games to the end, with the share each seat won."""

from __future__ import annotations

import numpy as np

from leapfrog_engine.env import BatchEnv, Env


def one_game() -> None:
    env = Env({"preset": "murray", "rows": 6, "cols": 6}, players=2, seed=7)
    rng = np.random.default_rng(7)
    while not env.is_over:
        action = int(rng.choice(env.legal_actions()))
        player = env.current_player
        rewards = env.step(action)
        print(f"player {player}: {env.action_name(action):<14} scored {rewards.tolist()}")
    print("returns:", env.returns(), "scores:", env.position()["scores"])


def many_games(games: int = 64) -> None:
    batch = BatchEnv({"preset": "murray", "rows": 9, "cols": 9}, games, players=2, seed=1)
    batch.reset()
    wins = np.zeros(2)
    finished = 0
    while finished < games:
        result = batch.step(batch.sample())
        wins += (result.returns[result.dones] > 0).sum(axis=0)
        finished += int(result.dones.sum())
    print(f"{finished} games: first seat won {wins[0]:.0f}, second {wins[1]:.0f} ({batch.moves} moves)")


if __name__ == "__main__":
    one_game()
    many_games()
