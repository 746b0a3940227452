"""A setup -> legal-moves -> apply round trip through a client generated
from openapi/openapi.json by openapi-python-client.

Usage: python_roundtrip.py BASE_URL DIR_HOLDING_leapfrog_client
"""

import sys

sys.path.insert(0, sys.argv[2])

from leapfrog_client import Client  # noqa: E402
from leapfrog_client.api.play import apply, legal_moves, setups  # noqa: E402
from leapfrog_client.api.rules import presets  # noqa: E402
from leapfrog_client.models import (  # noqa: E402
    ApplyRequest,
    LegalMovesRequest,
    MoveInput,
    PositionInput,
    PresetId,
    Problem,
    Rules,
    SetupRequest,
    Status,
)

client = Client(base_url=sys.argv[1], raise_on_unexpected_status=True)

ids = [p.id for p in presets.sync(client=client)]
assert ids == [PresetId.OLD, PresetId.MURRAY, PresetId.FROGLET, PresetId.KONANE], ids

rules = Rules(preset=PresetId.MURRAY, rows=5, cols=5)
setup = setups.sync(client=client, body=SetupRequest(rules=rules, players=2, seed=2))
assert setup.seed == 2
assert setup.position.notation == "RWYRW/RWRWW/YWWWY/YGRYG/YYWYW 0 0,0", setup.position.notation

position = PositionInput(board=setup.position.board, ply=setup.position.ply, scores=setup.position.scores)
page = legal_moves.sync(client=client, body=LegalMovesRequest(rules=rules, position=position, limit=10))
assert page.count == 25, page.count
assert len(page.moves) == 10 and page.next_cursor

first = page.moves[0]
played = apply.sync(client=client, body=ApplyRequest(rules=rules, position=position, move=MoveInput(path=first.path)))
assert played.position.ply == 1
assert played.move.notation == first.notation
assert played.status == Status.OPENING
assert played.position.scores[0] == first.gain

# A refusal comes back as a typed problem.
bad = apply.sync_detailed(
    client=client,
    body=ApplyRequest(rules=rules, position=position, move=MoveInput(path=["a1", "a3"])),
)
assert bad.status_code == 422, bad.status_code
assert isinstance(bad.parsed, Problem), bad.parsed
assert bad.parsed.type_ == "urn:leapfrog:problem:illegal-move", bad.parsed.type_
print("python client round trip: ok")
