"""The web viewer at /viewer/ in headless Chromium (issues 13 and 20): a finished match of every game
opened, stepped through (buttons, slider, keyboard) to its end, what is drawn checked against the
API (a game with its own renderer: every card it shows, by printed name; the generic renderer:
every value of the view), no raw JSON, nothing wider than the window, the audit with the seed and
its commitment; the match index by game titles; an active match followed live and seen as a seat
with its token; a refused token said and dropped; a tampered log's audit verdict names the first
problem; the security headers, the favicon and the catalogs. Screenshots go to the test's
temporary directory."""
import pytest
import redis
import requests
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from services.rules.index import MatchIndex
from shared.canonical import dumps, loads
from shared.engine import registry
from shared.eventstore import EventStore
from shared.eventstore.store import keys
from shared.matches import Matches
from tests.support.browser import start_browser
from tests.support.playout import play_random
from tests.support.stack import Client, wait_for
from tests.support.viewer_cards import CARDS, check_drawn
from tests.support.viewer_play import assert_fits_the_window, assert_no_raw_json, drawn_cards

pytestmark = pytest.mark.slow

GAMES = ["arkon", "battlefields-of-olympus", "duel", "fate-of-akalon", "fellowships-of-fate", "rise-of-tribes"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def finished(stack):
    """A finished match of every game, played in the stack's own store and indexed."""
    client = redis.Redis.from_url(stack.redis_url)
    matches, index = Matches(EventStore(client)), MatchIndex(client)
    out = {}
    for i, game_id in enumerate(GAMES):
        players = min(3, registry.get(game_id).max_players)
        seats = [{"player_id": f"viewer-p{s}", "name": f"Player {s}"} for s in range(players)]
        match_id = f"viewer-{game_id}"
        final = play_random(matches, match_id, game_id, players, seed=i, seats=seats)
        index.refresh(match_id)
        out[game_id] = (match_id, final)
    return out


def wait(driver, predicate, timeout=60, what="the page"):
    """Until ``predicate(driver)``; an element that the page redrew meanwhile is looked up again."""
    return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=(
        NoSuchElementException, StaleElementReferenceException)).until(lambda d: predicate(d),
                                                                       message=f"waiting for {what}")


def open_match(driver, base, match_id):
    """Open a match's page and wait until it shows that match (not the page before it) at its head."""
    driver.get(f"{base}/viewer/#/match/{match_id}")
    wait(driver, lambda d: d.execute_script(
        "const h = document.querySelector('h1 code'); const s = document.getElementById('state');"
        "const v = document.getElementById('head-version');"
        "return h && h.textContent === arguments[0] && s && v && s.dataset.version === v.textContent", match_id),
        what=f"match {match_id} at its head")


def shown_version(driver):
    return driver.find_element(By.ID, "state").get_attribute("data-version")


def leaves(value, path=""):
    """(path, scalar) for every scalar the viewer draws with a data-path (hidden counts included)."""
    if isinstance(value, dict):
        hidden = "count" in value and all(isinstance(v, int) for v in value.values())
        for k, v in value.items():
            if hidden and k != "count":
                continue
            yield from leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, f"{path}.{i}")
    else:
        yield path, value


def text_of(v):
    return "—" if v is None else "yes" if v is True else "no" if v is False else str(v)


def same(drawn, value):
    """A scalar is drawn as its text; a hidden part ({"count": n}) as "n hidden"."""
    return drawn == text_of(value) or (drawn or "").startswith(f"{text_of(value)} hidden")


def drawn_paths(driver):
    return driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#state [data-path]')]"
        ".map(e => [e.dataset.path, e.textContent]))")


def rendered(stack) -> set[str]:
    """The games drawn by a renderer of their own (the others by the generic one)."""
    return {g["id"] for g in requests.get(f"{stack.rules}/viewer/config.json").json()["games"] if g["renderer"]}


def check_view(browser, stack, game_id, match_id, catalog, version):
    """What the page draws at ``version`` against the API's view: a game with a renderer of its own,
    its cards (tests/support/viewer_cards.py; duel: the numbers); the generic renderer, every value."""
    view = requests.get(f"{stack.rules}/v1/matches/{match_id}/view", params={"at": version}).json()
    assert_no_raw_json(browser)
    if game_id in CARDS:
        assert check_drawn(browser, stack.rules, game_id, match_id, None, catalog) == version
    elif game_id in rendered(stack):
        hands = view["state"]["hands"]
        drawn = drawn_cards(browser)
        assert sum(drawn.values()) == sum(len(h) for h in hands.values() if isinstance(h, list))
        for hand in hands.values():
            for c in hand if isinstance(hand, list) else []:
                assert drawn.get(str(c)), (c, drawn)
    else:
        drawn = drawn_paths(browser)
        checked = 0
        for path, value in leaves(view["state"]):
            assert same(drawn.get(path), value), (version, path, value, drawn.get(path))
            checked += 1
        assert checked > 5


@pytest.mark.parametrize("game_id", GAMES)
def test_a_finished_match_of_every_game_steps_to_its_end_as_the_api_says(stack, browser, finished, game_id, tmp_path):
    match_id, _final = finished[game_id]
    api = f"{stack.rules}/v1/matches/{match_id}"
    summary = requests.get(api).json()
    head = summary["version"]
    open_match(browser, stack.rules, match_id)
    assert shown_version(browser) == str(head)
    assert browser.find_element(By.ID, "status").text == "finished"
    # step: Home, the next button, the keyboard, the slider, End
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    wait(browser, lambda d: shown_version(d) == "1", what="version 1")
    assert "not set up yet" in browser.find_element(By.ID, "state").text
    browser.find_element(By.ID, "next").click()
    wait(browser, lambda d: shown_version(d) == "2", what="version 2")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda d: shown_version(d) == "3", what="version 3 by the keyboard")
    middle = max(1, head // 2)
    browser.execute_script("const s = document.getElementById('slider'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('input'))", middle)
    wait(browser, lambda d: shown_version(d) == str(middle), what="the slider's version")
    catalog = requests.get(f"{stack.rules}/v1/games/{game_id}/catalog").json()
    check_view(browser, stack, game_id, match_id, catalog, middle)
    browser.find_element(By.ID, "last").click()
    wait(browser, lambda d: shown_version(d) == str(head), what="the end again")
    assert browser.find_element(By.ID, "version-label").text == f"version {head} of {head}"
    # what is drawn is what the API serves
    check_view(browser, stack, game_id, match_id, catalog, head)
    assert_fits_the_window(browser)
    result = browser.find_element(By.ID, "result").text
    for seat, rank in enumerate(summary["result"]["ranks"]):
        assert f"Player {seat}: rank {rank}" in result
    events = browser.find_elements(By.CSS_SELECTOR, "#events li")
    assert events[0].get_attribute("data-seq") == str(head) and "Match over" in events[0].text
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-check=chance]").text == "chance ✓", what="the audit")
    assert browser.find_element(By.CSS_SELECTOR, "[data-check=chain]").text == "chain ✓"
    assert browser.find_element(By.CSS_SELECTOR, "[data-check=replay]").text == "replay ✓"
    audit = requests.get(f"{api}/audit").json()
    assert browser.find_element(By.ID, "seed-commitment").text == audit["seed_commitment"]
    assert browser.find_element(By.ID, "seed").text == audit["seed"]
    assert browser.find_element(By.ID, "export").get_attribute("href").endswith(f"/v1/matches/{match_id}/export")
    browser.save_screenshot(str(tmp_path / f"{game_id}.png"))
    assert (tmp_path / f"{game_id}.png").stat().st_size > 10_000


def test_the_index_lists_and_filters_matches(stack, browser, finished, tmp_path):
    browser.get(f"{stack.rules}/viewer/#/?game=duel")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"tr[data-match='{finished['duel'][0]}']"),
         what="the duel in the list")
    rows = browser.find_elements(By.CSS_SELECTOR, "#match-list tbody tr[data-match]")
    expected = [m["match_id"] for m in requests.get(f"{stack.rules}/v1/matches", params={"game": "duel"}).json()["matches"]]
    assert [r.get_attribute("data-match") for r in rows] == expected
    titles = {g["id"]: g["title"] for g in requests.get(f"{stack.rules}/viewer/config.json").json()["games"]}
    assert all(r.find_elements(By.TAG_NAME, "td")[1].text == titles["duel"] for r in rows)
    browser.save_screenshot(str(tmp_path / "index.png"))
    rows[0].find_element(By.TAG_NAME, "a").click()
    wait(browser, lambda d: "#/match/" in d.current_url and shown_version(d) not in (None, "error"), what="a match")


def test_an_active_match_is_followed_live_and_seen_as_a_seat(stack, browser, tmp_path):
    alice = Client.register(stack, "alice-live")
    r = alice.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"bot": "random"}], "options": {"rounds": 4}})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    api = f"{stack.rules}/v1/matches/{match_id}"
    # the bot decides at the same time as alice: wait for it, so that the version holds still for her
    wait_for(lambda: requests.get(api).json()["to_act"] == [0], 60, what="the bot's decision")
    start = requests.get(api).json()["version"]
    open_match(browser, stack.rules, match_id)
    wait(browser, lambda d: d.find_element(By.ID, "live").text == "● live", what="the live stream")
    # as a spectator: every hand hidden (read inside the wait: the page redraws as events arrive)
    wait(browser, lambda d: "hidden" in d.find_element(By.CSS_SELECTOR, "#state .seat-area[data-seat='0']").text
         and not drawn_cards(d), what="alice's hand drawn hidden")
    assert "null" not in browser.find_element(By.ID, "match-info").text
    # alice moves: the page follows to the new version by itself
    legal = alice.get(f"{api}/legal-moves").json()
    moved = alice.post(f"{api}/moves", json={"move": legal["moves"][0], "expected_version": legal["version"]})
    assert moved.status_code == 201, moved.text
    wait_for(lambda: requests.get(api).json()["version"] > start, 60, what="the move")
    wait(browser, lambda d: int(d.find_element(By.ID, "head-version").text) >= moved.json()["version"],
         what="the stream to bring the move")
    wait(browser, lambda d: shown_version(d) == d.find_element(By.ID, "head-version").text, what="following the head")
    # as alice's seat: her own cards, the bot's hidden
    token = browser.find_element(By.ID, "token")
    token.send_keys(alice.token)
    browser.find_element(By.ID, "apply-token").click()
    wait(browser, lambda d: d.find_element(By.ID, "viewer-as").text.startswith("as seat 0 "), what="the seat's view")
    mine = alice.get(f"{api}/view").json()["state"]["hands"]["0"]
    wait(browser, lambda d: drawn_cards(d, "#state .seat-area[data-seat='0']") == {str(c): 1 for c in mine},
         what="her own cards")
    assert not drawn_cards(browser, "#state .seat-area[data-seat='1']")
    assert "hidden" in browser.find_element(By.CSS_SELECTOR, "#state .seat-area[data-seat='1']").text
    browser.save_screenshot(str(tmp_path / "live-as-seat.png"))


def test_the_audit_verdict_names_the_first_problem_of_a_tampered_log(stack, browser, tmp_path):
    client = redis.Redis.from_url(stack.redis_url)
    matches = Matches(EventStore(client))
    play_random(matches, "viewer-tampered", "duel", 2, seed=9)
    key = keys("viewer-tampered")["log"]
    entries = client.xrange(key)
    client.delete(key)
    for i, (entry_id, fields) in enumerate(entries):
        record = loads(fields[b"e"])
        if i == 3:
            record["data"]["forged"] = True
        client.xadd(key, {"e": dumps(record)}, id=entry_id)
    open_match(browser, stack.rules, "viewer-tampered")
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-check=chain]").text == "chain ✗", what="the verdict")
    problem = browser.find_element(By.ID, "audit-problem").text
    assert "record 4" in problem and problem.startswith("First problem:")
    browser.save_screenshot(str(tmp_path / "tampered.png"))


def test_an_unknown_match_says_so(stack, browser):
    browser.get(f"{stack.rules}/viewer/#/match/no-such-match")
    wait(browser, lambda d: d.execute_script("const h = document.querySelector('h1 code');"
                                             "return h && h.textContent === 'no-such-match'")
         and d.find_elements(By.CSS_SELECTOR, "[role=alert]"), what="the error")
    assert "404" in browser.find_element(By.CSS_SELECTOR, "[role=alert]").text


def test_the_interactive_api_docs_render_offline(stack, browser, tmp_path):
    browser.get(f"{stack.rules}/docs")
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock-summary-path"), what="Swagger UI's operations")
    paths = {e.get_attribute("data-path") or e.text for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}
    assert "/v1/matches/{match_id}/export" in {p.replace("\u200b", "") for p in paths}, paths
    browser.save_screenshot(str(tmp_path / "docs.png"))


def test_a_refused_token_is_said_and_dropped_and_the_match_shown_as_a_spectator(stack, browser, finished, tmp_path):
    match_id = finished["duel"][0]
    open_match(browser, stack.rules, match_id)
    browser.find_element(By.ID, "token").send_keys("not-a-token")
    browser.find_element(By.ID, "apply-token").click()
    wait(browser, lambda d: "401" in d.find_element(By.ID, "token-problem").text, what="the refusal")
    assert browser.find_element(By.ID, "viewer-as").text == "as a spectator"
    head = str(requests.get(f"{stack.rules}/v1/matches/{match_id}").json()["version"])
    wait(browser, lambda d: shown_version(d) == head, what="the match drawn as a spectator")
    assert browser.execute_script("return sessionStorage.getItem(arguments[0])", f"viewer-token:{match_id}") is None
    browser.refresh()  # nothing kept: the page opens as a spectator, with no error
    wait(browser, lambda d: shown_version(d) == head, what="the match after a reload")
    assert not browser.find_element(By.ID, "token-problem").text
    browser.save_screenshot(str(tmp_path / "refused-token.png"))


def test_every_viewer_answer_has_the_security_headers_and_the_favicon_and_catalogs_answer(stack):
    for path in ("/viewer/", "/viewer/config.json", "/viewer/shell/main.js", "/viewer/viewer.css", "/viewer/no-such-file",
                 "/favicon.ico"):
        r = requests.get(f"{stack.rules}{path}")
        assert r.status_code == (404 if "no-such" in path else 200), path
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp, (path, csp)
        assert r.headers["X-Content-Type-Options"] == "nosniff", path
    assert requests.get(f"{stack.rules}/favicon.ico").headers["Content-Type"].startswith("image/svg+xml")
    assert requests.get(f"{stack.rules}/viewer/shell/main.js").headers["Content-Type"].startswith("text/javascript")
    config = requests.get(f"{stack.rules}/viewer/config.json").json()
    assert config["matchmaking"] == stack.mm and set(config["bots"]) == {"random", "greedy", "search"}
    for game in config["games"]:
        r = requests.get(f"{stack.rules}/v1/games/{game['id']}/catalog")
        assert r.status_code == 200 and r.json()["game"] == game["id"] and isinstance(r.json()["cards"], dict)
        assert "public" in r.headers["Cache-Control"]
    r = requests.get(f"{stack.rules}/v1/games/no-such-game/catalog")
    assert r.status_code == 404 and r.headers["Content-Type"].startswith("application/problem+json")
    assert "/v1/games/{game_id}/catalog" in requests.get(f"{stack.rules}/openapi.json").json()["paths"]
    # the viewer's origin may call matchmaking from the browser (CORS_ORIGINS, set by the launcher)
    r = requests.options(f"{stack.mm}/v1/tables", headers={"Origin": stack.rules, "Access-Control-Request-Method": "POST",
                                                             "Access-Control-Request-Headers": "Authorization, Content-Type"})
    assert r.headers.get("Access-Control-Allow-Origin") == stack.rules
