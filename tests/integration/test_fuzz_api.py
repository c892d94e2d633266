"""Random client input never crashes a service: every answer is a 2xx or a 4xx problem, and a
rejected move appends nothing."""
import json

import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.stack import Client, seat_players

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
move_like = st.fixed_dictionaries({"type": st.sampled_from(["commit", "bid", "pass", ""]) | st.text(max_size=5)},
                                  optional={"card": json_values, "seat": json_values})
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"move": move_like | json_values, "expected_version": json_values}),
    st.fixed_dictionaries({"move": move_like, "expected_version": st.integers(-5, 50)}),
)

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


def _match(stack):
    alice, bob = Client.register(stack, "fa"), Client.register(stack, "fb")
    mid = seat_players(alice, {"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"player_id": bob.player_id}]}, [bob])
    return alice, mid


def test_random_move_bodies_get_4xx_problems_and_append_nothing(stack):
    alice, mid = _match(stack)
    base = f"{stack.rules}/v1/matches/{mid}"
    version = requests.get(base).json()["version"]

    @SETTINGS
    @given(body=bodies)
    def check(body):
        r = alice.http.post(f"{base}/moves", data=json.dumps(body), timeout=30, headers={
            "Authorization": f"Bearer {alice.token}", "Content-Type": "application/json"})
        if r.status_code == 201:  # a random body that happens to be a legal move is fine
            return
        assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
        assert r.headers["Content-Type"].startswith("application/problem+json")

    check()
    events = requests.get(f"{base}/events", params={"after": version}).json()["events"]
    assert all(e["type"] == "committed" for e in events) and len(events) <= 1


def test_random_query_strings_and_headers_never_crash(stack):
    alice, mid = _match(stack)

    @SETTINGS
    @given(path=st.sampled_from(["", "/view", "/events", "/legal-moves", "/audit"]),
           params=st.dictionaries(st.sampled_from(["at", "after", "limit", "x"]), st.text(max_size=6), max_size=3),
           token=st.one_of(st.none(), st.just(alice.token),
                            st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=30)))
    def check(path, params, token):
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        r = requests.get(f"{stack.rules}/v1/matches/{mid}{path}", params=params, headers=headers, timeout=30)
        assert r.status_code < 500, (path, params, token, r.text)

    check()


def test_random_table_and_queue_bodies_never_crash(stack):
    host = Client.register(stack, "fuzzhost")

    @SETTINGS
    @given(path=st.sampled_from(["/v1/tables", "/v1/queue", "/v1/players"]), body=json_values |
           st.fixed_dictionaries({"game": st.sampled_from(["duel", "arkon", "nope"]), "players": json_values,
                                  "seats": st.lists(st.fixed_dictionaries({}, optional={
                                      "bot": st.sampled_from(["random", "x"]), "open": st.booleans(),
                                      "player_id": st.text(max_size=5)}), max_size=5),
                                  "options": json_values}))
    def check(path, body):
        r = host.http.post(f"{stack.mm}{path}", data=json.dumps(body), timeout=60, headers={
            "Authorization": f"Bearer {host.token}", "Content-Type": "application/json"})
        assert r.status_code < 500, (path, body, r.text)

    check()


def test_random_last_event_ids_are_a_200_stream_or_a_400_before_it(stack):
    _alice, mid = _match(stack)
    version = requests.get(f"{stack.rules}/v1/matches/{mid}").json()["version"]

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(last=st.one_of(st.integers(-2**70, 2**70).map(str),
                          st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30)
                          .filter(lambda s: not s[:1].isspace())))  # HTTP clients refuse a leading space
    def check(last):
        with requests.get(f"{stack.rules}/v1/matches/{mid}/stream", headers={"Last-Event-ID": last},
                          stream=True, timeout=30) as r:
            stripped = last.strip()  # an empty id means "from the start" (the SSE spec)
            valid = not stripped or (stripped.isdigit() and len(stripped) <= 16 and int(stripped) <= version)
            assert r.status_code == (200 if valid else 400), (last, r.status_code)
            if not valid:
                assert r.headers["Content-Type"].startswith("application/problem+json")

    check()


def test_random_deeply_nested_or_huge_number_bodies_get_400(stack):
    alice, mid = _match(stack)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(depth=st.integers(33, 3000), digits=st.integers(20, 6000), kind=st.sampled_from(["list", "dict", "int"]))
    def check(depth, digits, kind):
        if kind == "list":
            raw = "[" * depth + "]" * depth
        elif kind == "dict":
            raw = '{"a":' * depth + "1" + "}" * depth
        else:
            raw = '{"move": {"type": "commit", "card": 1%s}, "expected_version": 1}' % ("0" * digits)
        r = alice.http.post(f"{stack.rules}/v1/matches/{mid}/moves", data=raw, timeout=30, headers={
            "Authorization": f"Bearer {alice.token}", "Content-Type": "application/json"})
        assert r.status_code == 400 and r.headers["Content-Type"].startswith("application/problem+json"), r.text

    check()
