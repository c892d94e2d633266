"""The baseline of the API benchmark: a Flask endpoint that does one XADD and nothing else."""
import redis
from flask import Flask, request

from shared.config import load


def create_app():
    app = Flask("trivial")
    client = redis.Redis.from_url(load().redis_url)

    @app.post("/xadd")
    def xadd():
        entry = client.xadd("bench:trivial", {"e": request.get_data()}, maxlen=100_000, approximate=True)
        return {"id": entry.decode()}, 201

    return app
