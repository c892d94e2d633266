"""Gunicorn settings shared by the three services (flags on the command line add to these).

The rules service runs gevent workers (``-k gevent`` in the Procfile): its SSE streams are idle
most of the time, and a greenlet per stream costs a few kilobytes where a thread per stream
capped the watchers at the thread count. The other services keep threads.
"""
worker_class = "gthread"
workers = 1
threads = 4
worker_connections = 4000   # gevent workers: concurrent connections (SSE watchers) per process
timeout = 120               # a worker whose request blocks longer is restarted
graceful_timeout = 5
keepalive = 5
limit_request_line = 8190   # gunicorn's maximum; Flask answers 414 problem+json above 4096 bytes
accesslog = None
errorlog = "-"
loglevel = "warning"


# ----- Prometheus metrics of several workers (shared/metrics.py) --------------------------------
# Each worker writes its metrics to files in PROMETHEUS_MULTIPROC_DIR and /metrics adds them up. A
# server gets a fresh directory of its own, "gunicorn-<master pid>" under PROMETHEUS_MULTIPROC_DIR
# (or under the system's temporary directory): the three services of `make run` share one
# environment, and the files of a previous run must not count. Directories of servers that are no
# longer running are removed at start; a server removes its own at exit.
import os as _os  # noqa: E402  (hooks below; gunicorn reads every name of this module as a setting)


def _metrics_base() -> str:
    import tempfile

    return _os.environ.get("PROMETHEUS_MULTIPROC_BASE") or _os.environ.get("PROMETHEUS_MULTIPROC_DIR") \
        or _os.path.join(tempfile.gettempdir(), "tabletop-metrics")


def _pid_alive(pid: int) -> bool:
    try:
        _os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def on_starting(server):
    """Before any worker starts (and before prometheus_client is imported anywhere): this
    server's metrics directory, in the environment the workers inherit."""
    import shutil

    base = _metrics_base()
    _os.makedirs(base, exist_ok=True)
    for name in _os.listdir(base):
        if name.startswith("gunicorn-") and name[9:].isdigit() and not _pid_alive(int(name[9:])):
            shutil.rmtree(_os.path.join(base, name), ignore_errors=True)
    path = _os.path.join(base, f"gunicorn-{_os.getpid()}")
    shutil.rmtree(path, ignore_errors=True)
    _os.makedirs(path)
    _os.environ["PROMETHEUS_MULTIPROC_BASE"] = base  # a re-exec (USR2) keeps the same base
    _os.environ["PROMETHEUS_MULTIPROC_DIR"] = path


def child_exit(server, worker):
    """A worker exited: its live gauges no longer count (its counters and histograms still do)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    import shutil

    path = _os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    if _os.path.basename(path) == f"gunicorn-{_os.getpid()}":
        shutil.rmtree(path, ignore_errors=True)
