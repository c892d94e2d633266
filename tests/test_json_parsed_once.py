"""A JSON body is parsed once per request (shared/web.py): ``check_json_body`` hands the value it
parsed to webargs, only for bytes both parsers read alike (plain UTF-8); other encodings, which
``json.loads`` of bytes detects and webargs refuses, are still webargs' to refuse. No server."""
from __future__ import annotations

import json

from flask import Flask
from flask.views import MethodView
from flask_smorest import Api, Blueprint
from marshmallow import Schema, fields

from shared import web


class Body(Schema):
    n = fields.Integer(required=True)


def _app(calls: list, monkeypatch) -> Flask:
    """A service-like app (check_json_body, a smorest body argument) counting the parses."""
    app = Flask("json-once")
    app.config.update(API_TITLE="t", API_VERSION="1", OPENAPI_VERSION="3.0.3")
    api = Api(app)
    app.before_request(web.check_json_body)
    blp = Blueprint("b", __name__)

    @blp.route("/x")
    class X(MethodView):
        @blp.arguments(Body)
        def post(self, body):
            return {"n": body["n"]}

    api.register_blueprint(blp)
    real, checked = json.loads, web.parse_checked_text  # webargs' parse, and check_json_body's
    monkeypatch.setattr(json, "loads", lambda *a, **k: calls.append("json.loads") or real(*a, **k))
    monkeypatch.setattr(web, "parse_checked_text", lambda *a, **k: calls.append("checked") or checked(*a, **k))
    return app


def test_a_utf8_body_is_parsed_once_and_reads_the_same(monkeypatch):
    calls: list = []
    app = _app(calls, monkeypatch)
    c = app.test_client()
    for n in (7, 8):  # the second: the schema made for the first serves on
        r = c.post("/x", data=json.dumps({"n": n}), content_type="application/json")
        assert calls == ["checked"]  # check_json_body's parse; webargs took its value
        assert r.status_code == 200 and r.get_json() == {"n": n}
        calls.clear()


def test_a_body_in_another_encoding_is_still_webargs_to_refuse(monkeypatch):
    calls: list = []
    app = _app(calls, monkeypatch)
    c = app.test_client()
    for raw in (json.dumps({"n": 7}).encode("utf-16"), b"\xef\xbb\xbf" + json.dumps({"n": 7}).encode()):
        r = c.post("/x", data=raw, content_type="application/json")
        assert r.status_code == 400, raw  # webargs' own refusal of a body it cannot read as UTF-8 JSON
