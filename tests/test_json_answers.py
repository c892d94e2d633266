"""The services' JSON answers (shared/json_answers.py): orjson writes what Flask's default
provider writes — byte for byte where the text is ASCII and the floats plain, the same values
otherwise — and what orjson would write differently goes to Flask's own ``dumps``. No server."""
from __future__ import annotations

import dataclasses
import datetime
import decimal
import json
import uuid

import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider

from shared.json_answers import SortedJSONProvider

ANSWERS = [
    {"version": 12, "events": [{"seq": 12, "type": "added", "at": 1796411889.968, "data": {"seat": 1},
                                "hash": "ab" * 32, "prev_hash": "0" * 64, "hidden_digest": None}]},
    {"b": [1, 2.5, -0.0, True, False, None, "x\"y\\z\n\t\u0001"], "a": {"z": {}, "y": []}},
    [{"k": 9223372036854775807}, {"k": -9223372036854775808}],
    "plain", 0, 1.0, [],
]


def _providers(debug: bool = False):
    app = Flask("json-answers")
    app.debug = debug
    return SortedJSONProvider(app), DefaultJSONProvider(app)


@pytest.mark.parametrize("value", ANSWERS)
@pytest.mark.parametrize("debug", [False, True])
def test_an_ascii_answer_is_written_byte_for_byte_as_flask_writes_it(value, debug):
    ours, flask = _providers(debug)
    with ours._app.app_context():
        assert ours.response(value).get_data() == flask.response(value).get_data()
    for args in ({"separators": (",", ":")}, {"indent": 2}, {}, {"separators": (", ", ": ")}):
        assert ours.dumps(value, **args) == flask.dumps(value, **args)


def test_text_beyond_ascii_is_utf8_and_reads_the_same():
    ours, flask = _providers()
    value = {"name": "Ægir ☃ 𝄞", "tags": ["é"]}
    written = ours.dumps(value, separators=(",", ":"))
    assert "Ægir ☃ 𝄞" in written and "\\u" not in written
    assert json.loads(written) == json.loads(flask.dumps(value, separators=(",", ":"))) == value


def test_what_orjson_writes_otherwise_goes_to_flasks_own_dumps():
    @dataclasses.dataclass
    class Point:
        x: int

    ours, flask = _providers()
    for value in ({"when": datetime.datetime(2026, 12, 4, 12, 0, tzinfo=datetime.timezone.utc)},  # an HTTP date
                  {"day": datetime.date(2026, 12, 4)}, {"p": Point(3)}, {"d": decimal.Decimal("1.10")},
                  {"u": uuid.UUID(int=7)}, {"big": 2 ** 70}, {10: "ten", 9: "nine"}):  # keys sorted as numbers
        assert ours.dumps(value, separators=(",", ":")) == flask.dumps(value, separators=(",", ":")), value
    with pytest.raises(TypeError):
        ours.dumps({"s": {1, 2}}, separators=(",", ":"))  # as Flask: not JSON


def test_the_services_answer_through_it():
    import redis

    from shared.config import Config
    from shared.web import create_base_app

    app, _api = create_base_app("json-answers", Config(redis_url="redis://127.0.0.1:1"), redis.Redis(port=1))
    assert isinstance(app.json, SortedJSONProvider)
    with app.test_request_context():
        assert app.json.response({"b": "Æ", "a": 1}).get_data() == '{"a":1,"b":"Æ"}\n'.encode()
