"""The course of the game between decisions: the skirmish, then battles of seven steps.

``advance`` runs every automatic step until some seat has to decide (or the game is over):
it first reshuffles empty decks, then resolves queued effects, then pending simultaneous
triggers, then the current step. Steps, in order: ``skirmish`` -> ``attacker`` (the skirmish
loser's choice) -> per battle ``play`` (1 Attack, 2 Defend) -> ``after_all`` and the fight
(3) -> ``aftermath`` (4) -> ``initiative`` (5 Initiative, 6 Victory?, 7 Reinforce) -> ``next``
(Cemetery triggers done: out-of-cards check, next battle).
"""
from __future__ import annotations

from shared.engine.game import Tx

from . import card_areas, card_text, simultaneous_effects
from .combat_values import active_text, battlefield_values, card_values, may_play_more, played_after_silencer
from .content import card, total_value
from .scoring import final_result
from .skirmish import skirmish
from .table import alive_seats, clockwise_from, left_of, team_of

HAND_SIZE = 5
CEMETERY_LIMIT = 30
TEAM_CEMETERY_LIMIT = 60
MAX_BATTLES = 400  # house safety valve, see NOTES.md


def advance(tx: Tx) -> None:
    st = tx.state
    while st["step"] != "over":
        card_areas.settle(tx)
        if st["pending"]:
            return
        if st["queue"]:
            card_text.resolve_next(tx)
        elif st["rounds"]:
            simultaneous_effects.step(tx)
        else:
            STEPS[st["step"]](tx)


# ----- after the skirmish -------------------------------------------------------------------


def first_attacker_chosen(tx: Tx, seat: int) -> None:
    """The skirmish loser named the first attacker: everyone draws 5, the first battle starts."""
    tx.emit("step", {"attacker": seat})
    for s in clockwise_from(tx.state, seat):
        card_areas.draw(tx, s, HAND_SIZE)
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
    if not simultaneous_effects.start_round(tx, found):
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
    chosen order; then **Victorious** / **Defeated** triggers. A card played after an opposing
    Tactician has no text (play example 1), so it triggers nothing; the text of a card that was
    on the battlefield before the Tactician came was ignored only while the Tactician stayed
    there, so it fires (every card has left the battlefield by now)."""
    st = tx.state
    res = st["battle"]["result"]
    for s in res["winners"]:
        cards = card_areas.field_cards(st, s)
        if len(card_text.distinct(cards)) > 1:
            tx.emit("push", {"decision": {"seat": s, "kind": "stack"}})
            return
        card_areas.move(tx, s, cards, "field", "discard")
    for s in res["losers"]:
        card_areas.move(tx, s, card_areas.field_cards(st, s), "field", "cemetery")
    tx.emit("step", {"step": "initiative"})
    done = set(st["battle"]["triggered"]) | played_after_silencer(st, res["field"])
    found: dict[int, list[list]] = {}
    for e in res["field"]:
        on = "victorious" if e["seat"] in res["winners"] else "defeated"
        if e["card"] not in done and card(e["card"]).has(on):
            found.setdefault(e["seat"], []).append([e["card"], on])
    simultaneous_effects.start_round(tx, found)


# ----- 5) initiative, 6) victory, 7) reinforce ---------------------------------------------


def initiative(tx: Tx) -> None:
    """5) The winner (or the chosen player, the last such choice prevailing) attacks next;
    6) ``victory``; 7) players with no cards in hand draw 5, then their **Cemetery** cards trigger
    (but for a card played this battle after an opposing Tactician: it has no text this battle)."""
    st = tx.state
    b = st["battle"]
    nxt = b["next"] if b["next"] is not None else b["result"]["next"]
    if victory(tx):
        return
    if not st["alive"][nxt]:
        nxt = left_of(st, nxt)
    empty = [s for s in clockwise_from(st, nxt) if not st["zones"][s]["hand"]]
    for s in empty:
        card_areas.draw(tx, s, HAND_SIZE)
    tx.emit("step", {"step": "next", "attacker": nxt})
    done = set(b["triggered"]) | played_after_silencer(st, b["result"]["field"])
    found = {
        s: [[c, "cemetery"] for c in st["zones"][s]["cemetery"] if c not in done and card(c).has("cemetery")]
        for s in empty
    }
    simultaneous_effects.start_round(tx, found)


def cemetery_values(st: dict) -> list[int]:
    return [total_value(z["cemetery"]) for z in st["zones"]]


def victory(tx: Tx) -> bool:
    """6) Victory? True when the game is over.

    2 players: a cemetery value of 30 or more ends the game. 4 players: a team's combined 60
    or more. 3 players: if exactly one player's value *exceeds* 30, that player leaves and the
    remaining two go on under the 2-player rules (checked at once); otherwise any value of 30
    or more ends the game for everyone.
    """
    st = tx.state
    cem = cemetery_values(st)
    if st["teams"]:
        if any(sum(cem[s] for s in team) >= TEAM_CEMETERY_LIMIT for team in st["teams"]):
            end_game(tx)
            return True
        return False
    alive = alive_seats(st)
    if len(alive) == 3:
        exceeding = [s for s in alive if cem[s] > CEMETERY_LIMIT]
        if len(exceeding) == 1:
            tx.emit("leave", {"seats": exceeding})
            alive = alive_seats(st)
    if any(cem[s] >= CEMETERY_LIMIT for s in alive):
        end_game(tx)
        return True
    return False


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
