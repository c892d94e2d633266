"""An RQ worker for bot turns (``python -m services.bots``); games are loaded once, up front.

It is a ``SimpleWorker``: jobs run in the worker process itself, without a fork per job, so the
HTTP session and the caches survive from one turn to the next; RQ's job timeout (an alarm signal
in this process) still stops a policy that runs too long.
"""
import logging

from rq import Queue, SimpleWorker

from shared import metrics
from shared.config import load, queue_client
from shared.engine import registry
from shared.resilience import run_rq_worker


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    registry.load_all()
    client = queue_client(config)
    metrics.serve([metrics.BotQueue(client, config.bot_queue)])  # METRICS_PORT
    run_rq_worker(lambda: SimpleWorker([Queue(config.bot_queue, connection=client)], connection=client),
                  "bot worker", with_scheduler=False)


if __name__ == "__main__":
    main()
