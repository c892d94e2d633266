"""A Python client of the tabletop game server's public API (docs/api.md).

    from tabletop_client import Tabletop, ApiProblem, playable

    api = Tabletop()                    # MATCHMAKING_URL / RULES_URL / SCORING_URL, or localhost
    me = api.register("ada")            # the client now acts as ada
    table = api.create_table("arkon", [{"player_id": me.player_id}, {"bot": "greedy"}, {"bot": "random"}])
    turn = api.turn(table["match_id"])  # the seat's view and legal moves, at one version
    api.move(table["match_id"], playable(turn)[0], turn["version"])  # less moves that only undo
    for event in api.stream(table["match_id"]):
        ...
"""
__version__ = "1.0.0"

from .client import (
                     Audit,
                     EventsPage,
                     LegalMoves,
                     MatchItem,
                     MatchPage,
                     MatchSummary,
                     MoveResult,
                     Player,
                     Seat,
                     Tabletop,
                     View,
                     playable,
)
from .errors import ApiProblem, Unavailable
from .sse import ServerEvent, iter_sse

__all__ = ["__version__", "ApiProblem", "Audit", "EventsPage", "LegalMoves", "MatchItem", "MatchPage", "MatchSummary", "MoveResult",
           "Player", "Seat", "ServerEvent", "Tabletop", "Unavailable", "View", "iter_sse", "playable"]
