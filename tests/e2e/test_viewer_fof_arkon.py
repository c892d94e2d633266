"""Fellowships of Fate and Arkon in the web viewer, in headless Chromium (issue 20): a person plays
a whole match against a bot by clicking the page's data-move controls; at several of its turns the
drawn table is checked against the API's view for that seat (its own cards drawn by printed name,
the opponent's hidden cards — hand, standby, face-down bid, deck — never drawn or named); no raw
JSON anywhere on the page; screenshots go to the test's temporary directory."""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest
import redis
from selenium.webdriver.common.by import By

from shared.eventstore import EventStore
from shared.games.arkon.catalog import catalog as arkon_catalog
from shared.games.fellowships_of_fate.catalog import catalog as fof_catalog
from shared.matches import Matches
from tests.support.browser import start_browser
from tests.support.stack import Client
from tests.support.viewer_cards import CARDS
from tests.support.viewer_play import (
    assert_fits_the_window,
    assert_no_raw_json,
    open_as_seat,
    play_by_clicking,
    wait,
)

pytestmark = pytest.mark.slow

#: what JSON would look like on the page: braces, brackets, "key": pairs
JSON_LIKE = re.compile(r'[{}\[\]]|"\w+"\s*:')
CHECKS = 5  # turns at which the table is checked against the API (spread over the match)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def _ids(value, out=None) -> set[str]:
    """Every string anywhere in a JSON value (card ids among them)."""
    out = set() if out is None else out
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _ids(k, out)
            _ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids(v, out)
    return out


#: one read of the page (atomic: the page cannot redraw during one script): the version drawn,
#: and for each selector the cards drawn in it and its text
_SNAPSHOT = """
const out = {version: (document.getElementById('state') || {dataset: {}}).dataset.version, parts: {}};
for (const sel of arguments[0]) {
  const node = document.querySelector(sel);
  out.parts[sel] = node ? {cards: [...node.querySelectorAll('[data-card]')].map(n => n.dataset.card),
                          text: node.innerText} : {cards: [], text: ''};
}
return out;
"""


class Page:
    """What the page drew at one moment: ``cards(selector)``, ``text(selector)``, ``version``."""

    def __init__(self, driver, selectors):
        snap = driver.execute_script(_SNAPSHOT, ["#state", "#events", "#awaited", *selectors])
        self.version = int(snap["version"]) if str(snap["version"]).isdigit() else None
        self.parts = snap["parts"]

    def cards(self, selector: str) -> list[str]:
        return self.parts[selector]["cards"]

    def text(self, selector: str) -> str:
        return self.parts[selector]["text"]


def screenshot(driver, path) -> None:
    """The whole page (the window made as tall as the page for the shot, then put back)."""
    width, height = driver.execute_script("return [window.outerWidth, window.outerHeight]")
    full = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height, full + 120), 6000))
    try:
        driver.save_screenshot(str(path))
    finally:
        driver.set_window_size(width, height)


def text_of(driver, selector: str) -> str:
    return driver.execute_script("const n = document.querySelector(arguments[0]); return n ? n.innerText : ''", selector)


def assert_no_json(driver):
    body = driver.find_element(By.TAG_NAME, "body").text
    assert not JSON_LIKE.search(body), JSON_LIKE.search(body).group(0) + " in: " + body[:2000]
    for word in ("undefined", "[object object]", "nan"):
        assert not re.search(rf"\b{re.escape(word)}\b", body.lower()), word
    assert_no_raw_json(driver)
    assert_fits_the_window(driver)


class Checker:
    """At a few of the person's turns: the page against the API's view for its seat and against
    the true state (from the match store), which the page must never betray."""

    def __init__(self, stack, client: Client, match_id: str, seat: int, catalog: dict, hidden_of_other, shot_dir, name):
        self.stack, self.client, self.match_id, self.seat = stack, client, match_id, seat
        self.catalog, self.hidden_of_other, self.shot_dir, self.name = catalog, hidden_of_other, shot_dir, name
        self.game_id = catalog["game"]
        self.matches = Matches(EventStore(redis.Redis.from_url(stack.redis_url)))
        self.turns = 0
        self.checked: list[int] = []
        self.hidden_names_checked = 0

    def names(self, ids) -> list[str]:
        return [self.catalog["cards"][i]["name"] for i in ids if i in self.catalog["cards"]]

    def selectors(self) -> list[str]:
        return [f"#state [data-seat='{i}']" for i in (0, 1)] + [f"#state [data-bidder='{i}']" for i in (0, 1)] + \
            ["#state .fof-field"]

    def __call__(self, driver, version: int) -> None:
        self.turns += 1
        if self.turns % 7 != 1 or len(self.checked) >= CHECKS:
            return
        page = Page(driver, self.selectors())
        if page.version is None:
            return
        version = page.version
        base = f"{self.stack.rules}/v1/matches/{self.match_id}"
        view = self.client.get(f"{base}/view", params={"at": version}).json()
        assert view["version"] == version and view["seat"] == self.seat
        events = self.client.get(f"{base}/events", params={"limit": 1000}).json()["events"]
        truth = self.matches.state(self.match_id, at=version)["game"]
        public = _ids(view["state"]) | _ids([e["data"] for e in events if e["seq"] <= version])

        drawn = page.cards("#state")
        assert drawn, "no card drawn"
        # exactly the cards the seat's view shows (so none it hides), each by its printed name
        assert Counter(drawn) == Counter(CARDS[self.game_id](view["state"])), version
        assert set(drawn) <= _ids(view["state"]) | set(self.catalog.get("journals", {}).values()), \
            f"drawn cards the seat's view does not hold: {set(drawn) - _ids(view['state'])}"
        self.check_own(page, view["state"])
        self.check_other(page, view["state"])

        # what only the true state holds (the opponent's hidden cards, the deck) is never named
        secret = {c for c in self.hidden_of_other(truth, 1 - self.seat) if c in self.catalog["cards"]} - public
        said = page.text("#state") + "\n" + page.text("#events")
        for name in self.names(secret):
            if not any(name in self.catalog["cards"][c]["name"] for c in public if c in self.catalog["cards"]):
                assert name not in said, f"hidden card {name!r} named on the page"
                self.hidden_names_checked += 1
        assert page.text("#awaited").strip()
        assert_no_json(driver)
        screenshot(driver, self.shot_dir / f"{self.name}-v{version}.png")
        self.checked.append(version)


class FofChecker(Checker):
    def check_own(self, page, s):
        me = s["seats"][self.seat]
        mine = f"#state [data-seat='{self.seat}']"
        drawn = Counter(page.cards(mine))
        for zone in ("hand", "standby"):
            for member in me[zone]:
                assert drawn[member] >= Counter(me[zone])[member], (zone, member)
        text = page.text(mine)
        for name in self.names(me["hand"] + me["standby"] + [m["id"] for m in me["play"]]):
            assert name in text
        for t in ("strength", "mana", "wisdom"):
            assert f"{self.catalog['tokens'][t]} {me['tokens'][t]}" in text
        field = page.cards("#state .fof-field")
        assert field == [c for c in s["field"] if c]

    def check_other(self, page, s):
        other = 1 - self.seat
        them = s["seats"][other]
        assert isinstance(them["hand"], dict) and isinstance(them["standby"], dict)
        allowed = Counter([m["id"] for m in them["play"]] + [r["id"] for r in them["relics"]] + them["journal"]
                          + them["known_hand"] + [self.catalog["journals"][them["colour"]]])
        drawn = Counter(page.cards(f"#state [data-seat='{other}']"))
        assert not drawn - allowed, f"the opponent's hidden members drawn: {drawn - allowed}"
        text = page.text(f"#state [data-seat='{other}']")
        if them["hand"]["count"]:
            assert re.search(rf"Hand\s+{them['hand']['count']}\b", text), text
        if them["standby"]["count"]:
            assert re.search(rf"Standby \(face down\)\s+{them['standby']['count']}\b", text), text


class ArkonChecker(Checker):
    def check_own(self, page, s):
        drawn = Counter(page.cards(f"#state [data-seat='{self.seat}']"))
        for card, n in Counter(s["hand"]).items():
            assert drawn[card] >= n, ("hand", card)
        for card in s["clans"][self.seat]:
            assert drawn[card] >= 1
        text = page.text(f"#state [data-seat='{self.seat}']")
        for name in self.names(s["hand"]):
            assert name in text

    def check_other(self, page, s):
        other = 1 - self.seat
        allowed = Counter(s["clans"][other]) + Counter(s["known"][other]) + Counter((s["remembered"] or [[]] * 2)[other])
        drawn = Counter(page.cards(f"#state [data-seat='{other}']"))
        assert not drawn - allowed, f"the opponent's hidden hand drawn: {drawn - allowed}"
        text = page.text(f"#state [data-seat='{other}']")
        assert f"Hand: {s['hand_sizes'][other]} card" in text
        bid = s["bid"]
        if bid and bid["revealed"] is None and str(other) in (bid.get("counts") or {}):
            assert not page.cards(f"#state [data-bidder='{other}']"), "a face-down bid drawn by name"
            n = bid["counts"][str(other)]
            if n:
                assert "Face down" in page.text(f"#state [data-bidder='{other}']")


def check_replay(driver, stack, match_id: str, game_id: str, catalog: dict, shot_dir, name: str) -> list[int]:
    """A finished match stepped back as a spectator: at a few versions the table draws exactly
    the cards of the (now open) state, by printed name, with no JSON."""
    client = Client(stack)
    head = client.get(f"{stack.rules}/v1/matches/{match_id}").json()["version"]
    open_as_seat(driver, stack.rules, match_id, None)
    versions = sorted({max(2, head // 4), head // 2, (3 * head) // 4, head})
    for v in versions:
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                              driver.find_element(By.ID, "slider"), v)
        wait(driver, lambda d, v=v: d.execute_script("return document.getElementById('state').dataset.version") == str(v),
             what=f"version {v} drawn")
        state = client.get(f"{stack.rules}/v1/matches/{match_id}/view", params={"at": v}).json()["state"]
        page = Page(driver, [])
        assert page.version == v
        expected = Counter(CARDS[game_id](state))
        assert Counter(page.cards("#state")) == expected, v
        text = page.text("#state")
        for card in expected:
            assert catalog["cards"][card]["name"] in text
        assert_no_json(driver)
        screenshot(driver, shot_dir / f"{name}-replay-v{v}.png")
    return versions


def fof_hidden(truth, other):
    t = truth["seats"][other]
    return list(truth["adventure_deck"]) + list(truth["relic_deck"]) + list(truth["relics_removed"]) + \
        [m for m in t["hand"] if m in truth["adventure_deck"]]


def arkon_hidden(truth, other):
    bid = truth.get("bid") or {}
    commit = (bid.get("commit") or {}).get("values") or {}
    return list(truth["hands"][other]) + list(truth["deck"]) + list(commit.get(str(other), []))


def prefer_fof(rnd):
    """Confirm a full fellowship at once; otherwise half the time a useful control, else leave the
    choice to the helper (a random control, or a drawn card to click)."""
    def prefer(labels):
        for i, label in enumerate(labels):
            if label.startswith("Confirm"):
                return i
        useful = [i for i, label in enumerate(labels) if label != "Skip this icon"]
        return rnd.choice(useful) if useful and rnd.random() < 0.5 else None
    return prefer


def prefer_arkon(rnd):
    def prefer(labels):
        takes = [i for i, label in enumerate(labels) if label.startswith("Take back")]
        rest = [i for i in range(len(labels)) if i not in takes]
        places = [i for i in rest if labels[i].startswith("Place") or labels[i] == "Bid nothing"]
        if places and rnd.random() < 0.5:
            return places[0]
        return rnd.choice(rest) if rest and rnd.random() < 0.5 else None
    return prefer


GAMES = {
    "fellowships-of-fate": (fof_catalog, FofChecker, fof_hidden, prefer_fof),
    "arkon": (arkon_catalog, ArkonChecker, arkon_hidden, prefer_arkon),
}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_person_plays_a_whole_match_against_a_bot_by_clicking(stack, browser, tmp_path, game_id):
    catalog, checker_cls, hidden, prefer = GAMES[game_id]
    person = Client.register(stack, f"clicker-{game_id[:4]}")
    r = person.post(f"{stack.mm}/v1/tables", json={"game": game_id, "seats": [{"player_id": person.player_id}, {"bot": "random"}]})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    open_as_seat(browser, stack.rules, match_id, person.token)
    screenshot(browser, tmp_path / f"{game_id}-start.png")

    check = checker_cls(stack, person, match_id, 0, catalog(), hidden, tmp_path, game_id)
    played = play_by_clicking(browser, seed=20, on_turn=check, prefer=prefer(random.Random(20)), max_clicks=2500, timeout=180,
                              cards=True)

    final = person.get(f"{stack.rules}/v1/matches/{match_id}").json()
    assert final["status"] == "finished", final["status"]
    assert played.clicks > 5 and len(check.checked) >= 2, (played, check.checked)
    if game_id == "arkon":  # a card chosen by clicking it where it is drawn (Fellowships of Fate 3 has no
        assert played.card_clicks > 0, played  # move that one card of the seat's own area names alone)
    # the end as the page draws it: the outcome in words, the log in sentences, no JSON
    wait(browser, lambda d: text_of(d, "#status") == "finished", what="the finished status")
    assert_no_json(browser)
    sentences = browser.find_elements(By.CSS_SELECTOR, "#events .sentence")
    assert sentences and all(s.text.strip() and not JSON_LIKE.search(s.text) for s in sentences)
    screenshot(browser, tmp_path / f"{game_id}-end.png")
    # and replayed, as anyone may once it is over
    assert len(check_replay(browser, stack, match_id, game_id, catalog(), tmp_path, game_id)) >= 3
    assert list(tmp_path.glob(f"{game_id}-*.png"))


def test_the_log_reads_as_sentences_with_hidden_parts_said_as_hidden(stack, browser, tmp_path):
    """An active Arkon match seen by a spectator and by a seat: a face-down bid is said as a count
    ("... bids 2 cards face down") to the spectator, with its cards to the bidder."""
    person = Client.register(stack, "bidder")
    r = person.post(f"{stack.mm}/v1/tables", json={"game": "arkon", "seats": [{"player_id": person.player_id}, {"bot": "random"}]})
    match_id = r.json()["match_id"]
    base = f"{stack.rules}/v1/matches/{match_id}"
    rnd = random.Random(3)
    # the person plays through the API until a bid of its own has been placed with cards in it
    placed = None
    for _ in range(600):
        turn = person.get(f"{base}/turn").json()
        if turn["status"] != "active":
            break
        evs = person.get(f"{base}/events", params={"limit": 1000}).json()["events"]
        placed = next((e for e in evs if e["type"] == "bid_placed" and e["data"]["seat"] == 0 and e["data"]["count"]), None)
        if placed:
            break
        if not turn["moves"]:
            continue
        moves = turn["moves"]
        pick = ([m for m in moves if m["type"] == "put_up"] or [m for m in moves if m["type"] == "pick"]
                if rnd.random() < 0.8 else []) or moves
        person.post(f"{base}/moves", json={"move": rnd.choice(pick), "expected_version": turn["version"]})
    if placed is None:
        pytest.skip("no bid with cards was placed in this match (seeded play ended first)")
    cards = [catalog_name for catalog_name in
             (arkon_catalog()["cards"][c]["name"] for c in placed["data"]["cards"])]

    def sentence_at(token):
        open_as_seat(browser, stack.rules, match_id, token)
        browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
                               browser.find_element(By.ID, "slider"), placed["seq"])
        wait(browser, lambda d: d.execute_script(
            "return document.querySelector('#events li.current') && document.querySelector('#events li.current').dataset.seq"
        ) == str(placed["seq"]), what="the bid event")
        return browser.find_element(By.CSS_SELECTOR, "#events li.current .sentence").text

    if person.get(base).json()["status"] == "active":
        seen_by_spectator = sentence_at(None)
        assert re.search(rf"bids {placed['data']['count']} cards? face down", seen_by_spectator), seen_by_spectator
        screenshot(browser, tmp_path / "arkon-bid-spectator.png")
    seen_by_bidder = sentence_at(person.token)
    assert all(name in seen_by_bidder for name in cards), (seen_by_bidder, cards)
    assert_no_json(browser)
