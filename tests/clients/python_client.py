"""A whole game through a client generated from openapi/openapi.json by
openapi-python-client: the stateless calls (presets, setup, legal moves,
apply), then a persisted game created and joined without a token (a plain
`Client`) and played to the end with each seat's token. Checked with
`mypy --strict` before it runs.

Usage: python_client.py BASE_URL DIR_HOLDING_leapfrog_client
"""

import sys
from typing import TypeVar

sys.path.insert(0, sys.argv[2])

from leapfrog_client import AuthenticatedClient, Client  # noqa: E402
from leapfrog_client.api.games import (  # noqa: E402
    create_game,
    get_game,
    join_game,
    list_game_legal_moves,
    list_game_moves,
    play_move,
)
from leapfrog_client.api.play import apply_move, create_setup, list_legal_moves  # noqa: E402
from leapfrog_client.api.rules import list_presets  # noqa: E402
from leapfrog_client.models import (  # noqa: E402
    ApplyRequest,
    CreateGameRequest,
    Game,
    GameStatusView,
    JoinRequest,
    OpenSeat,
    LegalMovesRequest,
    MoveInput,
    PlayerInput,
    PositionInput,
    PresetId,
    Problem,
    Rules,
    SetupRequest,
    Status,
)

T = TypeVar("T")


def ok(answer: T | Problem | None) -> T:
    """The answer of a call that succeeded (a refusal fails the program)."""
    assert answer is not None and not isinstance(answer, Problem), answer
    return answer


base = sys.argv[1]
client = Client(base_url=base, raise_on_unexpected_status=True)

ids = [p.id for p in ok(list_presets.sync(client=client))]
assert ids == [PresetId.OLD, PresetId.MURRAY, PresetId.FROGLET, PresetId.KONANE,
               PresetId.CAPTURE, PresetId.ENGLISH, PresetId.TRIANGLE], ids

rules = Rules(preset=PresetId.MURRAY, rows=5, cols=5)
setup = ok(create_setup.sync(client=client, body=SetupRequest(rules=rules, players=2, seed="2")))
assert setup.seed == "2", setup.seed  # seeds travel as decimal strings
assert setup.position.notation == "RWYRW/RWRWW/YWWWY/YGRYG/YYWYW 0 0,0", setup.position.notation

position = PositionInput(board=setup.position.board, ply=setup.position.ply, scores=setup.position.scores)
page = ok(list_legal_moves.sync(client=client, body=LegalMovesRequest(rules=rules, position=position, limit=10)))
assert page.count == 25, page.count
assert len(page.moves) == 10 and page.next_cursor

first = page.moves[0]
played = ok(
    apply_move.sync(client=client, body=ApplyRequest(rules=rules, position=position, move=MoveInput(path=first.path)))
)
assert played.position.ply == 1
assert played.move.notation == first.notation
assert played.status == Status.OPENING
assert played.position.scores[0] == first.gain

# A refusal comes back as a typed problem.
bad = apply_move.sync_detailed(
    client=client,
    body=ApplyRequest(rules=rules, position=position, move=MoveInput(path=["a1", "a3"])),
)
assert bad.status_code == 422, bad.status_code
assert isinstance(bad.parsed, Problem), bad.parsed
assert bad.parsed.type_ == "urn:leapfrog:problem:illegal-move", bad.parsed.type_

# A persisted game, created and joined without a token (a plain Client),
# played to the end: each move with the token of the seat to move, as a
# bearer token of the client.
created = ok(
    create_game.sync(
        client=client,
        body=CreateGameRequest(
            rules=Rules(preset=PresetId.OLD, rows=4, cols=4),
            players=[PlayerInput(name="Ann"), PlayerInput(open_=OpenSeat.PUBLIC)],
            seed=5,
        ),
    )
)
assert created.status == GameStatusView.WAITING, created.status
assert isinstance(created.seats, list), created.seats
joined = ok(join_game.sync(created.id, client=client, body=JoinRequest(name="Bob")))
tokens = {seat.player: seat.token for seat in created.seats}
tokens[joined.seat.player] = joined.seat.token
seats = {player: AuthenticatedClient(base_url=base, token=token) for player, token in tokens.items()}
game = joined.game
while game.status != GameStatusView.OVER:
    moves = ok(list_game_legal_moves.sync(game.id, client=client, limit=1))
    game = ok(play_move.sync(game.id, client=seats[game.position.to_move], body=MoveInput(path=moves.moves[0].path)))
history = ok(list_game_moves.sync(game.id, client=client))
assert len(history.moves) == game.position.ply, (len(history.moves), game.position.ply)
assert game.result is not None and game.result.winners, game.result
assert ok(get_game.sync(game.id, client=client)).version == game.version
print(f"python client: a whole game of {game.position.ply} plies: ok")
