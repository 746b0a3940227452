"""Random playouts through the batched environment from Python, moves a
second: a random legal action of each game (drawn in Rust), stepped, its
observations and masks read as numpy arrays — the loop of
`cargo run --release -p jump-env --example playouts`, on the same rules.

Usage: python bench/playouts.py [SECONDS] [GAMES]
"""

from __future__ import annotations

import sys
import time

from leapfrog_engine.env import BatchEnv


def main() -> None:
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    batch = BatchEnv({"preset": "murray", "rows": 9, "cols": 9}, games, players=2, seed=0)
    batch.reset()
    for observe in (True, False):
        moves, steps, began = batch.moves, 0, time.perf_counter()
        while time.perf_counter() - began < secs:
            if observe:
                result = batch.step(batch.sample())
                _ = result.observations, result.action_masks
            else:
                batch.play(batch.sample())
            steps += games
        t = time.perf_counter() - began
        how = "observations and masks read each step" if observe else "rollouts: no observations"
        print(f"python batched env: {(batch.moves - moves) / t:>10.0f} moves/s, {steps / t:.0f} steps/s ({games} games, {how})")


if __name__ == "__main__":
    main()
