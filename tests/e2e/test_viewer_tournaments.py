"""The viewer's tournament pages in headless Chromium against the real stack: a small Swiss of bots
and one scripted person, its page while running (standings as the API says, followed live without a
reload) and after the end (standings, every pairing linking to a match page that opens), the list
found by its filters and paged, no raw JSON."""
from __future__ import annotations

import re

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.e2e.test_viewer import wait
from tests.support.browser import start_browser
from tests.support.stack import Client, wait_for
from tests.support.tournaments import create, enter, play_human_turns, tournament
from tests.support.viewer_play import assert_fits_the_window, assert_no_raw_json

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def shown_name(name: str) -> str:
    """The name the viewer draws for an entrant: "bot:greedy #2" is "Greedy bot #2"."""
    m = re.match(r"^bot:(\S+)(.*)$", name)
    return f"{m.group(1).capitalize()} bot{m.group(2)}" if m else name


def shown_points(x: float) -> str:
    return f"{x:g}"


def drawn_standings(driver) -> list[tuple]:
    """(entrant id, rank, name, kind, points, played) of each standings row, top to bottom."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#standings tbody tr[data-standing]')].map((tr) => [
          tr.dataset.standing, tr.querySelector('.rank').textContent, tr.querySelector('.name').textContent,
          tr.querySelector('.kind').textContent, tr.querySelector('.points').textContent,
          tr.querySelector('.played').textContent]);""")


def expected_standings(t: dict) -> list[list]:
    return [[row["entrant_id"], str(row["rank"]), shown_name(row["name"]) + (" (withdrawn)" if row["withdrawn"] else ""),
             f"bot ({row['bot']})" if row.get("bot") else "player", shown_points(row["points"]), str(row["played"])]
            for row in t["standings"]]


def page_version(driver) -> int | None:
    v = driver.execute_script("const r = document.getElementById('rounds'); return r && r.dataset.version;")
    return int(v) if v else None


def page_agrees(driver, client: Client, tid: str):
    """The tournament as the API has it, once the page draws that same version with its standings."""
    t = tournament(client, tid)
    if page_version(driver) != t["version"]:
        return None
    return t if drawn_standings(driver) == expected_standings(t) else None


def finished_tournament(client: Client, tid: str) -> dict:
    """The tournament once finished (the first test plays the person's moves; without it, this waits
    for the person's turn deadline and fails)."""
    def finished():
        t = tournament(client, tid)
        return t if t["status"] == "finished" else None

    return wait_for(finished, 300, 0.3, "the tournament to finish")


@pytest.fixture(scope="module")
def swiss(stack):
    """A 2-round Swiss of duel: four bots and one person (an odd count, so each round has a bye)."""
    org = Client.register(stack, "Tess Organiser")
    t = create(org, format="swiss", players_per_match=2, rounds=2, turn_seconds=600)
    me = enter(org, t["tournament_id"])
    for level in ("random", "greedy", "random", "greedy"):
        enter(org, t["tournament_id"], bot=level)
    r = org.post(f"{stack.mm}/v1/tournaments/{t['tournament_id']}/start")
    assert r.status_code == 200, r.text
    return org, me["entrant_id"], t["tournament_id"]


def test_a_running_swiss_is_drawn_as_the_api_says_and_followed_live_to_its_end(stack, browser, swiss, tmp_path):
    org, me, tid = swiss
    url = f"{stack.rules}/viewer/#/tournament/{tid}"
    browser.get(url)
    # the person has not moved: once its match is paired the tournament waits for it, running
    def my_match_paired():
        t = tournament(org, tid)
        return t if any(me in m["entrants"] and m["status"] == "active" for r in t["rounds"] for m in r["matches"]) else None

    t = wait_for(my_match_paired, 120, 0.3, "the person's match to be paired")
    assert t["status"] == "running"
    t = wait(browser, lambda d: page_agrees(d, org, tid), what="the running tournament as the API has it")
    assert browser.find_element(By.ID, "tournament-status").text == "running"
    assert browser.find_elements(By.CSS_SELECTOR, "#tournament-info .live")
    drawn = {e.get_attribute("data-pairing") for e in browser.find_elements(By.CSS_SELECTOR, "[data-pairing]")}
    assert drawn == {m["match_id"] for r in t["rounds"] for m in r["matches"]}
    assert_no_raw_json(browser)
    browser.save_screenshot(str(tmp_path / "tournament-running.png"))
    before = page_version(browser)

    # the person plays; the page, never reloaded, follows the tournament to its end
    marker = browser.execute_script("window.__notReloaded = true; return window.__notReloaded;")
    assert marker is True

    def finished():
        t = tournament(org, tid)
        play_human_turns(org, me, t)
        return t if t["status"] == "finished" else None

    wait_for(finished, 300, 0.3, "the tournament to finish")
    final = wait(browser, lambda d: page_agrees(d, org, tid), timeout=60, what="the finished tournament on the page")
    assert final["status"] == "finished" and page_version(browser) > before
    assert browser.execute_script("return window.__notReloaded === true")
    assert browser.find_element(By.ID, "tournament-status").text == "finished"
    assert not browser.find_elements(By.CSS_SELECTOR, "#tournament-info .live")
    # tie-breaks in words, as the API has them
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#standings thead th")]
    assert "Buchholz" in heads and "Sonneborn–Berger" in heads
    for row in final["standings"]:
        tr = browser.find_element(By.CSS_SELECTOR, f"tr[data-standing='{row['entrant_id']}']")
        assert tr.find_element(By.CLASS_NAME, "buchholz").text == shown_points(row["tiebreaks"]["buchholz"])
        assert tr.find_element(By.CLASS_NAME, "sonneborn-berger").text == shown_points(row["tiebreaks"]["sonneborn_berger"])
    # every round's pairings (names and result in words) and byes
    names = {row["entrant_id"]: shown_name(row["name"]) for row in final["standings"]}
    for rnd in final["rounds"]:
        section = browser.find_element(By.CSS_SELECTOR, f"section[data-round='{rnd['round']}']")
        for m in rnd["matches"]:
            li = section.find_element(By.CSS_SELECTOR, f"li[data-pairing='{m['match_id']}']")
            a, b = (names[e] for e in m["entrants"])
            ranks = m["result"]["ranks"]
            said = f"{a} and {b} drew" if ranks[0] == ranks[1] else f"{a} beat {b}" if ranks[0] < ranks[1] else f"{b} beat {a}"
            assert li.text == f"{a} and {b} — {said}"
        assert len(rnd["byes"]) == 1
        assert section.find_element(By.CLASS_NAME, "byes").text == f"Bye: {names[rnd['byes'][0]]}"
    export = browser.find_element(By.ID, "export").get_attribute("href")
    assert export == f"{stack.mm}/v1/tournaments/{tid}/export"
    assert requests.get(export, timeout=30).status_code == 200
    assert_no_raw_json(browser)
    assert_fits_the_window(browser)
    browser.save_screenshot(str(tmp_path / "tournament-finished.png"))


def test_every_pairing_links_to_its_match_page_and_that_page_opens(stack, browser, swiss, tmp_path):
    org, _me, tid = swiss
    final = finished_tournament(org, tid)
    ids = [m["match_id"] for r in final["rounds"] for m in r["matches"]]
    assert ids
    for match_id in ids:
        browser.get(f"{stack.rules}/viewer/#/tournament/{tid}")
        link = wait(browser, lambda d, mid=match_id: d.find_element(By.CSS_SELECTOR, f"li[data-pairing='{mid}'] a"),
                    what=f"the pairing {match_id}")
        assert link.get_attribute("href").endswith(f"#/match/{match_id}")
        link.click()
        wait(browser, lambda d, mid=match_id: d.execute_script(
            "const h = document.querySelector('h1 code'); const s = document.getElementById('state');"
            "const v = document.getElementById('head-version');"
            "return h && h.textContent === arguments[0] && s && v && s.dataset.version === v.textContent", mid),
            what=f"match {match_id}'s page")
    browser.save_screenshot(str(tmp_path / "a-tournament-match.png"))


def test_the_list_finds_the_tournament_by_its_filters_and_pages(stack, browser, swiss, tmp_path):
    org, _me, tid = swiss
    finished_tournament(org, tid)
    other = Client.register(stack, "Otto Organiser")
    rr = create(other, format="round-robin", players_per_match=2)["tournament_id"]  # stays open
    titles = {g["id"]: g["title"] for g in requests.get(f"{stack.rules}/viewer/config.json", timeout=30).json()["games"]}

    def rows(d):
        return [r.get_attribute("data-tournament") for r in d.find_elements(By.CSS_SELECTOR, "#tournament-list tbody tr[data-tournament]")]

    # from the index's link, then the form's filters
    browser.get(f"{stack.rules}/viewer/#/")
    wait(browser, lambda d: d.find_element(By.ID, "nav-tournaments")).click()
    wait(browser, lambda d: tid in rows(d) and rr in rows(d), what="both tournaments listed")
    form = browser.find_element(By.ID, "tournament-filters")
    for name, value in (("game", "duel"), ("status", "finished"), ("format", "swiss")):
        form.find_element(By.CSS_SELECTOR, f"select[name='{name}'] option[value='{value}']").click()
    form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
    wait(browser, lambda d: "format=swiss" in d.current_url and tid in rows(d) and rr not in rows(d), what="the filtered list")
    expected = requests.get(f"{stack.mm}/v1/tournaments", params={"game": "duel", "status": "finished", "format": "swiss"},
                            timeout=30).json()["tournaments"]
    assert rows(browser) == [x["tournament_id"] for x in expected]
    tr = browser.find_element(By.CSS_SELECTOR, f"tr[data-tournament='{tid}']")
    assert [td.text for td in tr.find_elements(By.TAG_NAME, "td")[1:6]] == [titles["duel"], "Swiss", "2", "finished", "5"]
    assert_no_raw_json(browser)
    browser.save_screenshot(str(tmp_path / "tournament-list.png"))
    # a filter that excludes it
    browser.get(f"{stack.rules}/viewer/#/tournaments?format=round-robin")
    wait(browser, lambda d: rr in rows(d) and tid not in rows(d), what="only the round robin")

    # paged one at a time by following next_cursor: every tournament the API lists, in its order
    everything = requests.get(f"{stack.mm}/v1/tournaments", params={"limit": 200}, timeout=30).json()["tournaments"]
    assert len(everything) >= 2
    browser.get(f"{stack.rules}/viewer/#/tournaments?limit=1")
    for i, want in enumerate(everything):
        wait(browser, lambda d, tid_=want["tournament_id"]: rows(d) == [tid_], what=f"page {i + 1}")
        nxt = browser.find_element(By.ID, "next")
        if i + 1 < len(everything):
            nxt.click()
        else:
            assert not nxt.is_enabled()
    browser.find_element(By.ID, "prev").click()
    wait(browser, lambda d: rows(d) == [everything[-2]["tournament_id"]], what="the page before")


def test_an_unknown_tournament_says_so(stack, browser):
    browser.get(f"{stack.rules}/viewer/#/tournament/no-such-tournament")
    alert = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[role=alert]"), what="the error")
    assert alert.text.startswith("404")
