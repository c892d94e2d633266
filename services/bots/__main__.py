"""An RQ worker for bot turns (``python -m services.bots``); games are loaded once, up front."""
import logging

import redis
from rq import Queue, Worker

from shared.config import load
from shared.engine import registry


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    config = load()
    registry.load_all()
    client = redis.Redis.from_url(config.redis_url)
    Worker([Queue(config.bot_queue, connection=client)], connection=client).work(with_scheduler=False)


if __name__ == "__main__":
    main()
