"""Playing in the web viewer (issue 20), in headless Chromium against the whole stack: for Rise of
Tribes, Fate of Akalon and Battlefields of Olympus a person plays a whole match against a bot by
clicking the data-move controls to the end; at several of the person's turns what is drawn is the
API's view of that seat — every card it may see by its printed name, exactly as many as it may see
(so no hidden card), Rise of Tribes' hexes and populations — with no raw JSON on the page. A table
is also created from the index against bots of a chosen level, and a stale or illegal move is
answered as the issue says. Screenshots go to each test's temporary directory."""
import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.support.browser import start_browser
from tests.support.stack import Client, wait_for
from tests.support.viewer_cards import check_drawn
from tests.support.viewer_play import (
    assert_fits_the_window,
    assert_no_raw_json,
    open_as_seat,
    play_by_clicking,
    wait,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.mark.parametrize("game_id", ["rise-of-tribes", "fate-of-akalon", "battlefields-of-olympus"])
def test_a_person_plays_a_whole_match_against_a_bot_by_clicking(stack, browser, game_id, tmp_path):
    person = Client.register(stack, f"clicker-{game_id[:6]}")
    r = person.post(f"{stack.mm}/v1/tables", json={"game": game_id, "seats": [{"player_id": person.player_id},
                                                                              {"bot": "random"}]})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    catalog = requests.get(f"{stack.rules}/v1/games/{game_id}/catalog").json()
    open_as_seat(browser, stack.rules, match_id, person.token)
    wait(browser, lambda d: d.find_element(By.ID, "viewer-as").text.startswith("as seat 0"), what="the seat's view")
    checked = []

    def on_turn(driver, version):
        if len(checked) < 6 and (not checked or version - checked[-1] >= 12):
            checked.append(check_drawn(driver, stack.rules, game_id, match_id, person.token, catalog))
            if len(checked) == 2:
                driver.save_screenshot(str(tmp_path / f"{game_id}-playing.png"))

    played = play_by_clicking(browser, seed=3, on_turn=on_turn, timeout=120, cards=True)
    assert played.clicks > 3 and len(checked) >= 2, (played, checked)
    assert played.card_clicks > 0  # some moves chosen by clicking the card (or hex) itself
    summary = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()
    assert summary["status"] == "finished"
    # every move the person made is in the log as theirs, and they were made by clicking
    events, after = [], 0
    while True:
        page = requests.get(f"{stack.rules}/v1/matches/{match_id}/events", params={"after": after, "limit": 1000}).json()
        events += page["events"]
        if len(page["events"]) < 1000:
            break
        after = page["next_after"]
    mine = [e for e in events if (e.get("cause") or {}).get("seat") == 0 and "move" in (e.get("cause") or {})]
    assert len({e["seq"] for e in mine}) >= played.clicks - played.refreshed
    wait(browser, lambda d: d.find_element(By.ID, "state").get_attribute("data-version") == str(summary["version"]),
         what="the final version drawn")
    assert "The match is over" in browser.find_element(By.ID, "awaited").text
    check_drawn(browser, stack.rules, game_id, match_id, person.token, catalog)
    assert_fits_the_window(browser)
    browser.save_screenshot(str(tmp_path / f"{game_id}-finished.png"))
    assert (tmp_path / f"{game_id}-finished.png").stat().st_size > 10_000


def test_a_table_against_bots_is_created_from_the_index_and_played(stack, browser, tmp_path):
    browser.get(f"{stack.rules}/viewer/#/")
    wait(browser, lambda d: d.find_elements(By.ID, "new-table"), what="the new table form")
    Select(browser.find_element(By.ID, "new-game")).select_by_value("duel")
    Select(browser.find_element(By.ID, "new-bot")).select_by_value("greedy")
    name = browser.find_element(By.ID, "new-name")
    name.clear()
    name.send_keys(f"indexer-{id(browser) % 100000}")
    browser.find_element(By.ID, "create-table").click()
    wait(browser, lambda d: "#/match/" in d.current_url, what="the new match")
    match_id = browser.current_url.split("#/match/")[1]
    wait(browser, lambda d: d.find_element(By.ID, "viewer-as").text.startswith("as seat 0"), what="the seat's view")
    summary = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()
    assert summary["seats"][1]["bot"] == "greedy" and summary["game"] == "duel"
    assert browser.find_element(By.ID, "game-title").text == "Duel"
    played = play_by_clicking(browser, seed=1)
    # three rounds, one card each, committed by clicking (both seats commit at once: a click the
    # bot's commit overtakes is answered 409 and made again, so the log counts, not the clicks)
    assert played.clicks >= 3
    events = requests.get(f"{stack.rules}/v1/matches/{match_id}/events", params={"limit": 1000}).json()["events"]
    assert [e["data"]["seat"] for e in events if e["type"] == "committed"].count(0) == 3
    wait(browser, lambda d: d.find_element(By.ID, "status").text == "finished", what="the end")
    assert_no_raw_json(browser)
    browser.save_screenshot(str(tmp_path / "duel-from-the-index.png"))


def duel_awaiting_the_person(stack, name: str, rounds: int) -> tuple[Client, str, str]:
    """A Duel of a new player against a random bot, once the bot has decided and only the person
    is to act: the person, the match id and the match's URL."""
    person = Client.register(stack, name)
    r = person.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"player_id": person.player_id},
                                                                            {"bot": "random"}], "options": {"rounds": rounds}})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    api = f"{stack.rules}/v1/matches/{match_id}"
    wait_for(lambda: requests.get(api).json()["to_act"] == [0], 60, what="the bot's decision")
    return person, match_id, api


def test_a_stale_move_refreshes_and_an_illegal_one_shows_its_reason(stack, browser, tmp_path):
    person, match_id, api = duel_awaiting_the_person(stack, "stale", rounds=2)
    open_as_seat(browser, stack.rules, match_id, person.token)
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play[data-ready='1'] button[data-move]"), what="the controls")
    # every POST the page makes goes through a wrapper that may alter its body and records the status
    browser.execute_script("""
        window.__statuses = []; window.__alter = null; const real = window.fetch;
        window.fetch = async (u, o) => {
          if (o && o.method === 'POST' && window.__alter) { const b = JSON.parse(o.body); window.__alter(b);
            o = {...o, body: JSON.stringify(b)}; }
          const resp = await real(u, o);
          if (o && o.method === 'POST') window.__statuses.push(resp.status);
          return resp; };""")
    # an illegal move (a card the seat does not hold): the API's reason is shown, the controls stay
    browser.execute_script("window.__alter = (b) => { b.move.card = 99; }")
    browser.find_element(By.CSS_SELECTOR, "#play button[data-move]").click()
    wait(browser, lambda d: "refused (422)" in d.find_element(By.ID, "play-message").text, what="the reason")
    assert browser.find_elements(By.CSS_SELECTOR, "#play[data-ready='1'] button[data-move]:not([disabled])")
    browser.save_screenshot(str(tmp_path / "illegal.png"))
    # a stale one (an expected_version the match has moved past): 409, and the page shows it as it is now
    version = requests.get(api).json()["version"]
    browser.execute_script("window.__alter = (b) => { b.expected_version = b.expected_version - 1; }")
    browser.find_element(By.CSS_SELECTOR, "#play button[data-move]").click()
    wait(browser, lambda d: 409 in d.execute_script("return window.__statuses"), what="the 409")
    wait(browser, lambda d: d.find_element(By.ID, "play").get_attribute("data-ready") == "1"
         and d.find_element(By.ID, "play").get_attribute("data-turn-version") == str(version), what="the refreshed controls")
    # and the untouched move goes through
    browser.execute_script("window.__alter = null")
    browser.find_element(By.CSS_SELECTOR, "#play button[data-move]").click()
    # (the page records the answer once its fetch resolves, which may be after the log has the move)
    wait(browser, lambda d: len(d.execute_script("return window.__statuses")) == 3, what="the move's answer")
    assert browser.execute_script("return window.__statuses") == [422, 409, 201]
    assert requests.get(api).json()["version"] > version


def test_a_read_that_fails_after_a_move_is_retried_until_the_page_shows_the_head(stack, browser):
    """After an accepted move the page reads the match again; when those reads fail for a while (the
    service busy, a rate limit, a dropped connection) it retries them and draws the version the move
    made, with no help from the match's stream (which this page never gets)."""
    person, match_id, api = duel_awaiting_the_person(stack, "retrier", rounds=3)
    # in every page from now on: the match's stream never answers, and once a move is posted the
    # next four reads fail as a dropped connection does
    planted = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__failing = 0; const real = window.fetch;
        window.fetch = async (u, o) => {
          if (String(u).includes('/stream')) return new Promise(() => {});
          if (window.__failing > 0 && (!o || !o.method || o.method === 'GET')) {
            window.__failing -= 1; throw new TypeError('Failed to fetch (planted by the test)'); }
          if (o && o.method === 'POST') window.__failing = 4;
          return real(u, o); };"""})
    try:
        open_as_seat(browser, stack.rules, match_id, person.token)
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play[data-ready='1'] button[data-move]"),
             what="the controls")
        version = requests.get(api).json()["version"]
        browser.find_element(By.CSS_SELECTOR, "#play button[data-move]").click()
        wait_for(lambda: requests.get(api).json()["version"] > version, 60, what="the move")
        wait(browser, lambda d: d.execute_script("return window.__failing") == 0, what="the planted failures used up")
        wait(browser, lambda d: int(d.find_element(By.ID, "state").get_attribute("data-version") or 0) > version,
             what="the version the move made drawn after the failed reads")
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": planted["identifier"]})
