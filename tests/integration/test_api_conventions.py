"""The ecosystem's conventions, on the real stack (real HTTP, every service under gunicorn as
deploy/Procfile runs it): bearer security in the OpenAPI documents, every status code a route
answers documented in its operation, 401 for every "(auth)" route of docs/api.md, CORS for the
configured origins, the IETF RateLimit fields, validation errors as fields of the problem."""
from __future__ import annotations

import itertools
import re
import uuid

import pytest
import requests

from shared import localredis
from shared.auth import Tokens
from tests.support.stack import ROOT, Client, finished_bot_match, start_stack, wait_for

PROBLEM = "application/problem+json"
SERVICES = ("matchmaking", "rules", "scoring")
ORIGIN = "https://client.example"
OTHER_ORIGIN = "http://localhost:5173"
BAD_TOKENS = ("Bearer not-a-token", "Bearer " + "x" * 40, "bearer garbage.garbage")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """The whole stack with two CORS origins configured (the default allows none)."""
    workdir = tmp_path_factory.mktemp("stack")
    server = localredis.start(workdir / "redis")
    s = start_stack(server.url, workdir, CORS_ORIGINS=f" {ORIGIN}, {OTHER_ORIGIN}/ ")
    yield s
    s.kill()
    server.stop()


@pytest.fixture(scope="module")
def specs(stack):
    return {name: requests.get(f"{stack.urls[name]}/openapi.json", timeout=10).json() for name in SERVICES}


def operations(specs):
    for service, spec in specs.items():
        for path, ops in spec["paths"].items():
            for method, op in ops.items():
                if method in ("get", "post", "put", "patch", "delete"):
                    yield service, method, path, op


@pytest.fixture(scope="module")
def world(stack):
    """Real things to name in paths: players, an active match (host vs a bot), a finished one, an
    open table, a waiting ticket, and a bot's token for the active match."""
    host, other = Client.register(stack, "conv-host"), Client.register(stack, "conv-other")
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"player_id": host.player_id},
                                                                          {"bot": "random"}]})
    assert r.status_code == 201, r.text
    active = r.json()["match_id"]
    wait_for(lambda: host.get(f"{stack.rules}/v1/matches/{active}").status_code == 200, what="the match")
    table = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"player_id": host.player_id},
                                                                              {"open": True}]})
    assert table.status_code == 201, table.text
    ticket = host.post(f"{stack.mm}/v1/queue", json={"game": "duel", "players": 2})
    assert ticket.status_code == 202, ticket.text
    finished = finished_bot_match(stack, "conv-bots")
    wait_for(lambda: host.get(f"{stack.scoring}/v1/results/{finished}").status_code == 200, what="the result")
    bot = Tokens("test-secret").for_bot(active, 1, "random")
    tournament = host.post(f"{stack.mm}/v1/tournaments", json={"game": "duel", "format": "round-robin"})
    assert tournament.status_code == 201, tournament.text
    return {"host": host, "other": other, "active": active, "finished": finished, "bot": bot,
            "table": table.json()["table_id"], "ticket": ticket.json()["ticket_id"],
            "tournament": tournament.json()["tournament_id"]}


def unknown() -> str:
    return "nope" + uuid.uuid4().hex[:12]


def path_values(name: str, world) -> list[str]:
    return {"match_id": [unknown(), world["active"], world["finished"]],
            "table_id": [unknown(), world["table"]],
            "ticket_id": [unknown(), world["ticket"]],
            "tournament_id": [unknown(), world["tournament"]],
            "player_id": [unknown(), world["host"].player_id, "bot:random"],
            "game": ["duel", "no-such-game"], "game_id": ["arkon", "no-such-game"]}[name]


def fill(path: str, values: dict) -> str:
    return re.sub(r"\{([^}]+)\}", lambda m: values[m.group(1)], path)


def authorizations(world) -> list[str | None]:
    return [None, BAD_TOKENS[0], "Basic dXNlcjpwYXNz", f"Bearer {world['host'].token}",
            f"Bearer {world['other'].token}", f"Bearer {world['bot']}"]


GOOD_BODIES = {  # one acceptable body per write, so that the sweep also meets the successes and conflicts
    "/v1/players": lambda w: {"name": f"sweep-{uuid.uuid4().hex[:8]}"},
    "/v1/tables": lambda w: {"game": "duel", "seats": [{"player_id": w["host"].player_id}, {"open": True}]},
    "/v1/tables/{table_id}/join": lambda w: {},
    "/v1/tables/{table_id}/start": lambda w: {"fill_with_bots": "random"},
    "/v1/queue": lambda w: {"game": "duel", "players": 3},
    "/v1/tournaments": lambda w: {"game": "duel", "format": "swiss", "rounds": 1},
    "/v1/tournaments/{tournament_id}/entrants": lambda w: {"bot": "random"},
    "/v1/matches/{match_id}/moves": lambda w: {"move": {"type": "commit", "card": 1}, "expected_version": 2},
}
BAD_BODIES = [None, ("raw", "{"), ("raw", "[]"), {}, {"game": 7, "seats": "x", "name": ["x"], "move": 1,
                                                    "expected_version": "v", "seat": -1, "players": 99}]


def call(stack, service, method, url, authorization, body=None, params=None, headers=None):
    h = dict(headers or {})
    if authorization:
        h["Authorization"] = authorization
    kw = {"params": params, "headers": h, "timeout": (10, 30), "stream": url.endswith("/stream")}
    if isinstance(body, tuple):
        kw["data"], h["Content-Type"] = body[1], "application/json"
    elif body is not None:
        kw["json"] = body
    r = requests.request(method.upper(), stack.urls[service] + url, **kw)
    if kw["stream"]:
        if r.status_code >= 400 or not r.headers.get("Content-Type", "").startswith("text/event-stream"):
            r.content  # noqa: B018 - a refusal: read it whole; an open stream: leave it unread and close it
        r.close()
    return r


def query_variants(op) -> list[dict]:
    names = [p["name"] for p in op.get("parameters", []) if p["in"] == "query"]
    out = [{}]
    for name in names:
        out += [{name: "zzz"}, {name: "-1"}, {name: "0"}]
    return out


def header_variants(op) -> list[dict]:
    if any(p["in"] == "header" and p["name"] == "Last-Event-ID" for p in op.get("parameters", [])):
        return [{}, {"Last-Event-ID": "abc"}, {"Last-Event-ID": "0"}, {"Last-Event-ID": "99999"}]
    if any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in op.get("parameters", [])):
        return [{}, {"Idempotency-Key": "k" * 201}, {"Idempotency-Key": uuid.uuid4().hex}]
    return [{}]


def sweep(stack, specs, world):
    """Every operation of every document, called with missing, bad, other players' and bots'
    tokens, unknown and real ids, bad and good bodies, bad query values and headers. Yields
    (service, method, path, operation, authorization, response)."""
    for service, method, path, op in operations(specs):
        names = re.findall(r"\{([^}]+)\}", path)
        combos = [dict(zip(names, values)) for values in itertools.product(*(path_values(n, world) for n in names))]
        for values in combos or [{}]:
            url = fill(path, values)
            for authorization in authorizations(world):
                if path == "/v1/players/me/token" and authorization in (f"Bearer {world['host'].token}",
                                                                          f"Bearer {world['other'].token}"):
                    authorization = f"Bearer {Client.register(stack, 'rotator').token}"  # keep theirs valid
                if method in ("post", "put", "patch"):
                    good = GOOD_BODIES.get(path)
                    bodies = BAD_BODIES + ([good(world)] if good else [])
                    for body in bodies:
                        for headers in header_variants(op):
                            yield service, method, path, op, authorization, call(stack, service, method, url,
                                                                                 authorization, body, None, headers)
                else:
                    for params in query_variants(op):
                        for headers in header_variants(op) if not params else [{}]:
                            yield service, method, path, op, authorization, call(stack, service, method, url,
                                                                                 authorization, None, params, headers)


def security_of(op) -> str:
    security = op.get("security")
    if security is None:
        return "public"
    assert security in ([{"bearer": []}], [{}, {"bearer": []}]), security
    return "required" if security == [{"bearer": []}] else "optional"


# ----- the OpenAPI documents --------------------------------------------------------------------------
def test_every_document_declares_bearer_security_and_says_so_per_operation(specs):
    for service, spec in specs.items():
        scheme = spec["components"]["securitySchemes"]["bearer"]
        assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
        assert "Authorization" in spec["info"]["description"] and "## " in spec["info"]["description"]  # Markdown
    kinds = {(m.upper(), p): security_of(op) for _, m, p, op in operations(specs)}
    assert kinds[("POST", "/v1/matches/{match_id}/moves")] == "required"
    assert kinds[("GET", "/v1/matches/{match_id}/view")] == "optional"
    assert kinds[("GET", "/v1/matches/{match_id}/stream")] == "optional"
    assert kinds[("GET", "/v1/players/me/stream")] == "required"
    assert kinds[("GET", "/v1/tables")] == "optional"
    assert kinds[("GET", "/v1/games")] == kinds[("GET", "/v1/results/{match_id}")] == "public"
    for _, _, _, op in operations(specs):
        if security_of(op) != "public":
            assert "401" in op["responses"]
            response = op["responses"]["401"]
            if "$ref" in response:
                response = specs["matchmaking"]["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
            assert "WWW-Authenticate" in response["headers"]


def test_both_event_streams_declare_last_event_id_and_every_stream_both_formats(specs):
    streams = {p: op for _, m, p, op in operations(specs) if p.endswith("/stream")}
    assert set(streams) == {"/v1/matches/{match_id}/stream", "/v1/players/me/stream",
                            "/v1/matches/{match_id}/turn/stream"}
    for path in ("/v1/matches/{match_id}/stream", "/v1/players/me/stream"):  # the state stream starts at the head
        params = {(p["in"], p["name"]) for p in streams[path]["parameters"]}
        assert {("header", "Last-Event-ID"), ("query", "after")} <= params, path
    for path, op in streams.items():
        assert {"text/event-stream", "application/x-ndjson"} <= set(op["responses"]["200"]["content"]), path
        assert "429" in op["responses"], path


def test_rate_limited_operations_document_the_ratelimit_fields(specs):
    for _, method, path, op in operations(specs):
        limited = method in ("post", "delete") or path.endswith("/stream")
        for status, response in op["responses"].items():
            if status.isdigit() and limited:
                assert {"RateLimit", "RateLimit-Policy"} <= set(response.get("headers", {})), (method, path, status)
        if limited:
            assert "Retry-After" in op["responses"]["429"]["headers"]


def test_swagger_ui_has_an_authorize_button_that_persists_and_renders_markdown(stack, specs):
    for service in SERVICES:
        page = requests.get(f"{stack.urls[service]}/docs", timeout=10).text
        assert re.search(r'"persistAuthorization":\s*true', page), service
    # the Authorize button appears when the document declares a security scheme (checked above);
    # descriptions are Markdown, which Swagger UI renders
    assert "**Authorize**" in specs["rules"]["info"]["description"]


# ----- every status code a route answers is documented --------------------------------------------------
def test_every_status_code_every_route_answers_is_documented(stack, specs, world):
    answered: dict[tuple, set[int]] = {}
    problems = []
    for service, method, path, op, authorization, r in sweep(stack, specs, world):
        key = (service, method.upper(), path)
        answered.setdefault(key, set()).add(r.status_code)
        if r.status_code >= 500:
            problems.append(f"{key} {authorization!r}: {r.status_code} {r.text[:200]}")
        if r.status_code >= 400 and not r.headers.get("Content-Type", "").startswith(PROBLEM):
            problems.append(f"{key}: {r.status_code} is not a problem document")
        kind = security_of(op)
        bad = authorization in BAD_TOKENS or (authorization or "").startswith("Basic")
        if kind == "required" and (authorization is None or bad) and r.status_code != 401:
            problems.append(f"{key} {authorization!r}: {r.status_code}, not 401, without a valid token")
        if kind == "optional" and bad and r.status_code != 401:
            problems.append(f"{key} {authorization!r}: {r.status_code}, not 401, for a bad token")
        if kind != "required" and authorization is None and r.status_code == 401:
            problems.append(f"{key}: 401 without a token, but the token is {kind}")
        if r.status_code == 401 and not r.headers.get("WWW-Authenticate", "").startswith("Bearer"):
            problems.append(f"{key}: 401 without WWW-Authenticate: Bearer")
        limited = method in ("post", "delete") or path.endswith("/stream")
        if limited and authorization != f"Bearer {world['bot']}" and r.status_code not in (413, 414) \
                and not {"RateLimit", "RateLimit-Policy"} <= set(r.headers):
            problems.append(f"{key}: a rate-limited answer ({r.status_code}) without RateLimit fields")
    undocumented = {}
    for (service, method, path), statuses in answered.items():
        documented = {int(s) for s in specs[service]["paths"][path][method.lower()]["responses"] if s.isdigit()}
        if statuses - documented:
            undocumented[(service, method, path)] = sorted(statuses - documented)
    assert not undocumented, undocumented
    assert not problems, "\n".join(problems[:40])
    assert len(answered) == sum(1 for _ in operations(specs))
    # the sweep met the successes too, not only refusals
    assert {200, 404} <= answered[("rules", "GET", "/v1/matches/{match_id}/view")]
    assert 201 in answered[("matchmaking", "POST", "/v1/tables")]
    assert 202 in answered[("matchmaking", "POST", "/v1/queue")]


# ----- every "(auth)" route of docs/api.md refuses a missing or bad token --------------------------------
def auth_routes() -> list[tuple[str, str, str]]:
    """(service, method, path) of every row of docs/api.md marked "(auth" but not "(auth optional"."""
    service, found = None, []
    for line in (ROOT / "docs/api.md").read_text().splitlines():
        heading = re.match(r"## (Matchmaking|Rules|Scoring) service", line)
        if heading:
            service = heading.group(1).lower()
        row = re.match(r"\| `(GET|POST|DELETE|PUT|PATCH) (/[^`?\s]+)[^`]*` \(auth(?! optional)", line)
        if row and service:
            found.append((service, row.group(1), row.group(2)))
    return found


def test_docs_api_md_marks_the_routes_that_need_a_token():
    routes = {(m, p) for _, m, p in auth_routes()}
    assert ("POST", "/v1/matches/{id}/moves") in routes and ("GET", "/v1/players/me/stream") in routes
    assert len(routes) >= 16


@pytest.mark.parametrize("service, method, path", auth_routes())
def test_every_auth_route_of_docs_api_md_refuses_a_missing_or_bad_token(stack, specs, world, service, method, path):
    real = {"/v1/tables/": world["table"], "/v1/matches/": world["active"], "/v1/queue/": world["ticket"]}
    for ids in ("real", "unknown"):
        known = next((v for k, v in real.items() if path.startswith(k)), None)
        url = re.sub(r"\{[^}]+\}", lambda m: known if ids == "real" and known else unknown(), path)
        body = {} if method in ("POST", "PUT", "PATCH") else None
        for authorization in (None, *BAD_TOKENS):
            r = call(stack, service, method, url, authorization, body)
            assert r.status_code == 401, (method, url, authorization, r.status_code, r.text[:300])
            assert r.headers["Content-Type"].startswith(PROBLEM)
            problem = r.json()
            assert problem["status"] == 401 and problem["type"] in ("urn:problem:missing-token",
                                                                     "urn:problem:invalid-token")
            assert r.headers["WWW-Authenticate"].startswith("Bearer")
    template = re.sub(r"\{id\}", "{%s}" % ("table_id" if path.startswith("/v1/tables") else "match_id"), path)
    op = specs[service]["paths"][template][method.lower()]
    assert op["security"] == [{"bearer": []}]


# ----- CORS ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("service, path", [("matchmaking", "/v1/tables"), ("rules", "/v1/matches/x/moves"),
                                           ("scoring", "/v1/leaderboards/duel")])
def test_a_preflight_from_a_configured_origin_is_allowed(stack, service, path):
    for origin in (ORIGIN, OTHER_ORIGIN):
        r = requests.options(stack.urls[service] + path, timeout=10, headers={
            "Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"})
        assert r.status_code == 200, r.text
        assert r.headers["Access-Control-Allow-Origin"] == origin
        assert "POST" in r.headers["Access-Control-Allow-Methods"]
        allowed = {h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")}
        assert {"authorization", "content-type", "idempotency-key"} <= allowed
        assert int(r.headers["Access-Control-Max-Age"]) > 0
        assert "Access-Control-Allow-Credentials" not in r.headers
        assert "Origin" in r.headers.get("Vary", "")


def test_other_origins_get_no_cors_headers(stack):
    for origin in ("https://evil.example", "https://client.example.evil", "null"):
        r = requests.options(f"{stack.mm}/v1/tables", timeout=10, headers={
            "Origin": origin, "Access-Control-Request-Method": "POST"})
        assert "Access-Control-Allow-Origin" not in r.headers, origin
        r = requests.get(f"{stack.mm}/v1/games", headers={"Origin": origin}, timeout=10)
        assert r.status_code == 200 and "Access-Control-Allow-Origin" not in r.headers


def test_cross_origin_answers_expose_the_headers_clients_read(stack, world):
    host = world["host"]
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]},
                  headers={"Origin": ORIGIN})
    assert r.status_code == 201 and r.headers["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip().lower() for h in r.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"retry-after", "ratelimit", "ratelimit-policy", "x-next-cursor", "link", "www-authenticate"} <= exposed
    page = requests.get(f"{stack.mm}/v1/tables", params={"limit": 1}, headers={"Origin": ORIGIN}, timeout=10)
    assert page.headers["Access-Control-Allow-Origin"] == ORIGIN and "X-Next-Cursor" in page.headers
    refused = requests.get(f"{stack.rules}/v1/matches/x/legal-moves", headers={"Origin": ORIGIN}, timeout=10)
    assert refused.status_code == 401 and refused.headers["Access-Control-Allow-Origin"] == ORIGIN
    stream = requests.get(f"{stack.rules}/v1/matches/{world['finished']}/stream", headers={"Origin": OTHER_ORIGIN},
                          timeout=10)
    assert stream.status_code == 200 and stream.headers["Access-Control-Allow-Origin"] == OTHER_ORIGIN


# ----- RateLimit fields ---------------------------------------------------------------------------------------
FIELD = re.compile(r'^"(?P<name>[a-z-]+)";(?P<params>[a-z]+=\d+(?:;[a-z]+=\d+)*)$')


def parse_field(value: str) -> dict:
    m = FIELD.match(value)
    assert m, value
    return {"name": m["name"], **{k: int(v) for k, v in (p.split("=") for p in m["params"].split(";"))}}


def test_limited_answers_carry_ratelimit_and_ratelimit_policy(stack, world):
    anonymous = [requests.post(f"{stack.mm}/v1/players", json={"name": f"rl-{uuid.uuid4().hex[:8]}"}, timeout=10)
                 for _ in range(2)]
    for r in anonymous:
        assert r.status_code == 201
        policy, state = parse_field(r.headers["RateLimit-Policy"]), parse_field(r.headers["RateLimit"])
        assert policy == {"name": "writes-address", "q": 60000, "w": 60}
        assert state["name"] == "writes-address" and 0 <= state["r"] < 60000 and 0 <= state["t"] <= 60
    assert parse_field(anonymous[1].headers["RateLimit"])["r"] < parse_field(anonymous[0].headers["RateLimit"])["r"]
    mine = world["other"].post(f"{stack.mm}/v1/queue", json={"game": "no-such-game", "players": 2})
    assert mine.status_code == 422  # a refusal counts, and says so, too
    assert parse_field(mine.headers["RateLimit-Policy"]) == {"name": "writes-token", "q": 3000, "w": 60}
    stream = requests.get(f"{stack.rules}/v1/matches/{world['finished']}/stream", timeout=10)
    assert parse_field(stream.headers["RateLimit-Policy"])["name"] == "streams-address"
    read = requests.get(f"{stack.mm}/v1/games", timeout=10)
    assert "RateLimit" not in read.headers and "RateLimit-Policy" not in read.headers  # reads are not limited


# ----- validation errors ----------------------------------------------------------------------------------
def test_validation_errors_are_fields_of_the_problem_and_detail_is_a_sentence(stack, world):
    r = requests.post(f"{stack.mm}/v1/players", json={}, timeout=10)
    assert r.status_code == 422 and r.headers["Content-Type"].startswith(PROBLEM)
    body = r.json()
    assert body["errors"] == {"name": ["Missing data for required field."]}
    assert body["type"] == "urn:problem:unprocessable-entity"
    assert "{" not in body["detail"] and "name" in body["detail"] and body["detail"].endswith(".")
    r = world["host"].post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"bot": "nope"}],
                                                          "turn_seconds": "soon"})
    errors = r.json()["errors"]
    assert r.status_code == 422 and set(errors) >= {"turn_seconds"}, errors
    assert all(isinstance(k, str) and isinstance(v, list) and all(isinstance(m, str) for m in v)
               for k, v in errors.items())
    assert any(k.startswith("seats.1") for k in errors), errors
    q = requests.get(f"{stack.mm}/v1/tables", params={"limit": 0}, timeout=10).json()
    assert list(q["errors"]) == ["limit"] and "limit" in q["detail"]
    whole = world["host"].post(f"{stack.mm}/v1/queue", json=[1, 2])
    assert whole.status_code == 422 and list(whole.json()["errors"]) == ["body"], whole.text
