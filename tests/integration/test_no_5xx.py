"""Hostile input through the real stack (gunicorn, Redis): every case answers a 4xx problem
document, never a 5xx; every error each service documents is a problem document."""
import json
import socket
from urllib.parse import urlsplit

import pytest
import requests

from tests.support.stack import Client, seat_players

PROBLEM = "application/problem+json"


def problem_of(resp, status):
    assert resp.status_code == status, (resp.status_code, resp.text[:300])
    assert resp.headers["Content-Type"].startswith(PROBLEM), resp.headers
    body = resp.json()
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    return body


@pytest.fixture(scope="module")
def match(stack):
    alice, bob = Client.register(stack, "h-alice"), Client.register(stack, "h-bob")
    match_id = seat_players(alice, {"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"player_id": bob.player_id}]}, [bob])
    return alice, f"{stack.rules}/v1/matches/{match_id}"


def _post_raw(client, url, raw: str):
    return client.http.post(url, data=raw, timeout=30, headers={
        "Authorization": f"Bearer {client.token}", "Content-Type": "application/json"})


def test_json_nested_a_thousand_deep_is_a_400(stack, match):
    alice, base = match
    deep = "[" * 1000 + "]" * 1000
    problem_of(_post_raw(alice, f"{base}/moves", deep), 400)
    nested_move = '{"move": ' + '{"a": ' * 1000 + "1" + "}" * 1000 + ', "expected_version": 1}'
    body = problem_of(_post_raw(alice, f"{base}/moves", nested_move), 400)
    assert "deep" in body["detail"]
    problem_of(_post_raw(Client(stack, alice.token), f"{stack.mm}/v1/tables", deep), 400)


def test_integers_beyond_python_int_string_limit_are_a_400(stack, match):
    alice, base = match
    huge = "9" * 4301
    problem_of(_post_raw(alice, f"{base}/moves", f'{{"move": {{"type": "commit", "card": {huge}}}, "expected_version": 1}}'),
               400)
    problem_of(_post_raw(alice, f"{base}/moves", f'{{"move": {{"type": "commit"}}, "expected_version": {huge}}}'), 400)
    problem_of(_post_raw(alice, f"{base}/moves", '{"move": {"type": "commit"}, "expected_version": 1e999}'), 400)
    problem_of(_post_raw(alice, f"{base}/moves", '{"move": {"type": "commit"}, "expected_version": NaN}'), 400)


def test_event_seqs_out_of_range_are_4xx(match):
    _alice, base = match
    for after in (2**64, 2**64 + 1, 10**30, -1, -(2**64)):
        problem_of(requests.get(f"{base}/events", params={"after": after}), 422)
    problem_of(requests.get(f"{base}/events", params={"after": "9" * 4000}), 422)
    for limit in (10**30, 0, -5, 1001):
        problem_of(requests.get(f"{base}/events", params={"limit": limit}), 422)


def test_view_at_out_of_range_is_4xx(match):
    _alice, base = match
    version = requests.get(base).json()["version"]
    problem_of(requests.get(f"{base}/view", params={"at": version + 1}), 404)
    for at in (0, -1, 2**64, 10**40, "x"):
        problem_of(requests.get(f"{base}/view", params={"at": at}), 422)
    assert requests.get(f"{base}/view", params={"at": version}).status_code == 200


@pytest.mark.parametrize("last_event_id", ["-5", "junk", "1.5", "", "99999999999999999999", str(2**64), "0x10"])
def test_a_bad_last_event_id_is_a_400_before_the_stream_starts(match, last_event_id):
    _alice, base = match
    headers = {"Last-Event-ID": last_event_id} if last_event_id else {}
    params = {} if last_event_id else {"after": "-3"}
    with requests.get(f"{base}/stream", headers=headers, params=params, stream=True, timeout=30) as resp:
        problem_of(resp, 400)


def test_a_last_event_id_beyond_the_log_is_a_400(match):
    _alice, base = match
    version = requests.get(base).json()["version"]
    with requests.get(f"{base}/stream", headers={"Last-Event-ID": str(version + 1)}, stream=True, timeout=30) as resp:
        assert "beyond" in problem_of(resp, 400)["detail"]


def test_405_names_the_allowed_methods(stack, match):
    _alice, base = match
    resp = requests.delete(f"{base}/moves")
    problem_of(resp, 405)
    assert "POST" in resp.headers["Allow"]
    resp = requests.put(f"{stack.mm}/v1/games")
    problem_of(resp, 405)
    assert "GET" in resp.headers["Allow"]


def test_413_and_414_are_problems(stack, match):
    alice, base = match
    problem_of(_post_raw(alice, f"{base}/moves", json.dumps({"move": {"pad": "x" * 300_000}, "expected_version": 1})),
               413)
    for service in (stack.rules, stack.mm, stack.scoring):
        problem_of(requests.get(f"{service}/v1/anything", params={"q": "x" * 5000}), 414)


def test_a_request_line_beyond_gunicorns_limit_is_refused_by_gunicorn(stack):
    """Documented limit: above 8,190 bytes gunicorn refuses the request line before Flask sees it
    (its own 414, text/html); every answer Flask produces is a problem document."""
    host = urlsplit(stack.rules)
    with socket.create_connection((host.hostname, host.port), timeout=30) as sock:
        sock.sendall(f"GET /v1/matches/{'x' * 9000} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        status_line = sock.recv(4096).split(b"\r\n", 1)[0]
    assert status_line.split()[1] == b"414"


def _resolve(doc, node):
    while "$ref" in node:
        section, name = node["$ref"].split("/")[-2:]
        node = doc["components"][section][name]
    return node


@pytest.mark.parametrize("service", ["matchmaking", "rules", "scoring"])
def test_every_documented_error_is_a_problem_document(stack, service):
    doc = requests.get(f"{stack.urls[service]}/openapi.json").json()
    operations = [(path, method, op) for path, item in doc["paths"].items()
                  for method, op in item.items() if method in ("get", "post", "put", "patch", "delete")]
    assert operations and any(path == "/readyz" for path, _m, _op in operations)
    for path, method, op in operations:
        responses = op["responses"]
        assert "default" in responses, (path, method)
        errors = {code: _resolve(doc, resp) for code, resp in responses.items() if code == "default" or int(code) >= 400}
        assert {"400", "429", "503"} <= set(errors), (path, method, sorted(errors))
        for code, resp in errors.items():
            assert list(resp.get("content", {})) == [PROBLEM], (path, method, code, resp)
            schema = _resolve(doc, resp["content"][PROBLEM]["schema"])
            assert {"type", "title", "status", "detail"} <= set(schema["properties"]), (path, method, code)
        for code in ("429", "503"):
            assert "Retry-After" in errors[code].get("headers", {}), (path, method, code)


def test_rules_operations_document_their_own_errors(stack):
    paths = requests.get(f"{stack.rules}/openapi.json").json()["paths"]
    moves = paths["/v1/matches/{match_id}/moves"]["post"]
    assert {"401", "403", "404", "409", "422"} <= set(moves["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in moves["parameters"])
    assert {"401", "403", "404"} <= set(paths["/v1/matches/{match_id}/turn"]["get"]["responses"])
    assert "400" in paths["/v1/matches/{match_id}/stream"]["get"]["responses"]
