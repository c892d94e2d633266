"""Driving the web viewer in a browser as a person would: open a match as a seat (its token kept
in the page's sessionStorage, as the index's "Create and play" leaves it), and play it to its end
by clicking the ``data-move`` controls the page draws for the seat to act — any game, the moves
chosen at random (seeded) among those drawn. ``on_turn`` sees the page at each of the seat's turns
(to check what is drawn against the API at several versions)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

IGNORED = (NoSuchElementException, StaleElementReferenceException)


def wait(driver, predicate, timeout: float = 60, what: str = "the page"):
    """Until ``predicate(driver)`` is truthy (an element redrawn meanwhile is looked up again); a
    timeout says what the page showed."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=IGNORED).until(
            lambda d: predicate(d), message=f"waiting for {what}")
    except TimeoutException:
        shown = driver.execute_script(
            "const t = (id) => (document.getElementById(id) || {}).innerText || ''; "
            "return {awaited: t('awaited'), play: t('play').slice(0, 600), events: t('events').slice(0, 600), "
            "problem: t('token-problem'), live: t('live'), message: t('play-message'), "
            "head: t('head-version'), shown: (document.getElementById('state') || {dataset: {}}).dataset.version, "
            "url: location.href}")
        raise AssertionError(f"timed out waiting for {what}; the page showed {shown}") from None


def open_as_seat(driver, base: str, match_id: str, token: str | None) -> None:
    """Open the match's page with ``token`` as the seat's (None: as a spectator), at its head."""
    driver.get(f"{base}/viewer/")
    if token:
        driver.execute_script("sessionStorage.setItem(arguments[0], arguments[1])", f"viewer-token:{match_id}", token)
    else:
        driver.execute_script("sessionStorage.removeItem(arguments[0])", f"viewer-token:{match_id}")
    driver.get(f"{base}/viewer/#/match/{match_id}")
    wait(driver, lambda d: d.execute_script(
        "const h = document.querySelector('h1 code'); const s = document.getElementById('state');"
        "const v = document.getElementById('head-version');"
        "return h && h.textContent === arguments[0] && s && v && s.dataset.version === v.textContent", match_id),
        what=f"match {match_id} at its head")


# the page's state in one read: finished? the seat's controls ready at the head? which version?
_PAGE = """
const status = document.getElementById('status'), head = document.getElementById('head-version');
const play = document.getElementById('play'), state = document.getElementById('state');
const msg = document.getElementById('play-message');
return {status: status && status.textContent, head: head && Number(head.textContent),
        shown: state && state.dataset.version, ready: play && play.dataset.ready === '1',
        turn: play && Number(play.dataset.turnVersion || 0),
        moves: play ? play.querySelectorAll('button[data-move]:not([disabled])').length : 0,
        message: msg ? msg.textContent : ''};
"""


def page_state(driver) -> dict:
    return driver.execute_script(_PAGE)


@dataclass
class Played:
    clicks: int = 0
    turns: list[int] = field(default_factory=list)  # the versions at which the seat clicked
    refreshed: int = 0                               # moves answered 409 (the match moved on)
    card_clicks: int = 0                             # moves chosen by clicking a drawn card


def play_by_clicking(driver, *, seed: int = 0, max_clicks: int = 1500, on_turn=None, timeout: float = 120,
                     prefer=None, cards: bool = False) -> Played:
    """Click the seat's controls until the match is over; ``prefer(labels) -> index | None`` may pick
    a control by its label instead of at random; with ``cards``, every other turn where the page
    makes a drawn card (or hex) clickable, that is clicked instead of a button. Fails on a refused
    move or when the page stalls."""
    rnd = random.Random(seed)
    out = Played()
    while out.clicks < max_clicks:
        def settled(d):
            p = page_state(d)
            if p["status"] != "active":
                return p
            if p["ready"] and p["moves"] and p["turn"] == p["head"] and p["shown"] == str(p["head"]):
                return p
            return False
        p = wait(driver, settled, timeout, "the seat's turn or the end of the match")
        if p["status"] != "active":
            return out
        if on_turn:
            on_turn(driver, p["head"])
        buttons = driver.find_elements(By.CSS_SELECTOR, "#play[data-ready='1'] button[data-move]:not([disabled])")
        if not buttons:
            continue  # redrawn between the two reads
        try:
            choice = prefer([b.text for b in buttons]) if prefer else None
        except StaleElementReferenceException:
            continue  # redrawn while the labels were read (another seat moved meanwhile)
        target = buttons[choice if choice is not None else rnd.randrange(len(buttons))]
        playable = driver.find_elements(By.CSS_SELECTOR, "#state .playable") if cards and out.clicks % 2 else []
        if playable and choice is None:
            target = playable[rnd.randrange(len(playable))]
            out.card_clicks += 1
        try:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
            target.click()
        except (StaleElementReferenceException, ElementClickInterceptedException):
            continue
        out.clicks += 1
        out.turns.append(p["head"])

        def answered(d, p=p):
            q = page_state(d)
            if q["status"] != "active" or q["turn"] != p["turn"] or q["head"] != p["head"]:
                return q
            if q["message"].startswith("That move was refused"):
                return q
            if q["message"].startswith("The match moved on"):
                return q
            return False
        q = wait(driver, answered, timeout, "the move's answer")
        assert not q["message"].startswith("That move was refused"), q["message"]
        if q["message"].startswith("The match moved on"):
            out.refreshed += 1
    raise AssertionError(f"the match did not end within {max_clicks} clicks")


# ----- reading what the page draws ---------------------------------------------------------------

def drawn_cards(driver, within: str = "#state") -> dict[str, int]:
    """How many times each content id is drawn as a card (``[data-card]``) inside ``within``."""
    return driver.execute_script(
        "const out = {}; for (const e of document.querySelectorAll(arguments[0] + ' [data-card]'))"
        " out[e.dataset.card] = (out[e.dataset.card] || 0) + 1; return out;", within)


def body_text(driver) -> str:
    return driver.execute_script("return document.body.innerText")


def assert_no_raw_json(driver) -> None:
    """No JSON object or list printed anywhere on the page (and no literal null)."""
    text = body_text(driver)
    for needle in ('{"', '":', '["', "null"):
        assert needle not in text, (needle, text[max(0, text.find(needle) - 200):text.find(needle) + 200])


def assert_fits_the_window(driver) -> None:
    """Nothing widens the page beyond the window (long events wrap or scroll inside their panel)."""
    width, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, (width, inner)
