"""One pagination style (issue 25; docs/api.md, "Paging"): every paged list — the match index, a
player's matches, a match's events, open tables — answers the next page in the ``Link`` header
(rel="next") with its cursor in ``X-Next-Cursor``, both absent on the last page; following the
links visits every item once. The old ``after`` of the events keeps working for one release."""
from __future__ import annotations

import re

import pytest
import requests

from tests.support.stack import Client, finished_bot_match

LINK = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def follow(url: str, key: str | None, **kw) -> tuple[list, list[requests.Response]]:
    """Every item of a list, page after page by its Link header, and the answers seen."""
    items, answers = [], []
    while url:
        r = requests.get(url, timeout=10, **kw)
        assert r.status_code == 200, r.text
        answers.append(r)
        body = r.json()
        items.extend(body if key is None else body[key])
        link = r.headers.get("Link")
        if link is None:
            assert "X-Next-Cursor" not in r.headers
            url = None
        else:
            url = LINK.match(link)["url"]
            assert f"cursor={r.headers['X-Next-Cursor']}" in url
            if key is not None:
                assert body["next_cursor"] == r.headers["X-Next-Cursor"]
    return items, answers


@pytest.fixture(scope="module")
def played(stack):
    return [finished_bot_match(stack, f"pager-{i}") for i in range(3)]


def test_the_match_index_pages_by_its_link_header(stack, played):
    items, answers = follow(f"{stack.rules}/v1/matches?limit=2", "matches")
    ids = [m["match_id"] for m in items]
    assert set(played) <= set(ids) and len(ids) == len(set(ids))
    assert len(answers) >= 2 and answers[-1].json()["next_cursor"] is None


def test_the_events_page_by_cursor_and_link_and_the_old_after_still_works(stack, played):
    match_id = played[0]
    events, answers = follow(f"{stack.rules}/v1/matches/{match_id}/events?limit=3", "events")
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(seqs) + 1)) and len(answers) > 2
    head = requests.get(f"{stack.rules}/v1/matches/{match_id}", timeout=10).json()["version"]
    assert seqs[-1] == head
    old = requests.get(f"{stack.rules}/v1/matches/{match_id}/events", params={"after": 2, "limit": 2}, timeout=10).json()
    assert [e["seq"] for e in old["events"]] == [3, 4] and old["next_after"] == 4 and old["next_cursor"] == "4"


@pytest.mark.parametrize("cursor", ["abc", "-1", "1" * 25, "٣"])
def test_a_bad_events_cursor_is_a_400_naming_the_cursor(stack, played, cursor):
    r = requests.get(f"{stack.rules}/v1/matches/{played[0]}/events", params={"cursor": cursor}, timeout=10)
    assert r.status_code == 400 and r.headers["Content-Type"].startswith("application/problem+json")
    assert r.json()["type"] == "urn:problem:bad-cursor" and "cursor" in r.json()["detail"]


def test_open_tables_page_by_the_same_link_header(stack):
    host = Client.register(stack, "pager-host")
    made = []
    for _ in range(3):
        r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"player_id": host.player_id},
                                                                              {"open": True}]})
        assert r.status_code == 201, r.text
        made.append(r.json()["table_id"])
    tables, answers = follow(f"{stack.mm}/v1/tables?limit=2&host={host.player_id}", None)
    assert [t["table_id"] for t in tables] == made and len(answers) == 2
