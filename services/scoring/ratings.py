"""Standings and ratings from a finished match (pure: no Redis).

* Standings: the game's ranks, except that seats that abandoned (timed out or resigned) share
  the last place after everyone who finished; ties keep equal ranks.
* Ratings: openskill's Plackett-Luce model, one rating per (game, entity). An entity is a player
  id, or ``bot:<level>`` for a bot, so every bot level has a rating of its own. Teams are rated
  as teams. When one entity fills several seats of a match (two greedy bots), its new rating is
  the mean of what each seat's result gives.
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
PROVISIONAL_BELOW = 5


def entity(seat: dict) -> str:
    return seat["player_id"] if seat.get("player_id") else f"bot:{seat['bot']}"


def display(mu: float, sigma: float) -> float:
    """The public rating: a conservative estimate (mu - 3 sigma)."""
    return round(mu - 3 * sigma, 3)


@dataclass
class Rating:
    mu: float
    sigma: float
    matches: int = 0

    @property
    def value(self) -> float:
        return display(self.mu, self.sigma)

    def to_json(self) -> dict:
        return {"mu": self.mu, "sigma": self.sigma, "matches": self.matches}

    @staticmethod
    def fresh() -> "Rating":
        r = MODEL.rating()
        return Rating(r.mu, r.sigma, 0)


def standings(message: dict) -> list[dict]:
    outcome = message["outcome"]
    ranks = list(outcome["ranks"])
    abandoned = set(message.get("abandoned") or [])
    if abandoned:  # finishers keep their order; everyone who abandoned shares the last place
        keys = [(1, 0) if i in abandoned else (0, r) for i, r in enumerate(ranks)]
        ranks = [1 + sum(other < key for other in keys) for key in keys]
    out = []
    for seat, info in enumerate(message["seats"]):
        entry = {"seat": seat, "rank": ranks[seat], "score": outcome["scores"][seat]}
        if info.get("player_id"):
            entry["player_id"] = info["player_id"]
        else:
            entry["bot"] = info["bot"]
        if seat in abandoned:
            entry["abandoned"] = True
        out.append(entry)
    return out


def rate(message: dict, table: list[dict], current: dict[str, Rating]) -> dict[str, Rating]:
    """New ratings of every entity of the match, given their current ones."""
    seats = message["seats"]
    teams = message["outcome"].get("teams") or [[s] for s in range(len(seats))]
    rank_of_seat = {row["seat"]: row["rank"] for row in table}
    model_teams = [[MODEL.create_rating([current[entity(seats[s])].mu, current[entity(seats[s])].sigma])
                    for s in team] for team in teams]
    team_ranks = [min(rank_of_seat[s] for s in team) for team in teams]
    rated = MODEL.rate(model_teams, ranks=team_ranks)
    gathered: dict[str, list] = {}
    for team, new_team in zip(teams, rated):
        for seat, new in zip(team, new_team):
            gathered.setdefault(entity(seats[seat]), []).append(new)
    out = {}
    for key, news in gathered.items():
        out[key] = Rating(sum(n.mu for n in news) / len(news), sum(n.sigma for n in news) / len(news),
                          current[key].matches + 1)
    return out
