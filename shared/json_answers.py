"""The services' JSON answers, written by orjson behind Flask's JSON provider interface.

Flask's default provider writes with ``json.dumps`` (keys sorted, compact outside debug): on the
move path that is a tenth of a request's CPU (``docs/benchmarks.md``, issue #24). This provider
writes the same JSON — the same values, the keys sorted the same way, the same separators, the
same two-space indent in debug mode — with orjson, with two differences a JSON reader does not
see: characters outside ASCII are written as UTF-8 rather than ``\\uXXXX`` escapes (RFC 8259
§8.1: JSON between systems is UTF-8), and a float is written in orjson's shortest form (``1e-05``
comes out as ``0.00001``). Anything orjson does not write alike — dates and times (Flask writes
them as HTTP dates), dataclasses, objects only Flask's ``default`` knows, integers beyond 64 bits,
keys that are not strings (Flask sorts them before turning them into strings) — goes to Flask's
own ``dumps``, as do calls with other ``json.dumps`` arguments.
"""
from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

_PASSED_ON = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS  # to ``default``
# the ``json.dumps`` arguments Flask's provider passes (compact; indented in debug mode, where
# json.dumps separates with "," and ": " as orjson does) -> orjson's options
_ALIKE = (({"separators": (",", ":")}, orjson.OPT_SORT_KEYS | _PASSED_ON),
          ({"indent": 2}, orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2 | _PASSED_ON))


class SortedJSONProvider(DefaultJSONProvider):
    """``DefaultJSONProvider`` whose ``dumps`` is orjson's wherever both write the same JSON."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if self.sort_keys:
            options = next((o for args, o in _ALIKE if kwargs == args), None)
            if options is not None:
                try:
                    return orjson.dumps(obj, default=self.default, option=options).decode()
                except TypeError:  # orjson's JSONEncodeError too: Flask's dumps writes it (or says why not)
                    pass
        return super().dumps(obj, **kwargs)
