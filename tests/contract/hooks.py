"""Schemathesis hooks for the contract run (`.ci/run`): a move request that
carries a token gets a real one. Each such request plays on a fresh game,
with the token of its first seat (the seat to move at ply 0), so that the
move endpoint is fuzzed past its authentication. Requests without a token
are left alone: their 401 is part of the contract.

The server's address comes from LEAPFROG_URL.
"""

import json
import os
import urllib.request

import schemathesis

BASE = os.environ["LEAPFROG_URL"]


def new_game():
    body = {
        "rules": {"preset": "old", "rows": 4, "cols": 4},
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "seed": 5,
    }
    request = urllib.request.Request(
        BASE + "/v1/games", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        game = json.load(answer)
    return game["id"], game["seats"][0]["token"]


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.method.upper() != "POST" or case.path != "/v1/games/{id}/moves":
        return
    headers = case.headers or {}
    if not any(name.lower() == "authorization" for name in headers):
        return
    game, token = new_game()
    case.path_parameters = {**(case.path_parameters or {}), "id": game}
    case.headers = {name: value for name, value in headers.items() if name.lower() != "authorization"}
    case.headers["Authorization"] = f"Bearer {token}"
