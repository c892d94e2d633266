"""Bot turns as RQ jobs: ``play_turn(match, seat, version, level)``.

The job plays through the rules service's public API with a token for its seat, exactly like a
human client: it reads the seat's view and legal moves, lets the policy choose, and posts the move
with the expected version. A job for a version that is no longer current does nothing, so a job
that runs twice is harmless.
"""
from __future__ import annotations

import logging
import random
from functools import lru_cache

import requests

from shared.auth import Tokens
from shared.bots.policies import POLICIES, greedy_policy, search_policy
from shared.config import load
from shared.engine import registry
from shared.rng import FastRng

log = logging.getLogger("bots")


@lru_cache(maxsize=1)
def _session() -> requests.Session:
    return requests.Session()


@lru_cache(maxsize=4096)
def _game_of(rules_url: str, match_id: str) -> tuple[str, str]:
    summary = _session().get(f"{rules_url}/v1/matches/{match_id}", timeout=30)
    summary.raise_for_status()
    body = summary.json()
    return body["game"], body["engine"]


def play_turn(match_id: str, seat: int, version: int, level: str) -> str:
    config = load()
    token = Tokens(config.auth_secret).for_bot(match_id, seat, level)
    http = _session()
    headers = {"Authorization": f"Bearer {token}"}
    base = f"{config.rules_url}/v1/matches/{match_id}"
    legal = http.get(f"{base}/legal-moves", headers=headers, timeout=30)
    if legal.status_code == 403:
        return "seat not played by a bot"
    legal.raise_for_status()
    legal = legal.json()
    if legal["version"] != version or not legal["moves"]:
        return "stale"
    view = http.get(f"{base}/view", headers=headers, timeout=30)
    view.raise_for_status()
    view = view.json()
    if view["version"] != version:
        return "stale"
    game = registry.get(*_game_of(config.rules_url, match_id))
    rng = FastRng(random.getrandbits(64))
    if level == "search":
        move = search_policy(game, view["state"], seat, legal["moves"], rng, iterations=config.search_iterations)
    elif level == "greedy":
        move = greedy_policy(game, view["state"], seat, legal["moves"], rng)
    else:
        move = POLICIES["random"](game, view["state"], seat, legal["moves"], rng)
    posted = http.post(f"{base}/moves", json={"move": move, "expected_version": version}, headers=headers,
                       timeout=30)
    if posted.status_code == 409:
        return "stale"
    posted.raise_for_status()
    return f"played version {version}"
