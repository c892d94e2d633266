"""The course of the game: skirmish, then battles of seven steps, until a victor.

``advance`` runs every automatic step until some seat has to decide (or the game is over):
it first reshuffles empty decks, then resolves queued effects, then pending simultaneous
triggers, then the current step. Steps, in order: ``skirmish`` -> ``attacker`` (the skirmish
loser's choice) -> per battle ``play`` (1 Attack, 2 Defend) -> ``after_all`` and the fight
(3) -> ``aftermath`` (4) -> ``initiative`` (5 Initiative, 6 Victory?, 7 Reinforce) -> ``next``
(Cemetery triggers done: out-of-cards check, next battle).
"""
from __future__ import annotations

from shared.engine.game import Tx

from . import effects, piles, triggers
from .cards import card, total_value, value
from .scoring import final_result
from .table import alive_seats, clockwise_from, left_of, team_of
from .values import active_text, battlefield_values, card_values, may_play_more

HAND_SIZE = 5
CEMETERY_LIMIT = 30
TEAM_CEMETERY_LIMIT = 60
MAX_BATTLES = 400  # house safety valve, see NOTES.md


def advance(tx: Tx) -> None:
    st = tx.state
    while st["step"] != "over":
        piles.settle(tx)
        if st["pending"]:
            return
        if st["queue"]:
            effects.resolve_next(tx)
        elif st["rounds"]:
            triggers.step(tx)
        else:
            STEPS[st["step"]](tx)


# ----- skirmish ---------------------------------------------------------------------------


def skirmish(tx: Tx) -> None:
    """Top cards face up, text ignored; highest wins (teams: highest total); ties go again."""
    st = tx.state
    flips = []
    for s in st["skirmish"]:
        piles.reshuffle_if_empty(tx, s)
        deck = st["zones"][s]["deck"]
        if deck:
            flips.append([s, deck[0]])
    tx.emit("flip", {"cards": flips})
    shown = {s: value(c) for s, c in flips}
    val = {s: shown.get(s, -1) for s in st["skirmish"]}
    if st["teams"]:
        totals = [sum(val[s] for s in team) for team in st["teams"]]
        if totals[0] == totals[1]:
            _skirmish_cards_to(tx, list(val), "discard")
            return
        win = 0 if totals[0] > totals[1] else 1
        winners, losers = st["teams"][win], st["teams"][1 - win]
        chooser = min(losers)
    else:
        best = max(val.values())
        top = [s for s in st["skirmish"] if val[s] == best]
        losers = [s for s in st["skirmish"] if val[s] != best]
        _skirmish_cards_to(tx, losers, "cemetery")
        if len(top) > 1:
            _skirmish_cards_to(tx, top, "discard")
            tx.emit("step", {"skirmish": top})
            return
        winners = top
        chooser = left_of(st, top[0])
    _skirmish_cards_to(tx, winners, "discard")
    _skirmish_cards_to(tx, losers, "cemetery")
    tx.emit("step", {"step": "attacker", "skirmish": []})
    tx.emit("push", {"decision": {"seat": chooser, "kind": "attacker"}})


def _skirmish_cards_to(tx: Tx, seats: list[int], dst: str) -> None:
    for s in seats:
        piles.move(tx, s, piles.field_cards(tx.state, s), "field", dst)


def first_attacker_chosen(tx: Tx, seat: int) -> None:
    """The skirmish loser named the first attacker: everyone draws 5, the first battle starts."""
    tx.emit("step", {"attacker": seat})
    for s in clockwise_from(tx.state, seat):
        piles.draw(tx, s, HAND_SIZE)
    start_battle(tx)


def start_battle(tx: Tx) -> None:
    st = tx.state
    lead = st["attacker"]
    if not st["alive"][lead]:
        lead = left_of(st, lead)
    tx.emit("battle", {"n": st["battles"] + 1, "attacker": lead, "order": clockwise_from(st, lead)})


# ----- 1) attack, 2) defend ---------------------------------------------------------------


def play_step(tx: Tx) -> None:
    """Each seat in order from the attacker plays one card (none with an empty hand)."""
    st = tx.state
    b = st["battle"]
    if b["turn"] >= len(b["order"]):
        tx.emit("step", {"step": "after_all"})
        return
    seat = b["order"][b["turn"]]
    if st["zones"][seat]["hand"] and may_play_more(st, seat):
        tx.emit("turn", {"ask": seat})
    else:
        tx.emit("turn")


# ----- 3) fight ---------------------------------------------------------------------------


def after_all(tx: Tx) -> None:
    """**After all cards are played** triggers (in rounds), then the fight."""
    st = tx.state
    active = active_text(st)
    done = set(st["battle"]["triggered"])
    found: dict[int, list[list]] = {}
    for e in st["field"]:
        c = e["card"]
        if c in active and c not in done and card(c).has("after_all"):
            found.setdefault(e["seat"], []).append([c, "after_all"])
    if not triggers.start_round(tx, found):
        fight(tx)


def fight_result(st: dict, totals: list[int]) -> tuple[list[int], int]:
    """Winning seats (empty when everyone loses) and the default next (lead) attacker."""
    b = st["battle"]
    order, lead = b["order"], b["attacker"]
    if st["teams"]:
        mine = team_of(st, lead)
        side = [sum(totals[s] for s in order if team_of(st, s) == t) for t in (0, 1)]
        att, dfn = side[mine], side[1 - mine]
        if att > dfn:
            return [s for s in order if team_of(st, s) == mine], lead
        if dfn > att:
            return [s for s in order if team_of(st, s) != mine], left_of(st, lead)
        return [], lead
    best = max(totals[s] for s in order)
    top = [s for s in order if totals[s] == best]
    if len(top) == 1:
        return top, top[0]
    if lead in top:
        return [], lead
    return [], left_of(st, lead)


def fight(tx: Tx) -> None:
    st = tx.state
    active = active_text(st)
    values = card_values(st, active)
    totals = battlefield_values(st, values)
    winners, nxt = fight_result(st, totals)
    losers = [s for s in st["battle"]["order"] if s not in winners]
    tx.emit("fight", {
        "totals": totals, "values": values, "winners": winners, "losers": losers, "next": nxt,
        "field": [dict(e, active=e["card"] in active) for e in st["field"]],
    })


# ----- 4) aftermath -----------------------------------------------------------------------


def aftermath(tx: Tx) -> None:
    """Defeated cards to the cemetery; victorious cards on top of the discard in the owner's
    chosen order; then **Victorious** / **Defeated** triggers."""
    st = tx.state
    res = st["battle"]["result"]
    for s in res["winners"]:
        cards = piles.field_cards(st, s)
        if len(effects.distinct(cards)) > 1:
            tx.emit("push", {"decision": {"seat": s, "kind": "stack"}})
            return
        piles.move(tx, s, cards, "field", "discard")
    for s in res["losers"]:
        piles.move(tx, s, piles.field_cards(st, s), "field", "cemetery")
    tx.emit("step", {"step": "initiative"})
    done = set(st["battle"]["triggered"])
    found: dict[int, list[list]] = {}
    for e in res["field"]:
        on = "victorious" if e["seat"] in res["winners"] else "defeated"
        if e["active"] and e["card"] not in done and card(e["card"]).has(on):
            found.setdefault(e["seat"], []).append([e["card"], on])
    triggers.start_round(tx, found)


# ----- 5) initiative, 6) victory, 7) reinforce ---------------------------------------------


def initiative(tx: Tx) -> None:
    """5) The winner (or the chosen player, the last such choice prevailing) attacks next;
    6) a cemetery value of 30 (teams: 60) ends the game or, with three players, sends that
    player out; 7) players with no cards in hand draw 5, then their **Cemetery** cards trigger."""
    st = tx.state
    b = st["battle"]
    nxt = b["next"] if b["next"] is not None else b["result"]["next"]
    if victory(tx):
        return
    if not st["alive"][nxt]:
        nxt = left_of(st, nxt)
    empty = [s for s in clockwise_from(st, nxt) if not st["zones"][s]["hand"]]
    for s in empty:
        piles.draw(tx, s, HAND_SIZE)
    tx.emit("step", {"step": "next", "attacker": nxt})
    done = set(b["triggered"])
    found = {
        s: [[c, "cemetery"] for c in st["zones"][s]["cemetery"] if c not in done and card(c).has("cemetery")]
        for s in empty
    }
    triggers.start_round(tx, found)


def cemetery_values(st: dict) -> list[int]:
    return [total_value(z["cemetery"]) for z in st["zones"]]


def victory(tx: Tx) -> bool:
    """True when the game is over."""
    st = tx.state
    cem = cemetery_values(st)
    if st["teams"]:
        if any(sum(cem[s] for s in team) >= TEAM_CEMETERY_LIMIT for team in st["teams"]):
            end_game(tx)
            return True
        return False
    reached = [s for s in alive_seats(st) if cem[s] >= CEMETERY_LIMIT]
    return bool(reached) and leave_or_end(tx, reached)


def leave_or_end(tx: Tx, out: list[int]) -> bool:
    """Players ``out`` leave; True when that ends the game (fewer than two would remain)."""
    st = tx.state
    remaining = [s for s in alive_seats(st) if s not in out]
    if st["teams"] or len(remaining) < 2:
        end_game(tx)
        return True
    tx.emit("leave", {"seats": out})
    return False


def next_battle(tx: Tx) -> None:
    """A player who reinforced but could draw nothing is out of cards (see NOTES.md)."""
    st = tx.state
    out = [s for s in alive_seats(st) if not st["zones"][s]["hand"]]
    if out and leave_or_end(tx, out):
        return
    if st["battles"] >= MAX_BATTLES:
        end_game(tx)
        return
    start_battle(tx)


def end_game(tx: Tx) -> None:
    tx.emit("over", {"result": final_result(tx.state, cemetery_values(tx.state))})


STEPS = {
    "skirmish": skirmish,
    "play": play_step,
    "after_all": after_all,
    "aftermath": aftermath,
    "initiative": initiative,
    "next": next_battle,
}
