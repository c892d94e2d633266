"""A tournament's state, derived by a pure fold of its log; standings and the next pairing are
pure functions of that state (and, for an arena, of the time).

Events: ``tournament.created`` (the settings), ``entrant.invited`` (an invitation: nobody is
seated by it), ``entrant.entered``, ``entrant.withdrew``,
``tournament.started``, ``round.paired`` (tables with their match ids, byes), ``match.recorded``
(a finished match's ranks per seat, teams, head hash), ``tournament.finished``.
"""
from __future__ import annotations

import hashlib

from . import points as pts
from .pairing import arena, pods, roundrobin, swiss


def fold(records: list[dict]) -> dict:
    state: dict = {}
    for rec in records:
        apply(state, rec)
    return state


def apply(state: dict, rec: dict) -> None:
    t, d = rec["type"], rec["data"]
    if t == "tournament.created":
        state.update(settings=d, status="open", entrants={}, order=[], withdrawn=set(), rounds=[], invited={},
                     results={}, started_at=None, finished_at=None, version=0, head_hash=None)
    elif t == "entrant.invited":
        state["invited"][d["player_id"]] = d["name"]
    elif t == "entrant.entered":
        state["entrants"][d["entrant_id"]] = d
        state["order"].append(d["entrant_id"])
        state["invited"].pop(d.get("player_id"), None)  # an invitation accepted
    elif t == "entrant.withdrew":
        state["withdrawn"].add(d["entrant_id"])
        if state["status"] == "open":  # before the start a withdrawal simply leaves
            state["order"].remove(d["entrant_id"])
            del state["entrants"][d["entrant_id"]]
            state["withdrawn"].discard(d["entrant_id"])
    elif t == "tournament.started":
        state.update(status="running", started_at=rec["at"], schedule=d.get("schedule"))
    elif t == "round.paired":
        state["rounds"].append({"round": d["round"], "tables": d["tables"], "byes": d["byes"], "at": rec["at"]})
    elif t == "match.recorded":
        state["results"][d["match_id"]] = d
    elif t == "tournament.finished":
        state.update(status="finished", finished_at=rec["at"])
    state["version"] = rec["seq"]
    state["head_hash"] = rec["hash"]


def match_id_for(tournament_id: str, round_no: int, table_no: int) -> str:
    """The deterministic id of a round's table: the same pairing always names the same match."""
    return "t" + hashlib.sha256(f"tournament:{tournament_id}:{round_no}:{table_no}".encode()).hexdigest()[:31]


# ----- standings -----------------------------------------------------------------------------
def standings(state: dict) -> list[dict]:
    """Best first: points, then Buchholz, Sonneborn–Berger, the rating before the event, entry order."""
    fmt = state["settings"]["format"]
    entrants = state["order"]
    score = {e: 0.0 for e in entrants}
    played = {e: 0 for e in entrants}
    streak = {e: 0 for e in entrants}
    # per entrant: [(opponent, share of the game against that opponent)]
    against: dict[str, list[tuple[str, float]]] = {e: [] for e in entrants}
    for rnd in state["rounds"]:
        for e in rnd["byes"]:
            score[e] += pts.BYE_POINTS
        for table in rnd["tables"]:
            res = state["results"].get(table["match_id"])
            if res is None:
                continue
            seats = table["entrants"]
            ranks, teams = res["ranks"], res.get("teams")
            shares = pts.table_points(ranks, teams)
            for s, e in enumerate(seats):
                played[e] += 1
                if fmt == "arena":
                    score[e] += pts.arena_points(ranks, s, streak[e])
                    streak[e] = streak[e] + 1 if pts.is_win(ranks, s) else 0
                else:
                    score[e] += shares[s]
                for o_seat, o in enumerate(seats):
                    if o != e and not (teams and any(s in t and o_seat in t for t in teams)):
                        vs = 1.0 if ranks[o_seat] > ranks[s] else 0.5 if ranks[o_seat] == ranks[s] else 0.0
                        against[e].append((o, vs))
    buchholz = {e: sum(score[o] for o, _ in against[e]) for e in entrants}
    sb = {e: sum(vs * score[o] for o, vs in against[e]) for e in entrants}
    rating = {e: state["entrants"][e].get("rating") or 0.0 for e in entrants}
    order = sorted(entrants, key=lambda e: (-score[e], -buchholz[e], -sb[e], -rating[e], entrants.index(e)))
    out = []
    for i, e in enumerate(order, start=1):
        ent = state["entrants"][e]
        row = {"rank": i, "entrant_id": e, "name": ent["name"], "points": round(score[e], 4),
               "played": played[e], "withdrawn": e in state["withdrawn"],
               "tiebreaks": {"buchholz": round(buchholz[e], 4), "sonneborn_berger": round(sb[e], 4),
                             "rating": rating[e]}}
        if ent.get("player_id"):
            row["player_id"] = ent["player_id"]
        if ent.get("bot"):
            row["bot"] = ent["bot"]
        out.append(row)
    return out


# ----- what happens next ---------------------------------------------------------------------
def open_matches(state: dict) -> list[dict]:
    return [t for r in state["rounds"] for t in r["tables"] if t["match_id"] not in state["results"]]


def active(state: dict) -> list[str]:
    return [e for e in state["order"] if e not in state["withdrawn"]]


def _history(state: dict) -> list[tuple[str, ...]]:
    return [tuple(t["entrants"]) for r in state["rounds"] for t in r["tables"]]


def _byes(state: dict) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in state["rounds"]:
        for e in r["byes"]:
            out[e] = out.get(e, 0) + 1
    return out


def arena_end(state: dict) -> float:
    return state["started_at"] + state["settings"]["duration_s"]


def arena_cutoff(state: dict) -> float:
    s = state["settings"]
    return arena_end(state) - s.get("cutoff_s", min(30.0, s["duration_s"] / 4))


def next_step(state: dict, now: float) -> tuple[str, dict | None]:
    """("pair", {tables, byes}) | ("finish", None) | ("wait", None): what the log asks for next."""
    if state.get("status") != "running":
        return "wait", None
    s = state["settings"]
    size = s["players_per_match"]
    busy = open_matches(state)
    order = [row["entrant_id"] for row in standings(state) if not row["withdrawn"]]
    if s["format"] == "arena":
        if now >= arena_cutoff(state):
            return ("finish", None) if not busy and now >= arena_end(state) else ("wait", None)
        playing = {e for t in busy for e in t["entrants"]}
        free = [e for e in order if e not in playing]
        last: dict[str, tuple[str, ...]] = {}
        for r in state["rounds"]:
            for t in r["tables"]:
                for e in t["entrants"]:
                    last[e] = tuple(t["entrants"])
        pts_now = {row["entrant_id"]: row["points"] for row in standings(state)}
        tables = arena.pair(free, pts_now, last, size, others_playing=bool(playing))
        return ("pair", {"tables": tables, "byes": []}) if tables else ("wait", None)
    if busy:
        return "wait", None
    done = len(state["rounds"])
    if s["format"] == "swiss":
        if done >= s["rounds"] or len(order) < size:
            return "finish", None
        if size == 2:
            score = {row["entrant_id"]: row["points"] for row in standings(state)}
            tables, byes = swiss.pair(order, score, _history(state), _byes(state))
        else:
            tables, byes = pods.pair(order, size, _history(state), _byes(state))
        return "pair", {"tables": tables, "byes": byes}
    # round robin
    if size == 2:
        schedule = state.get("schedule") or []
        if done >= len(schedule):
            return "finish", None
        gone = state["withdrawn"]
        tables, byes = [], list(schedule[done]["byes"])
        for t in schedule[done]["tables"]:
            present = [e for e in t if e not in gone]
            if len(present) == len(t):
                tables.append(tuple(t))
            else:  # a withdrawn entrant forfeits: the one left takes the point
                byes += present
        return "pair", {"tables": tables, "byes": [b for b in byes if b not in gone]}
    if len(order) < size:
        return "finish", None
    tables, byes = pods.cover_pair(order, size, _history(state), _byes(state))
    if not tables:
        return "finish", None
    return "pair", {"tables": tables, "byes": byes}


def round_robin_schedule(entrants: list[str]) -> list[dict]:
    return [{"tables": [list(t) for t in tables], "byes": byes} for tables, byes in roundrobin.schedule(entrants)]


def present(state: dict) -> dict:
    """The tournament as ``GET /v1/tournaments/{id}`` answers it."""
    s = state["settings"]
    rounds = []
    for r in state["rounds"]:
        matches = []
        for t in r["tables"]:
            res = state["results"].get(t["match_id"])
            m = {"match_id": t["match_id"], "entrants": t["entrants"], "status": "finished" if res else "active"}
            if res:
                m["result"] = {"ranks": res["ranks"], "teams": res.get("teams"), "head_hash": res["head_hash"]}
            matches.append(m)
        rounds.append({"round": r["round"], "matches": matches, "byes": r["byes"]})
    out = {k: s.get(k) for k in ("tournament_id", "game", "format", "players_per_match", "rounds", "duration_s",
                                 "options", "turn_seconds", "max_entrants", "organiser", "created_at")}
    out.update(status=state["status"], rounds_planned=s.get("rounds"), rounds=rounds, standings=standings(state),
               entrants=len(state["order"]), started_at=state["started_at"], finished_at=state["finished_at"],
               version=state["version"], head_hash=state["head_hash"],
               invited=sorted(state["invited"]) if state["status"] == "open" else [])
    if s["format"] == "arena" and state["started_at"] is not None:
        out["ends_at"] = arena_end(state)
    return out
