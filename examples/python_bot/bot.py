"""A sample bot for a Leap Frog server: a newcomer's template.

It uses nothing but the client generated from the server's
`openapi/openapi.json` by openapi-python-client:

    openapi-python-client generate --meta none --path openapi/openapi.json --output-path leapfrog_client

It accepts every challenge sent to its account and plays random legal moves
in each of its games until it has finished as many as asked. It looks for
work every second; a serious bot follows `GET /v1/accounts/{name}/events`
(server-sent events: challenge, game_started, your_turn, game_over) instead,
as `leapfrog bot` does.

The account must be a bot (sign up with "bot": true) and the token one of
its personal access tokens with the `play` scope, in LEAPFROG_BOT_TOKEN.

Usage: bot.py BASE_URL ACCOUNT [GAMES] [DIR_HOLDING_leapfrog_client]
"""

import os
import random
import sys
import time
from typing import TypeVar

if len(sys.argv) > 4:
    sys.path.insert(0, sys.argv[4])

from leapfrog_client import AuthenticatedClient  # noqa: E402
from leapfrog_client.api.accounts import list_account_games  # noqa: E402
from leapfrog_client.api.challenges import accept_challenge, list_challenges  # noqa: E402
from leapfrog_client.api.games import list_game_legal_moves, play_move  # noqa: E402
from leapfrog_client.models import Game, GameStatusView, MoveInput, Problem  # noqa: E402

T = TypeVar("T")


def ok(answer: T | Problem | None) -> T:
    """The answer of a call that succeeded; a refusal stops the bot with its problem."""
    if answer is None or isinstance(answer, Problem):
        raise SystemExit(f"refused: {answer}")
    return answer


def my_turn(game: Game, me: str) -> bool:
    """Whether `me` holds the seat to move in a game being played."""
    if game.status not in (GameStatusView.OPENING, GameStatusView.PLAYING):
        return False
    seat = game.players[game.position.to_move]
    return seat.account and seat.name.lower() == me.lower()


def main() -> None:
    base, me = sys.argv[1], sys.argv[2]
    wanted = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    client = AuthenticatedClient(base_url=base, token=os.environ["LEAPFROG_BOT_TOKEN"])
    finished: set[str] = set()
    while len(finished) < wanted:
        # Challenges sent to this account and still open: take them all.
        for challenge in ok(list_challenges.sync(client=client)).challenges:
            if challenge.status == "open" and (challenge.to or "").lower() == me.lower():
                ok(accept_challenge.sync(challenge.id, client=client))
                print(f"accepted the challenge of {challenge.from_.name}", flush=True)
        # Its games: a random legal move wherever it is to move.
        for game in ok(list_account_games.sync(me, client=client, limit=50)).games:
            if game.status == GameStatusView.OVER:
                if game.id not in finished and game.id in started:
                    finished.add(game.id)
                    print(f"game {game.id} over", flush=True)
                continue
            started.add(game.id)
            if my_turn(game, me):
                moves = ok(list_game_legal_moves.sync(game.id, client=client, limit=100)).moves
                move = random.choice(moves)
                ok(play_move.sync(game.id, client=client, body=MoveInput(path=move.path)))
                print(f"game {game.id}: played {move.notation}", flush=True)
        time.sleep(1)


started: set[str] = set()

if __name__ == "__main__":
    main()
