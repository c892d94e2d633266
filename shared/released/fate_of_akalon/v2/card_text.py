"""Card Text: the effect vocabulary and its interpreter.

Every card's text is a list of effect primitives in ``data/cards.json``; each primitive has a
moment (``on``: play, continuous, after_all, defeated, victorious, cemetery), an optional
condition (``if``: attacking / defending / holding a card) and an action (``do``). This module interprets the
instant actions; the continuous ones (``modify``, ``ignore_text``, ``limit_plays``) are read
straight off the battlefield by ``combat_values``.

Instant effects wait in ``state["queue"]`` as ``{"card", "seat", "fx"}`` (``fx`` indexes the
card's effect list) and resolve front first; a card played while resolving puts its own effects
in front, so they resolve before the rest of the text that let it be played. An action that
needs a choice pushes a decision ``{"kind": "effect", "do", "inst", "seat"}`` and finishes in
``choose`` once the seat answers.
"""
from __future__ import annotations

from shared.engine.game import Tx

from . import card_areas
from .combat_values import active_text, condition_holds, matches_attribute, may_play_more
from .content import card, kind
from .table import opponents


def _pass() -> dict:
    return {"type": "pass"}


def distinct(cards: list[str]) -> list[str]:
    """One card per kind, first copy first (copies are interchangeable)."""
    seen, out = set(), []
    for c in cards:
        k = kind(c)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def effect_of(inst: dict) -> dict:
    return card(inst["card"]).effects[inst["fx"]]


def enqueue_card(tx: Tx, cid: str, seat: int, on: str) -> None:
    """Queue ``cid``'s effects for moment ``on`` whose conditions hold, ahead of the rest."""
    items = [
        {"card": cid, "seat": seat, "fx": i}
        for i, fx in card(cid).effects_on(on)
        if condition_holds(tx.state, seat, fx)
    ]
    if items:
        tx.emit("enqueue", {"items": items})


def play_card(tx: Tx, seat: int, cid: str, src: str) -> None:
    """Put ``cid`` on the battlefield from area ``src`` and follow its text (unless ignored)."""
    tx.emit("play", {"seat": seat, "card": cid, "from": src})
    if cid in active_text(tx.state):
        enqueue_card(tx, cid, seat, "play")


def ask(tx: Tx, seat: int, inst: dict) -> None:
    tx.emit("push", {"decision": {"seat": seat, "kind": "effect", "do": effect_of(inst)["do"], "inst": inst}})


# ----- the actions ------------------------------------------------------------------------


class Action:
    """One instant effect primitive."""

    def run(self, tx: Tx, inst: dict, fx: dict) -> None:
        raise NotImplementedError

    def moves(self, state: dict, decision: dict, fx: dict) -> list[dict]:
        return []

    def choose(self, tx: Tx, decision: dict, fx: dict, move: dict) -> None:
        raise NotImplementedError


class PlayAnother(Action):
    """"You may play another card" — from hand (optionally only a named card, or only a card
    of one attribute) or the top of the discard; subject to any limit on how many cards the
    seat may play this battle."""

    @staticmethod
    def options(state: dict, seat: int, fx: dict) -> list[str]:
        z = state["zones"][seat]
        if fx["from"] == "discard":
            return z["discard"][:1]
        name = fx.get("name")
        return distinct([c for c in z["hand"]
                         if (name is None or card(c).name == name) and matches_attribute(c, fx)])

    def run(self, tx, inst, fx):
        seat = inst["seat"]
        if not may_play_more(tx.state, seat):
            return
        # Asked whenever the source pile has cards, even if none fits a name or attribute
        # filter: whether a Goblin's owner holds a Hobgoblin must stay secret (the answer is
        # then "pass").
        if tx.state["zones"][seat][fx["from"]]:
            ask(tx, seat, inst)

    def moves(self, state, decision, fx):
        cards = self.options(state, decision["seat"], fx)
        return [{"type": "play", "card": c} for c in cards] + [_pass()]

    def choose(self, tx, decision, fx, move):
        if move["type"] == "play":
            play_card(tx, decision["seat"], move["card"], fx["from"])


class RevealPlay(Action):
    """Reveal the top ``count`` cards of the deck, play one (if still allowed), discard the rest.

    "Play one of them and discard the others": the played card's own text resolves first, and
    only then do the others go to the discard, so that text can never reach them (a Druid
    played this way cannot play a card just revealed). The decision and the follow-up queue
    item name exactly the cards this reveal showed.
    """

    def run(self, tx, inst, fx):
        seat = inst["seat"]
        if "rest" in inst:  # the follow-up: the played card's text is done
            card_areas.move(tx, seat, inst["rest"], "revealed", "discard")
            return
        shown = card_areas.reveal(tx, seat, fx["count"])
        if shown and may_play_more(tx.state, seat):
            ask(tx, seat, dict(inst, shown=shown))
        else:
            card_areas.move(tx, seat, shown, "revealed", "discard")

    def moves(self, state, decision, fx):
        return [{"type": "play", "card": c} for c in distinct(decision["inst"]["shown"])]

    def choose(self, tx, decision, fx, move):
        seat, inst = decision["seat"], decision["inst"]
        rest = [c for c in inst["shown"] if c != move["card"]]
        if rest:
            follow_up = {"card": inst["card"], "seat": seat, "fx": inst["fx"], "rest": rest}
            tx.emit("enqueue", {"items": [follow_up]})
        play_card(tx, seat, move["card"], "revealed")


class Draw(Action):
    def run(self, tx, inst, fx):
        card_areas.draw(tx, inst["seat"], fx["count"])


def _target_moves(state: dict, seat: int) -> list[dict]:
    return [{"type": "target", "seat": s} for s in opponents(state, seat)]


class DiscardRandom(Action):
    """Choose an opponent; that player discards a card at random from their hand (if any)."""

    def run(self, tx, inst, fx):
        opps = opponents(tx.state, inst["seat"])
        if len(opps) == 1:
            self.hit(tx, opps[0])
        elif opps:
            ask(tx, inst["seat"], inst)

    def moves(self, state, decision, fx):
        return _target_moves(state, decision["seat"])

    def choose(self, tx, decision, fx, move):
        self.hit(tx, move["seat"])

    @staticmethod
    def hit(tx: Tx, target: int) -> None:
        hand = tx.state["zones"][target]["hand"]
        if hand:
            card_areas.move(tx, target, [hand[tx.rng.randbelow(len(hand))]], "hand", "discard")


class NextAttacker(Action):
    """Choose who attacks next battle: an opponent, or (optionally) yourself."""

    def run(self, tx, inst, fx):
        seat = inst["seat"]
        if fx["who"] == "self":
            if fx.get("optional"):
                ask(tx, seat, inst)
            else:
                self.set(tx, inst, seat)
            return
        opps = opponents(tx.state, seat)
        if len(opps) == 1:
            self.set(tx, inst, opps[0])
        elif opps:
            ask(tx, seat, inst)

    def moves(self, state, decision, fx):
        if fx["who"] == "self":
            return [{"type": "use"}, _pass()]
        return _target_moves(state, decision["seat"])

    def choose(self, tx, decision, fx, move):
        if move["type"] == "use":
            self.set(tx, decision["inst"], decision["seat"])
        elif move["type"] == "target":
            self.set(tx, decision["inst"], move["seat"])

    @staticmethod
    def set(tx: Tx, inst: dict, seat: int) -> None:
        tx.emit("next_attacker", {"seat": seat, "card": inst["card"]})


class Recover(Action):
    """You may return a card (optionally only of one attribute) from your cemetery to your discard."""

    @staticmethod
    def options(state: dict, seat: int, fx: dict) -> list[str]:
        attr = fx.get("attribute")
        return distinct([c for c in state["zones"][seat]["cemetery"] if attr is None or card(c).attribute == attr])

    def run(self, tx, inst, fx):
        if self.options(tx.state, inst["seat"], fx):
            ask(tx, inst["seat"], inst)

    def moves(self, state, decision, fx):
        return [{"type": "recover", "card": c} for c in self.options(state, decision["seat"], fx)] + [_pass()]

    def choose(self, tx, decision, fx, move):
        if move["type"] == "recover":
            card_areas.move(tx, decision["seat"], [move["card"]], "cemetery", "discard")


class MoveSelf(Action):
    """Move this card from the area it is in to another of its owner's areas."""

    def run(self, tx, inst, fx):
        seat, cid = inst["seat"], inst["card"]
        z = tx.state["zones"][seat]
        for area in ("cemetery", "discard", "hand", "revealed"):
            if cid in z[area] and area != fx["to"]:
                card_areas.move(tx, seat, [cid], area, fx["to"])
                return


ACTIONS: dict[str, Action] = {
    "play_another": PlayAnother(),
    "reveal_play": RevealPlay(),
    "draw": Draw(),
    "discard_random": DiscardRandom(),
    "next_attacker": NextAttacker(),
    "recover": Recover(),
    "move_self": MoveSelf(),
}
CONTINUOUS = ("modify", "ignore_text", "limit_plays")


def resolve_next(tx: Tx) -> None:
    """Resolve the effect at the front of the queue."""
    inst = tx.state["queue"][0]
    tx.emit("dequeue")
    fx = effect_of(inst)
    ACTIONS[fx["do"]].run(tx, inst, fx)


def decision_moves(state: dict, decision: dict) -> list[dict]:
    fx = effect_of(decision["inst"])
    return ACTIONS[fx["do"]].moves(state, decision, fx)


def answer(tx: Tx, decision: dict, move: dict) -> None:
    fx = effect_of(decision["inst"])
    ACTIONS[fx["do"]].choose(tx, decision, fx, move)
