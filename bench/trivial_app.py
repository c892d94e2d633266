"""The baseline of the API benchmark: a Flask endpoint that does one XADD and nothing else.

Its Redis client is redis-py's as it comes; with ``TRIVIAL_REDIS_OPTIONS=project`` it connects with
the services' own connection options (``shared.redisoptions``), for ``bench.move_cost``'s rows
against an equally tuned baseline."""
import os

import redis
from flask import Flask, request

from shared.config import load
from shared.redisoptions import connection_options


def create_app():
    app = Flask("trivial")
    options = connection_options() if os.environ.get("TRIVIAL_REDIS_OPTIONS") == "project" else {}
    client = redis.Redis.from_url(load().redis_url, **options)

    @app.post("/xadd")
    def xadd():
        entry = client.xadd("bench:trivial", {"e": request.get_data()}, maxlen=100_000, approximate=True)
        return {"id": entry.decode()}, 201

    return app
