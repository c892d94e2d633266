"""The lean path of ``POST /v1/matches/{id}/moves``: an accepted move answered without
Flask's per-request machinery (issue #24).

Flask, flask-smorest and the hooks of ``shared.web`` cost a move more worker CPU than the move
itself (``docs/benchmarks.md``, "The move path"). This WSGI layer in front of the rules app serves
the common case — a person's token or a seat's bot's, a well-formed body, a seat of the match, a
move accepted or replayed — with the same parts the route uses (the tokens, the rate limits,
``Matches.submit`` with the follow-ups' effects, the live gate, the request metrics) and the same
answer: the status, headers and body bytes the Flask route gives
(``tests/integration/test_fast_moves.py`` plays every outcome through both and compares).

Everything else it hands to the Flask app, unchanged, *before anything is written*: another
route or method, a query string, a cross-origin request (``Origin``), a body that is not plain
``application/json`` of the expected shape, a missing or bad token, a caller without a seat (a
bot whose seat this process's cached state does not show handed to it included), a bad
``Idempotency-Key``, a rate limit exceeded, and every refusal of the move (stale version, illegal
move, match over, not the seat's decision, a key reused…): the app then answers as it always
has. The rate limits are counted once: what this layer counted goes with the request
(``shared.limits.COUNTED``). An error after the append (the follow-ups outside the store) is
answered by the app's own error handlers and hooks, as the route answers it.

On a cluster (``Followups.one_write`` off) every move goes to the app.
"""
from __future__ import annotations

import io
import re
import time

from flask import Flask, Response, g

from shared import faults, limits, metrics
from shared.auth import Principal
from shared.web import MAX_JSON_DEPTH, MAX_URL_BYTES, _depth_within, parse_checked_text

from .routes import seat_held

ROUTE = "/v1/matches/<match_id>/moves"  # the Flask rule, for the request metrics' label
PATH = re.compile(r"/v1/matches/([^/]+)/moves")
MAX_BODY = 256 * 1024  # the app's MAX_CONTENT_LENGTH: larger bodies are its 413
MAX_KEY = 200          # the longest Idempotency-Key (longer: the route's 400)


class HandOver(Exception):
    """The request is the Flask app's to answer (nothing was written)."""


class FastMoves:
    """WSGI middleware: the lean path in front of ``app.wsgi_app`` (``enabled`` switches it)."""

    def __init__(self, app: Flask):
        from shared.eventstore.store import MAX_SEQ

        self.app, self.inner = app, app.wsgi_app
        self.enabled = True
        self.served = self.handed_over = 0  # requests answered here, and handed to the app
        self.max_version = MAX_SEQ
        self._moves: dict = {}  # game id -> its child of metrics.MOVES
        self._requests = None  # the (counter, histogram) of the route's 2xx answers, once made
        self._cors: list[tuple[str, str]] | None = None

    # ----- WSGI ---------------------------------------------------------------------------------
    def __call__(self, environ: dict, start_response):
        if not self.enabled or environ.get("REQUEST_METHOD") != "POST":
            return self.inner(environ, start_response)
        found = PATH.fullmatch(environ.get("PATH_INFO", ""))
        if found is None or environ.get("QUERY_STRING") or "HTTP_ORIGIN" in environ:
            return self.inner(environ, start_response)
        t0 = time.perf_counter()
        if not self._takes_body(environ):  # not ours to read: the app reads it (411, 413, 400…)
            return self.inner(environ, start_response)
        raw = environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
        environ["wsgi.input"] = io.BytesIO(raw)  # whatever happens, the app can read it again
        if len(raw) != int(environ["CONTENT_LENGTH"]):  # the client sent less: the app's answer
            return self.inner(environ, start_response)
        live = self.app.extensions["live"].gate
        live.enter()  # watchers write between moves (released when the answer has been sent)
        try:
            answer = self._serve(environ, found.group(1), raw, t0)
        except HandOver:
            live.leave()
            environ["wsgi.input"] = io.BytesIO(raw)
            self.handed_over += 1
            return self.inner(environ, start_response)
        except BaseException:
            live.leave()
            raise
        status, headers, body = answer
        start_response(status, headers)
        return _Answer(body, live.leave)

    # ----- the move -----------------------------------------------------------------------------
    @staticmethod
    def _takes_body(environ: dict) -> bool:
        """Whether the request's body is plain JSON of a length this path reads itself."""
        if environ.get("CONTENT_TYPE") != "application/json":
            return False
        length = environ.get("CONTENT_LENGTH")
        if not length or not length.isdigit() or int(length) > MAX_BODY:
            return False
        return len((environ.get("RAW_URI") or environ.get("PATH_INFO", "")).encode("utf-8", "replace")) <= MAX_URL_BYTES

    def _serve(self, environ: dict, match_id: str, raw: bytes, t0: float) -> tuple[str, list, bytes]:
        app = self.app
        who = self._player(environ)
        limiter = app.extensions.get("tabletop_limiter")
        applied: list = []
        if limiter is not None:
            applied, breach = limiter.count(True, False, lambda: f"player:{who.player_id}" if who.player_id else "",
                                            lambda: "")  # a bot's token counts against nobody
            environ[limits.COUNTED] = (applied, breach)
            if breach is not None:
                raise HandOver
        body = self._move_body(raw)
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        if key is not None and not (0 < len(key) <= MAX_KEY):
            raise HandOver
        matches, followups = app.extensions["matches"], app.extensions["followups"]
        if not followups.one_write:
            raise HandOver
        mstate = self._peek(matches, match_id)
        seat = seat_held(mstate, who)  # a bot's seat handed over after this process's cache: the route reads the head
        if seat is None:
            raise HandOver
        try:  # the move's parts need no Flask context (none is pushed: a request here costs none)
            done = matches.submit(match_id, seat, body["move"], body["expected_version"], key,
                                  as_bot=who.is_bot, effects=followups.effects(seat))
        except Exception:  # noqa: BLE001 - a refusal (or an outage) before any write: the route answers it
            raise HandOver from None
        try:
            faults.point("after-append")
            if not done.replayed:
                followups.after_commit(done.state)
                self._moved(done.state["game_id"])
            # the route's schema (MoveOut: the version, then the events as objects) dumps the
            # body's fields as they are, in the same order: written as it is, the same bytes
            out = self._json(done.body())
        except Exception as err:  # noqa: BLE001 - the move is written: answered as the route answers it
            return self._error_answer(environ, err, applied, t0)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(out)))]
        headers += list(limits.ratelimit_fields(applied).items()) + self._cors_headers()
        self._count(t0)
        self.served += 1
        return "201 CREATED", headers, out

    def _moved(self, game_id: str) -> None:
        counter = self._moves.get(game_id)
        if counter is None:
            counter = self._moves[game_id] = metrics.MOVES.labels(game_id)
        counter.inc()

    def _json(self, value) -> bytes:
        """``value`` as the app's JSON provider writes an answer (``jsonify``'s bytes)."""
        provider = self.app.json
        readable = provider.compact is False or (provider.compact is None and self.app.debug)
        dump_args = {"indent": 2} if readable else {"separators": (",", ":")}
        return f"{provider.dumps(value, **dump_args)}\n".encode()

    def _cors_headers(self) -> list[tuple[str, str]]:
        """What flask-cors adds to an answer of this route to a request without ``Origin`` (none
        when CORS is off): asked of its own hook once, on a blank answer."""
        if self._cors is None:
            hooks = [f for f in self.app.after_request_funcs.get(None, []) if f.__name__ == "cors_after_request"]
            added = []
            if hooks:
                with self.app.test_request_context("/v1/matches/m/moves", method="POST"):
                    blank = Response()
                    before = list(blank.headers.items())
                    added = [h for h in hooks[0](blank).headers.items() if h not in before]
            self._cors = added
        return self._cors

    def _player(self, environ: dict) -> Principal:
        try:
            who = self.app.extensions["tokens"].from_header(environ.get("HTTP_AUTHORIZATION"))
        except Exception:  # noqa: BLE001 - the generations' Redis failing: the route answers (503)
            raise HandOver from None
        if who is None or not (who.player_id or who.is_bot):
            raise HandOver  # missing or bad: the route's 401
        return who

    def _move_body(self, raw: bytes) -> dict:
        """The body as the route's checks and schema would take it, or HandOver."""
        try:  # plain UTF-8 without a byte-order mark (what webargs reads alike), checked as the app checks it
            text = raw.decode("utf-8")
            value = None if text.startswith("\ufeff") else parse_checked_text(text)
        except Exception:  # noqa: BLE001 - the app's 400
            raise HandOver from None
        if not isinstance(value, dict) or value.keys() != {"move", "expected_version"} \
                or not _depth_within(value, MAX_JSON_DEPTH):
            raise HandOver
        version = value["expected_version"]
        if not isinstance(value["move"], dict) or type(version) is not int or not 0 <= version <= self.max_version:
            raise HandOver
        return value

    @staticmethod
    def _peek(matches, match_id: str) -> dict:
        try:  # the seats never change; the state decided on is checked by the append
            return matches.peek(match_id)
        except Exception:  # noqa: BLE001 - no such match, or the store failing: the route answers
            raise HandOver from None

    def _count(self, t0: float) -> None:
        """The request metrics, as the app's hooks count a 2xx of the route."""
        if self._requests is None:
            self._requests = (metrics.REQUESTS.labels(self.app.name, ROUTE, "POST", "2xx"),
                              metrics.LATENCY.labels(self.app.name, ROUTE, "POST"))
        self._requests[0].inc()
        self._requests[1].observe(time.perf_counter() - t0)

    def _error_answer(self, environ: dict, err: Exception, applied: list, t0: float) -> tuple[str, list, bytes]:
        """The app's answer to ``err`` raised by the route after its append (its error handlers and
        after_request hooks, as for the route)."""
        app = self.app
        environ["wsgi.input"] = io.BytesIO(b"")
        with app.request_context(environ):
            g._rate_limits, g.metrics_t0 = applied, t0
            response = app.process_response(app.make_response(app.handle_user_exception(err)))
            body = response.get_data()
            return response.status, list(response.headers.items()), body


class _Answer:
    """The answer's body; ``close`` (the server has sent it) runs ``on_close`` once."""

    def __init__(self, body: bytes, on_close):
        self.body, self.on_close = body, on_close

    def __iter__(self):
        yield self.body

    def close(self) -> None:
        on_close, self.on_close = self.on_close, None
        if on_close is not None:
            on_close()


def install(app: Flask) -> FastMoves:
    """Put the lean path in front of ``app`` (``app.extensions["fast_moves"]``)."""
    fast = FastMoves(app)
    app.wsgi_app = fast
    app.extensions["fast_moves"] = fast
    return fast

