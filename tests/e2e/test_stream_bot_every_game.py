"""The example bot account (scripts/stream_bot.py) plays a whole match of every game (issue 25):
invited by a host to a table filled with the server's bots, it learns of the invitation, of its
turns and of the end only through its per-player stream, and plays to the end."""
from __future__ import annotations

import threading

import pytest
import requests

from shared.engine import registry
from tests.support.stack import Client

pytestmark = pytest.mark.slow

GAMES = sorted(g.id for g in registry.all_games() if g.id != "duel")


@pytest.mark.parametrize("game", GAMES)
def test_the_stream_bot_plays_a_whole_match(stack, game):
    from scripts.stream_bot import StreamBot

    host, account = Client.register(stack, f"sbg-host-{game}"), Client.register(stack, f"sbg-bot-{game}")
    bot = StreamBot(stack.api(account.token), seed=3, log=lambda _m: None)
    result = {}
    runner = threading.Thread(target=lambda: result.update(ended=bot.run(matches=1)), daemon=True)
    runner.start()
    assert bot.connected.wait(60), "the bot did not connect"
    seats = [{"player_id": account.player_id}] + [{"bot": "random"}] * (registry.get(game).min_players - 1)
    r = host.post(f"{stack.mm}/v1/tables", json={"game": game, "seats": seats})
    assert r.status_code == 201, r.text
    runner.join(900)
    assert not runner.is_alive(), "the stream bot did not finish its match"
    match_id = requests.get(f"{stack.mm}/v1/tables/{r.json()['table_id']}", timeout=10).json()["match_id"]
    assert result["ended"] == [match_id]
    match = requests.get(f"{stack.rules}/v1/matches/{match_id}", timeout=10).json()
    assert match["status"] == "finished"
    seat = match["seats"][0]
    assert seat["player_id"] == account.player_id and seat["controller"] == "human" and not seat.get("abandoned")
