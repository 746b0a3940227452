"""The search crate's computer (the stateless API's analysis, within a
budget of iterations) against a random player, on Konane 6x6, seats taken
in turn: the computer should win nearly every game."""

from __future__ import annotations

import random

import leapfrog_engine as lf
from leapfrog_engine.env import Env


def play(computer_seat: int, seed: int, iterations: int = 300) -> float:
    env = Env({"preset": "konane", "rows": 6, "cols": 6}, players=2, seed=seed)
    rng = random.Random(seed)
    while not env.is_over:
        if env.current_player == computer_seat:
            view = lf.analysis(
                {"rules": env.rules, "position": env.position(), "iterations": iterations, "seed": str(seed)}
            )
            env.play_move(view["best"])
        else:
            env.step(rng.choice(env.legal_actions()))
    returns = env.returns()
    assert returns is not None
    return returns[computer_seat]


def main() -> None:
    results = [play(seat, seed) for seed in range(6) for seat in (0, 1)]
    wins = sum(1 for r in results if r > 0)
    print(f"the computer won {wins} of {len(results)} games against a random player")


if __name__ == "__main__":
    main()
