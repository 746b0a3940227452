"""The Leap Frog rules engine's stateless API, in-process.

Each operation takes the request its HTTP operation takes (a dict, as the
JSON body) and answers the same JSON (as dicts and lists), or raises
:class:`ProblemError` carrying the same RFC 9457 problem object (``type``,
``title``, ``status``, ``detail``, ``field``). A program switches between
a server and the local engine by changing one function::

    import leapfrog_engine as lf
    dealt = lf.setup({"rules": {"preset": "murray"}, "seed": "7"})

The engine works with the interpreter's lock released.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

from . import _native

__all__ = [
    "ProblemError",
    "call",
    "operations",
    "presets",
    "setup",
    "legal_moves",
    "apply",
    "analysis",
    "solutions",
    "read_record",
    "perft",
]

Json = Dict[str, Any]


class ProblemError(Exception):
    """A refusal: ``problem`` is the object the server would answer."""

    def __init__(self, problem: Json) -> None:
        super().__init__(f"{problem.get('title')}: {problem.get('detail')}")
        self.problem: Json = problem

    @property
    def status(self) -> int:
        return int(self.problem["status"])

    @property
    def field(self) -> str | None:
        field = self.problem.get("field")
        return None if field is None else str(field)


def call(operation: str, body: Any = None) -> Any:
    """Runs ``operation`` (``setup``, ``legalMoves``, …) on ``body``."""
    status, text = _native.call(operation, json.dumps({} if body is None else body))
    if status != 200:
        raise ProblemError(json.loads(text))
    return json.loads(text)


def operations() -> List[str]:
    """The operations' names, as :func:`call` takes them."""
    return list(_native.operations())


def presets() -> List[Json]:
    """Every preset with its complete rule set (``listPresets``)."""
    answer: List[Json] = call("presets", {})
    return answer


def setup(body: Json) -> Json:
    """A deal (``createSetup``)."""
    answer: Json = call("setup", body)
    return answer


def legal_moves(body: Json) -> Json:
    """A page of legal moves (``listLegalMoves``)."""
    answer: Json = call("legalMoves", body)
    return answer


def apply(body: Json) -> Json:
    """A move applied (``applyMove``)."""
    answer: Json = call("apply", body)
    return answer


def analysis(body: Json) -> Json:
    """The computer's view of a position (``analysePosition``)."""
    answer: Json = call("analysis", body)
    return answer


def solutions(body: Json) -> Json:
    """Peg solitaire solved (``solvePosition``)."""
    answer: Json = call("solutions", body)
    return answer


def read_record(body: Json) -> Json:
    """A game record read and replayed (``readRecord``)."""
    answer: Json = call("readRecord", body)
    return answer


def perft(body: Json) -> Json:
    """The number of move sequences of ``depth`` plies."""
    answer: Json = call("perft", body)
    return answer
