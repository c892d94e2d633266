"""Step 4: conflict in every hex over the population limit, in the current player's order.

Per hex: the current player's Bow removes one defender first (optional), a player with Evasion
may retreat, then every side present (players, and Invaders) removes one member at a time,
simultaneously, until at most one side remains; a lone player over the limit removes members
down to it. Deserted villages fall by the at-any-time village rule (see ``reducer``).
"""
from __future__ import annotations

from .board import (invaders_at, members, neighbours, population, population_limit, seats_in,
                    tribe_total)
from .content import EVENTS
from .decisions import ask, register, resolve
from .event_cards import leave
from .goals import has_ability
from .powers import has_power
from .slots import raiders_at


def overfull(state: dict) -> list[int]:
    limit, fought = population_limit(state), state["turn"].get("fought", [])
    return [h for h in range(len(state["terrain"]))
            if h not in fought and tribe_total(state, h) > 0 and population(state, h) > limit]


def _persist(tx, fight: dict) -> None:
    """Record a conflict in progress (only needed while a decision inside it is awaited)."""
    tx.emit("turn_set", {"set": {"fight": fight}})


def begin(tx, hex_: int) -> None:
    seat = tx.state["turn"]["seat"]
    _continue(tx, {"hex": hex_, "stage": "bow", "attacker_present": members(tx.state, hex_, seat) > 0})


def proceed(tx) -> str | None:
    """Step 4: start the next conflict, or continue the one a decision interrupted; "goals" once
    no conflict is left (the flow loop calls it until it asks or moves on)."""
    state = tx.state
    fight = state["turn"]["fight"]
    if fight is not None:
        _continue(tx, fight)
        return None
    hexes = overfull(state)
    if not hexes:
        return "goals"
    if len(hexes) == 1:
        begin(tx, hexes[0])
    else:
        ask(tx, state["turn"]["seat"], "conflict_order", options=hexes)
    return None


def _continue(tx, fight: dict) -> None:
    """Bow, then Evasion, then the removal rounds; stops where a player must decide."""
    state, h = tx.state, fight["hex"]
    if fight["stage"] == "bow":
        fight = dict(fight, stage="evade")
        if bow_targets(state, h):
            _persist(tx, fight)
            ask(tx, state["turn"]["seat"], "bow", hex=h)
            return
    if fight["stage"] == "evade":
        fight = dict(fight, stage="fight")
        evaders = [s for s in seats_in(state, h) if has_power(state, s, "evasion") and retreats(state, h, s)]
        if evaders:
            _persist(tx, fight)
            for s in evaders:
                ask(tx, s, "evade", hex=h)
            return
    fight_out(tx, h, fight["attacker_present"])


def bow_targets(state: dict, hex_: int) -> list[int]:
    """Defenders the current player's Bow may hit (only on their turn, when they are present)."""
    seat = state["turn"]["seat"]
    if not has_ability(state, seat, "bow") or members(state, hex_, seat) == 0:
        return []
    return [s for s in seats_in(state, hex_) if s != seat]


def retreats(state: dict, hex_: int, seat: int) -> list[int]:
    """Evasion: adjacent hexes holding only ``seat``'s tribe that the retreat would not overfill."""
    limit, mine = population_limit(state), members(state, hex_, seat)
    out = []
    for d in neighbours(state, hex_):
        row = state["pop"][d]
        if row[seat] > 0 and sum(row) == row[seat] and invaders_at(state, d) == 0 and row[seat] + mine <= limit:
            out.append(d)
    return out


def removals(counts: list[int], raiders: int, limit: int) -> tuple[list[int], int]:
    """Simultaneous removal: each side present (each player, and the raiders) loses one per
    round until at most one side is left; a lone player still over the limit then removes down
    to it. Returns the members removed per seat and the raiders removed."""
    counts, removed, raiders_removed = list(counts), [0] * len(counts), 0
    while sum(1 for c in counts if c > 0) + (1 if raiders > 0 else 0) >= 2:
        for s, c in enumerate(counts):
            if c > 0:
                counts[s] -= 1
                removed[s] += 1
        if raiders > 0:
            raiders -= 1
            raiders_removed += 1
    for s, c in enumerate(counts):
        if c > limit:
            removed[s] += c - limit
    return removed, raiders_removed


def fight_out(tx, hex_: int, attacker_present: bool) -> None:
    state = tx.state
    raiders, slot = raiders_at(state, hex_)
    removed, raiders_removed = removals(state["pop"][hex_], raiders, population_limit(state))
    tx.emit("conflict_resolved", {"hex": hex_, "removed": removed, "raiders": raiders_removed, "slot": slot})
    if raiders and raiders_removed == raiders:
        event = state["events"]["slots"][slot]["id"]
        raid = next(e for e in EVENTS[event]["effects"] if e["op"] == "raiders")
        leave(tx, slot)
        if attacker_present:
            tx.emit("score", {"seat": state["turn"]["seat"], "points": raid["points"], "why": event})


def _legal_order(state, d):
    return [{"type": "conflict", "hex": h} for h in d["options"]]


def _play_order(tx, d, move):
    resolve(tx)
    begin(tx, move["hex"])


def _legal_bow(state, d):
    return [{"type": "bow", "target": s} for s in bow_targets(state, d["hex"])] + [{"type": "skip"}]


def _play_bow(tx, d, move):
    resolve(tx)
    if move["type"] == "bow":
        tx.emit("members_removed", {"seat": move["target"], "hex": d["hex"], "count": 1, "why": "bow"})


def _legal_evade(state, d):
    return [{"type": "evade", "hex": h} for h in retreats(state, d["hex"], d["seat"])] + [{"type": "stay"}]


def _play_evade(tx, d, move):
    resolve(tx)
    if move["type"] == "evade":
        count = members(tx.state, d["hex"], d["seat"])
        tx.emit("members_moved", {"seat": d["seat"], "from": d["hex"], "to": move["hex"], "count": count,
                                  "why": "evasion"})


register("conflict_order", _legal_order, _play_order)
register("bow", _legal_bow, _play_bow)
register("evade", _legal_evade, _play_evade)
