"""Forming a match: validate the seats, publish "match formed", wait for the rules service."""
from __future__ import annotations

import time
import uuid

import redis
import requests

from shared.engine import registry
from shared.streams import MATCHES_FORMED, publish
from shared.web import ApiError


def check_game(game_id: str, players: int, options: dict) -> dict:
    """The options with defaults; 422 for an unknown game, a bad player count or bad options."""
    try:
        game = registry.get(game_id)
    except KeyError:
        known = ", ".join(g.id for g in registry.all_games())
        raise ApiError(422, "Unprocessable Entity", f"unknown game {game_id!r}; games: {known}", "unknown-game") from None
    try:
        return game.validate_options(players, options)
    except ValueError as err:
        raise ApiError(422, "Unprocessable Entity", str(err), "bad-options") from None


class Former:
    def __init__(self, client: redis.Redis, rules_url: str, wait_s: float):
        self.r = client
        self.rules_url = rules_url
        self.wait_s = wait_s
        self.http = requests.Session()

    def publish(self, game: str, seats: list[dict], options: dict, turn_seconds: float | None,
                match_id: str | None = None) -> str:
        """Put the "match formed" message on its stream; returns the match id."""
        match_id = match_id or uuid.uuid4().hex
        publish(self.r, MATCHES_FORMED, {"match_id": match_id, "game": game, "options": options, "seats": seats,
                                         "turn_seconds": turn_seconds})
        return match_id

    def form(self, game: str, seats: list[dict], options: dict, turn_seconds: float | None,
             match_id: str | None = None) -> str:
        """Publish the match and return its id once the rules service can serve it."""
        match_id = self.publish(game, seats, options, turn_seconds, match_id)
        deadline = time.time() + self.wait_s
        while time.time() < deadline:
            try:
                if self.http.get(f"{self.rules_url}/v1/matches/{match_id}", timeout=5).status_code == 200:
                    return match_id
            except requests.RequestException:
                pass
            time.sleep(0.05)
        raise ApiError(503, "Service Unavailable", f"match {match_id} was formed but the rules service has not "
                       f"created it yet; GET {self.rules_url}/v1/matches/{match_id} later", "match-pending",
                       match_id=match_id)
