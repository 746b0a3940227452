"""Schemathesis hooks for the contract run (`.ci/run`): requests that need
a game in a given state get a fresh one, so that every seat endpoint is
fuzzed past its authentication and its 404:

- a move or a resignation: a started game, with the token of its first
  seat (the seat to move at ply 0);
- leaving: a waiting game (the first seat a person, the second open to the
  public), with the first seat's token;
- a rematch: a game its second seat resigned, with the first seat's token;
- joining: a waiting game with one public open seat;
- an account's own operations (tokens, export, deletion, settings,
  challenges sent and listed): a fresh account and a token of it with every
  scope, its name and a token id in the path;
- a challenge's acceptance, decline or cancellation: a fresh challenge and
  the token of the account that may act on it (anyone for an open one, the
  challenged, the challenger).

And a request schemathesis calls schema-valid loses any header whose value
breaks the header's own declared pattern (its coverage phase sends
`If-Match: 0` as valid, which the spec says is not).

The server's address comes from LEAPFROG_URL.
"""

import functools
import json
import os
import re
import urllib.request

import schemathesis

BASE = os.environ["LEAPFROG_URL"]


def post(path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(BASE + path, data=data, headers=headers, method="POST")
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def new_game(second_seat):
    """A fresh 4×4 game of Ann and `second_seat`: its id and its tokens by seat. The
    seats' names hold a space, which no account's may: never an account's look-alike."""
    body = {
        "rules": {"preset": "old", "rows": 4, "cols": 4},
        "players": [{"name": "Ann P"}, second_seat],
        "seed": 5,
    }
    game = post("/v1/games", body)
    tokens = {seat["player"]: seat["token"] for seat in game["seats"] if "token" in seat}
    return game["id"], tokens


def started():
    game, tokens = new_game({"name": "Bob P"})
    return game, tokens[0]


def waiting():
    game, tokens = new_game({"open": "public"})
    return game, tokens[0]


def finished():
    game, tokens = new_game({"name": "Bob P"})
    post(f"/v1/games/{game}/resign", token=tokens[1])
    return game, tokens[0]


SEAT_ENDPOINTS = {
    "/v1/games/{id}/moves": started,
    "/v1/games/{id}/resign": started,
    "/v1/games/{id}/leave": waiting,
    "/v1/games/{id}/rematch": finished,
}


# An auth provider, not a hook, so that schemathesis knows the token is a
# real one and still checks that the same request without it, or with a
# wrong one, is refused. No caching: every request gets its own game.
@schemathesis.auth(refresh_interval=None).apply_to(
    method="POST", path_regex="^(" + "|".join(map(re.escape, SEAT_ENDPOINTS)) + ")$"
)
class SeatToken:
    def get(self, case, context):
        return SEAT_ENDPOINTS[case.path]()

    def set(self, case, data, context):
        game, token = data
        case.path_parameters = {**(case.path_parameters or {}), "id": game}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


ACCOUNTS = iter(range(1_000_000))


def new_account():
    """A fresh account, a token of it with every scope, and that token's id."""
    name = f"contract{next(ACCOUNTS)}"
    post("/v1/accounts", {"name": name, "password": "contract-password"})
    made = post("/v1/tokens", {"name": name, "password": "contract-password", "label": "contract", "scopes": ["play", "account"]})
    return name, made["token"], made["id"]


ACCOUNT_ENDPOINTS = (
    "/v1/challenges",
    "/v1/tokens",
    "/v1/tokens/{id}",
    "/v1/accounts/{name}",
    "/v1/accounts/{name}/export",
    "/v1/accounts/{name}/records",
)


@schemathesis.auth(refresh_interval=None).apply_to(
    path_regex="^(" + "|".join(map(re.escape, ACCOUNT_ENDPOINTS)) + ")$"
).skip_for(method="GET", path_regex=r"^/v1/accounts/\{name\}$")
class AccountToken:
    def get(self, case, context):
        return new_account()

    def set(self, case, data, context):
        name, token, token_id = data
        parameters = dict(case.path_parameters or {})
        if "name" in parameters:
            parameters["name"] = name
        if "id" in parameters:
            parameters["id"] = token_id
        case.path_parameters = parameters
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


def challenge(action):
    """A fresh challenge, and the token of an account that may `action` it."""
    challenger, challenger_token, _ = new_account()
    target, target_token, _ = new_account()
    terms = {"rules": {"preset": "old", "rows": 6, "cols": 6}}
    if action != "accept":
        terms["to"] = target
    made = post("/v1/challenges", terms, challenger_token)
    return made["id"], challenger_token if action == "cancel" else target_token


CHALLENGE_ACTIONS = {f"/v1/challenges/{{id}}/{a}": a for a in ("accept", "decline", "cancel")}


@schemathesis.auth(refresh_interval=None).apply_to(
    method="POST", path_regex="^(" + "|".join(map(re.escape, CHALLENGE_ACTIONS)) + ")$"
)
class ChallengeToken:
    def get(self, case, context):
        return challenge(CHALLENGE_ACTIONS[case.path])

    def set(self, case, data, context):
        challenge_id, token = data
        case.path_parameters = {**(case.path_parameters or {}), "id": challenge_id}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


@functools.cache
def spec():
    with urllib.request.urlopen(BASE + "/openapi.json") as answer:
        return json.load(answer)


def header_patterns(method, path):
    """The declared pattern of each header parameter of an operation, by lower-case name."""
    parameters = spec()["paths"][path][method.lower()].get("parameters", [])
    return {
        p["name"].lower(): re.compile(p["schema"]["pattern"])
        for p in parameters
        if p["in"] == "header" and "pattern" in p.get("schema", {})
    }


def drop_headers_breaking_their_pattern(case):
    if case.meta is None or case.meta.generation.mode != schemathesis.GenerationMode.POSITIVE or not case.headers:
        return
    patterns = header_patterns(case.method, case.path)
    case.headers = {
        name: value
        for name, value in case.headers.items()
        if name.lower() not in patterns or patterns[name.lower()].search(str(value))
    }


@schemathesis.hook
def before_call(context, case, kwargs):
    drop_headers_breaking_their_pattern(case)
    if case.method.upper() == "GET" and case.path == "/v1/challenges/{id}":
        challenge_id, _ = challenge("accept")
        case.path_parameters = {**(case.path_parameters or {}), "id": challenge_id}
    if case.method.upper() == "POST" and case.path == "/v1/games/{id}/join":
        game, _ = waiting()
        case.path_parameters = {**(case.path_parameters or {}), "id": game}
