"""The API conventions as a browser meets them (headless Chromium): Swagger UI's Authorize button,
whose token survives a reload (persistAuthorization), the Markdown description rendered, and a
cross-origin fetch with a bearer token (a real preflight) whose exposed headers the script reads."""
import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from shared import localredis
from tests.support.browser import start_browser
from tests.support.stack import Client, start_stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("stack")
    server = localredis.start(workdir / "redis")
    s = start_stack(server.url, workdir, CORS_ORIGINS="*")
    yield s
    s.kill()
    server.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_browser(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def wait(driver, predicate, timeout=60):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: predicate(d))


def test_swagger_ui_authorizes_with_a_bearer_token_that_survives_a_reload(stack, browser):
    browser.get(f"{stack.rules}/docs")
    button = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".btn.authorize"))[0]
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".info .markdown h2, .info .renderedMarkdown h2")]
    assert "Authentication" in headings and "Rate limits" in headings, headings  # the Markdown, rendered
    locks = browser.find_elements(By.CSS_SELECTOR, ".opblock .authorization__btn")
    assert locks, "no operation shows a lock"
    button.click()
    field = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".auth-container input"))[0]
    field.send_keys("a-token-for-the-test")
    browser.find_element(By.CSS_SELECTOR, ".auth-btn-wrapper .authorize").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".auth-btn-wrapper .btn-done"))[0].click()
    wait(browser, lambda d: "locked" in d.find_element(By.CSS_SELECTOR, ".btn.authorize").get_attribute("class"))
    browser.refresh()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".btn.authorize"))
    wait(browser, lambda d: "locked" in d.find_element(By.CSS_SELECTOR, ".btn.authorize").get_attribute("class"))


def test_a_cross_origin_fetch_with_a_token_passes_its_preflight_and_reads_the_exposed_headers(stack, browser):
    me = Client.register(stack, "browser")
    browser.get(f"{stack.rules}/docs")  # a page of another origin (another port) than matchmaking
    browser.set_script_timeout(60)
    got = browser.execute_async_script("""
        const [url, token, done] = arguments;
        fetch(url, {method: "POST", headers: {"Authorization": "Bearer " + token,
                                              "Content-Type": "application/json"},
                    body: JSON.stringify({game: "no-such-game", players: 2})})
          .then(async r => done(JSON.stringify({status: r.status, ratelimit: r.headers.get("RateLimit"),
                                                policy: r.headers.get("RateLimit-Policy"),
                                                body: await r.json()})))
          .catch(e => done(JSON.stringify({error: String(e)})));
    """, f"{stack.mm}/v1/queue", me.token)
    got = json.loads(got)
    assert got.get("status") == 422, got
    assert got["policy"].startswith('"writes-token";q=') and got["ratelimit"].startswith('"writes-token";r=')
    assert got["body"]["type"] == "urn:problem:unknown-game"
