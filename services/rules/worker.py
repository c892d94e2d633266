"""The rules service's RQ worker (``python -m services.rules.worker``): runs deadline checks,
with the scheduler that releases them when they are due."""
import logging

import redis
from rq import Queue, SimpleWorker

from shared.config import load
from shared.engine import registry
from shared.resilience import run_rq_worker

from .deadlines import RULES_QUEUE


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    registry.load_all()
    client = redis.Redis.from_url(config.redis_url, health_check_interval=30)
    run_rq_worker(lambda: SimpleWorker([Queue(RULES_QUEUE, connection=client)], connection=client),
                  "rules worker", with_scheduler=True)


if __name__ == "__main__":
    main()
