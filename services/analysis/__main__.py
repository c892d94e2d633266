"""An RQ worker for analysis jobs (``python -m services.analysis``), on the ``analysis`` queue.

A ``SimpleWorker`` like the bot workers: jobs run in this process, so the HTTP session and the
loaded games survive from job to job."""
import logging

from rq import Queue, SimpleWorker

from shared import metrics
from shared.analysis_jobs import QUEUE
from shared.config import load, queue_client
from shared.engine import registry
from shared.resilience import run_rq_worker


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    registry.load_all()
    client = queue_client(config)
    metrics.serve([metrics.AnalysisQueue(client)])  # METRICS_PORT
    run_rq_worker(lambda: SimpleWorker([Queue(QUEUE, connection=client)], connection=client),
                  "analysis worker", with_scheduler=False)


if __name__ == "__main__":
    main()
