"""The viewer's analysis panel (``services/rules/viewer/static/analysis.js``) in headless Chromium
on the real stack (its Procfile's analysis worker does the judging): asked for from the page, it
shows progress, then a value line per seat, every judged decision as the API lists it, and the
worst decisions, whose buttons hand their version to the replay (``onJump``).

The shell mounts the panel on the page of every finished match (shell/match.js), with the game's
renderer saying the moves and the seats named."""
from __future__ import annotations

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

from tests.support.browser import start_browser
from tests.support.stack import Client, finished_bot_match

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def wait(driver, predicate, timeout=120, what="the page"):
    return WebDriverWait(driver, timeout, poll_frequency=0.2, ignored_exceptions=(
        NoSuchElementException, StaleElementReferenceException)).until(lambda d: predicate(d), message=f"waiting for {what}")


def test_the_match_page_asks_for_the_analysis_and_shows_it_against_the_api(stack, browser, tmp_path):
    """The panel mounted by the viewer on a finished match's page: asked for there, it shows the
    API's decisions, seats by name and moves in the game's words (no JSON), and a worst decision's
    button steps the replay to its version."""
    match_id = finished_bot_match(stack, "viewer-analysis")
    browser.get(f"{stack.rules}/viewer/#/match/{match_id}")
    q = lambda d, css: d.find_elements("css selector", f"#analysis {css}")
    wait(browser, lambda d: q(d, "[data-role=ask]"), what="the offer to analyse")
    q(browser, "[data-role=ask]")[0].click()
    wait(browser, lambda d: q(d, "[data-role=status][data-status=done]"), what="the analysis to be done")
    doc = Client(stack).get(f"{stack.rules}/v1/matches/{match_id}/analysis").json()
    assert doc["status"] == "done"
    rows = q(browser, "[data-role=decisions] tr[data-version]")
    assert [(int(r.get_attribute("data-version")), int(r.get_attribute("data-seat")), float(r.get_attribute("data-loss")))
            for r in rows] == [(d["version"], d["seat"], d["loss"]) for d in doc["decisions"]]
    lines = q(browser, "[data-role=value-graph] polyline")
    assert sorted(int(p.get_attribute("data-seat")) for p in lines) == sorted(
        {d["seat"] for d in doc["decisions"]})
    panel = browser.find_element("css selector", "#analysis").text
    assert '{"' not in panel and '["' not in panel and "undefined" not in panel
    assert "Random bot" in panel and "Greedy bot" in panel  # seats by name (the viewer's words), not "seat 0"
    worst = q(browser, "[data-role=worst] button")
    expected = sorted((d for d in doc["decisions"] if d["loss"] > 0), key=lambda d: -d["loss"])[:5]
    assert [float(b.get_attribute("data-loss")) for b in worst] == [d["loss"] for d in expected]
    if worst:
        worst[0].click()
        wait(browser, lambda d: d.find_element("css selector", "#slider").get_attribute("value")
             == str(expected[0]["version"]), 30, "the replay to step to the worst decision")
    browser.save_screenshot(str(tmp_path / "analysis.png"))
