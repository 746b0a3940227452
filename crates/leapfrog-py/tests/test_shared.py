"""The shared tests: every case of tests/fixtures/stateless answers as the
server does (answers.json, all but ``millis``; a 400's detail without where
in the request's text the fault is, which depends on how the text was
written), and perft reproduces the rules crate's vectors."""

from __future__ import annotations

import json
import re
import unittest
from pathlib import Path
from typing import Any

import leapfrog_engine as lf

ROOT = Path(__file__).resolve().parents[3]


def timeless(value: Any) -> Any:
    if isinstance(value, str):
        return re.sub(r" at line \d+ column \d+$", "", value)
    if isinstance(value, list):
        return [timeless(v) for v in value]
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k != "millis"}
    return value


class Shared(unittest.TestCase):
    def test_every_stateless_case_answers_as_the_server_does(self) -> None:
        fixtures = ROOT / "tests" / "fixtures" / "stateless"
        cases = json.loads((fixtures / "cases.json").read_text())
        answers = json.loads((fixtures / "answers.json").read_text())
        for case in cases:
            kept = answers[case["name"]]
            try:
                body, status = lf.call(case["operation"], case["body"]), 200
            except lf.ProblemError as e:
                body, status = e.problem, e.status
            self.assertEqual(status, kept["status"], case["name"])
            self.assertEqual(timeless(body), timeless(kept["body"]), case["name"])

    def test_perft_reproduces_the_rules_crate_vectors(self) -> None:
        counted = 0
        text = (ROOT / "crates" / "jump-capture" / "tests" / "data" / "perft.txt").read_text()
        for line in text.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            preset, directions, depth, count, board, ply, scores = line.split(" ")
            if int(count) > 2_000_000:
                continue
            body = {
                "rules": {"preset": preset, "directions": directions},
                "position": {"board": board, "ply": int(ply), "scores": [int(s) for s in scores.split(",")]},
                "depth": int(depth),
            }
            self.assertEqual(lf.perft(body)["nodes"], int(count), line)
            counted += 1
        self.assertGreaterEqual(counted, 40)

    def test_an_unknown_operation_is_a_404_naming_the_field(self) -> None:
        with self.assertRaises(lf.ProblemError) as refused:
            lf.call("legal_moves", {})
        self.assertEqual((refused.exception.status, refused.exception.field), (404, "operation"))


if __name__ == "__main__":
    unittest.main()
