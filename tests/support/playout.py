"""Whole matches played with random legal moves through the match runtime (``Matches``) on a real
Redis: quick finished logs of any game for exports, the index and the viewer."""
from __future__ import annotations

import random

from shared.matches import Matches


def play_random(matches: Matches, match_id: str, game_id: str, players: int, seed: int = 0,
                max_moves: int = 3000, seats: list[dict] | None = None) -> dict:
    """Create the match and play it to its end (aborted after ``max_moves``); the final state."""
    rnd = random.Random(seed)
    seats = seats or [{"player_id": f"p{i}", "name": f"P{i}"} for i in range(players)]
    mstate = matches.create(match_id, game_id, {}, seats)
    moves = 0
    while mstate["status"] == "active" and moves < max_moves:
        seat = rnd.choice(matches.to_act(mstate))
        legal = matches.legal_moves(match_id, seat, head=mstate)["moves"]
        mstate = matches.submit(match_id, seat, rnd.choice(legal), mstate["version"], as_bot=True).state
        moves += 1
    if mstate["status"] == "active":
        mstate = matches.abort(match_id, "test move limit").state
    return mstate
