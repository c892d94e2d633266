"""The viewer's analysis panel (``services/rules/viewer/static/analysis.js``) in headless Chromium
on the real stack (its Procfile's analysis worker does the judging): asked for from the page, it
shows progress, then a value line per seat, every judged decision as the API lists it, and the
worst decisions, whose buttons hand their version to the replay (``onJump``).

The module sits outside the viewer's shell, which does not mount it yet: the test loads it into the
viewer's page itself."""
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


MOUNT = """
const done = arguments[arguments.length - 1];
const s = document.createElement('script');
s.src = '/viewer/analysis.js';
s.onload = () => {
  const box = document.createElement('div'); box.id = 'analysis-test'; document.body.prepend(box);
  window.jumped = [];
  TabletopAnalysis.mount(box, {matchId: arguments[0], onJump: (v) => window.jumped.push(v)});
  done(true);
};
document.head.append(s);
"""


def test_the_panel_asks_for_the_analysis_and_shows_it_against_the_api(stack, browser):
    match_id = finished_bot_match(stack, "viewer-analysis")
    browser.get(f"{stack.rules}/viewer/")
    assert browser.execute_async_script(MOUNT, match_id)
    q = lambda d, css: d.find_elements("css selector", f"#analysis-test {css}")
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
    worst = q(browser, "[data-role=worst] button")
    expected = sorted((d for d in doc["decisions"] if d["loss"] > 0), key=lambda d: -d["loss"])[:5]
    assert [float(b.get_attribute("data-loss")) for b in worst] == [d["loss"] for d in expected]
    if worst:
        worst[0].click()
        assert browser.execute_script("return window.jumped") == [expected[0]["version"]]
