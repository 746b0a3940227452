"""A single legal_moves call from Python against the same call in Rust
(leapfrog-wire's call_timed example, in-process) on the 15x15 Murray middle
game of tests/fixtures/murray-middle-game.txt: the best of 50 of each.

Usage: cargo build --release -p leapfrog-wire --example call_timed && python bench/legal_moves.py
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import leapfrog_engine as lf

ROOT = Path(__file__).resolve().parents[3]


def main() -> None:
    board, ply, scores = (ROOT / "tests" / "fixtures" / "murray-middle-game.txt").read_text().split()
    body = {
        "rules": {"preset": "murray"},
        "position": {"board": board, "ply": int(ply), "scores": [int(s) for s in scores.split(",")]},
        "limit": 1000,
    }
    best = float("inf")
    for _ in range(50):
        t = time.perf_counter()
        lf.legal_moves(body)
        best = min(best, (time.perf_counter() - t) * 1000)
    binary = ROOT / "target" / "release" / "examples" / "call_timed"
    native = subprocess.run([str(binary), "legalMoves", json.dumps(body), "50"], capture_output=True, text=True, check=True)
    rust = float(native.stdout.split()[0])
    print(f"legal_moves: python {best:.3f} ms, rust {rust:.3f} ms, ratio {best / rust:.2f}")


if __name__ == "__main__":
    main()
