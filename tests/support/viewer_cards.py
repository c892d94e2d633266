"""The cards each game's renderer draws from a view (the viewer's tests compare them with the
page's ``[data-card]`` elements): every card the view shows, once each, by content id — so a card
the view hides can never be drawn. A game drawn by the generic renderer has no entry here."""
from __future__ import annotations

from collections import Counter

import requests
from selenium.webdriver.common.by import By

from tests.support.viewer_play import assert_no_raw_json, drawn_cards


def base(card_id: str) -> str:
    return str(card_id).split("#")[0]


def visible(value) -> list:
    """The list's entries, or none for a hidden part ({"count": n})."""
    return list(value) if isinstance(value, list) else []


# the cards each renderer draws from a view: every card the view shows, once
def rot_cards(state: dict) -> list[str]:
    out = []
    for seat in state["seats"]:
        out += seat["progress"] + seat["done"] + visible(seat["deck"]) + ([seat["power"]] if seat.get("power") else [])
    out += [slot["id"] for slot in state["events"]["slots"] if slot]
    return out


def foa_cards(state: dict) -> list[str]:
    out = [e["card"] for e in state["field"]]
    for z in state["zones"]:
        out += visible(z["hand"]) + visible(z["deck"]) + z["revealed"] + z["discard"] + z["cemetery"] + z["out"]
    return [base(c) for c in out]


def boo_cards(state: dict) -> list[str]:
    out = list(state["land_pile"]) + list(state["ares_pile"]) + list(state["wdisc"]) + list(state["adisc"])
    b = state.get("battle")
    if b:
        out += ([b["land"]] if b.get("land") else []) + [w["card"] for w in b["line"]]
        out += [a["card"] for a in b["actions"] + b["used"]]
    if state.get("chain"):
        out += [c["card"] for c in state["chain"]["cards"]]
    for s in state["seats"]:
        out += visible(s["hand"]) + visible(s["actions"]) + visible(s["reserve"]) + s["revealed"] + s["lands"]
        out += ([s["bonus"]] if s.get("bonus") else [])
        if not isinstance(s["hand"], list):
            out += s["known"]
    return out


CARDS = {"rise-of-tribes": rot_cards, "fate-of-akalon": foa_cards, "battlefields-of-olympus": boo_cards}


def check_drawn(driver, rules: str, game_id: str, match_id: str, token: str | None, catalog: dict) -> int:
    """The page at its head against the API's view for the same viewer: the cards (by printed name,
    as many as the view shows: no hidden one), RoT's hexes and populations, no JSON. The version."""
    version = int(driver.find_element(By.ID, "state").get_attribute("data-version"))
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    view = requests.get(f"{rules}/v1/matches/{match_id}/view", params={"at": version}, headers=headers).json()
    state = view["state"]
    expected = Counter(CARDS[game_id](state))
    assert Counter(drawn_cards(driver)) == expected, version
    text = driver.find_element(By.ID, "state").text
    for card_id in expected:
        assert catalog["cards"][card_id]["name"] in text, (card_id, version)
    if game_id == "rise-of-tribes":
        hexes = driver.execute_script("return [...document.querySelectorAll('#state svg [data-hex]')]"
                                      ".map(e => [e.dataset.hex, e.dataset.pop, e.textContent])")
        assert len(hexes) == len(state["terrain"])
        for hex_id, pop, label in hexes:
            assert pop == ",".join(str(n) for n in state["pop"][int(hex_id)]), (hex_id, version)
            for n in state["pop"][int(hex_id)]:
                assert not n or str(n) in label
    assert_no_raw_json(driver)
    return version

# Fellowships of Fate and Arkon (their renderers' own module)
from tests.support.viewer_cards_fof_arkon import CARDS as _FOF_ARKON

CARDS.update(_FOF_ARKON)
