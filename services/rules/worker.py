"""The rules service's RQ worker (``python -m services.rules.worker``): runs deadline checks,
with the scheduler that releases them when they are due."""
import logging

import redis
from rq import Queue, Worker

from shared.config import load
from shared.engine import registry

from .deadlines import RULES_QUEUE


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    config = load()
    registry.load_all()
    client = redis.Redis.from_url(config.redis_url)
    Worker([Queue(RULES_QUEUE, connection=client)], connection=client).work(with_scheduler=True)


if __name__ == "__main__":
    main()
