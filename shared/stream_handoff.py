"""Hand a held stream's connection from a gunicorn worker to the stream process (issue #25).

The worker runs a stream route's checks as usual; then, instead of streaming, it passes the
client's TCP socket to the stream process over a Unix socket (``STREAM_HANDOFF_SOCKET``) with
``socket.send_fds`` and a JSON description of the request, and leaves the connection (gunicorn
writes nothing and closes its copy of the fd only; ``install``).

Protocol, one Unix connection per handoff, so that exactly one process serves a stream (or, if
the stream process dies half-way, none: the client reconnects with Last-Event-ID):
  worker -> ``send_fds(json request, [fd])``; stream process -> ``ok\\n``; worker -> ``go\\n``.
The stream process serves only after ``go``; the worker commits only once ``go`` was sent. No
stream process configured, refused, or no ``ok`` within ``timeout_s`` -> served in-process.
"""
from __future__ import annotations

import json
import logging
import socket

log = logging.getLogger("stream-handoff")

SERVE_HERE = "tabletop.serve_here"   # environ flag: this process serves the stream itself
ANSWER_HEADERS = "tabletop.answer_headers"  # environ: fields the handing worker decided for the answer
HANDED_OFF = "tabletop.handed_off"   # environ flag: the connection went to the stream process
_HOP = ("HTTP_CONNECTION", "HTTP_KEEP_ALIVE", "HTTP_TRANSFER_ENCODING")


def describe(environ: dict) -> dict:
    """What the stream process needs to rebuild the request: method, target, headers, peer."""
    target = environ.get("RAW_URI") or (environ.get("PATH_INFO", "") + (
        "?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else ""))
    headers = {k[5:].replace("_", "-").title(): v for k, v in environ.items()
               if k.startswith("HTTP_") and k not in _HOP}
    return {"method": environ.get("REQUEST_METHOD", "GET"), "target": target, "headers": headers,
            "remote_addr": environ.get("REMOTE_ADDR", ""), "remote_port": environ.get("REMOTE_PORT", "")}


def request_head(desc: dict) -> bytes:
    """The HTTP/1.1 request head the stream process parses again (``Connection: close``)."""
    lines = [f"{desc['method']} {desc['target']} HTTP/1.1"]
    lines += [f"{k}: {v}" for k, v in desc["headers"].items()]
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def listening(path: str, timeout_s: float = 1.0) -> bool:
    """Whether a process accepts connections on the Unix socket ``path`` (a probe: no fd sent)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(timeout_s)
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def _async_gunicorn(environ: dict) -> bool:
    """Only gunicorn's async (gevent) workers let a request give its connection away (``install``)."""
    if not str(environ.get("SERVER_SOFTWARE", "")).startswith("gunicorn") or "gunicorn.socket" not in environ:
        return False
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


class Handoff:
    def __init__(self, path: str, timeout_s: float = 1.0):
        self.path, self.timeout_s = path, timeout_s

    def offer(self, environ: dict, answer_headers: dict[str, str] | None = None) -> bool:
        """Hand this request's connection to the stream process; False: serve it here.
        ``answer_headers``: fields the worker decided (the RateLimit fields of the limits it
        counted) that the stream process adds to its answer."""
        if not self.path or environ.get(SERVE_HERE) or not _async_gunicorn(environ):
            return False
        client = environ["gunicorn.socket"]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as unix:
                unix.settimeout(self.timeout_s)
                unix.connect(self.path)
                desc = dict(describe(environ), answer_headers=answer_headers or {})
                socket.send_fds(unix, [json.dumps(desc).encode()], [client.fileno()])
                if unix.recv(3) != b"ok\n":
                    raise OSError("no ack from the stream process")
                unix.sendall(b"go\n")
        except OSError as err:
            log.warning("stream served in-process: stream process at %s: %s", self.path, err)
            _count("in_process")
            return False
        environ[HANDED_OFF] = True
        _count("handed_off")
        return True


def _count(outcome: str) -> None:
    from . import metrics
    metrics.STREAM_HANDOFFS.labels(outcome).inc()


def install(app, handoff: Handoff) -> None:
    """End the worker's part in a request whose connection was handed off: gunicorn writes nothing
    and closes its copy of the socket at once. (``ALREADY_HANDLED`` alone would leave the worker
    in its keep-alive loop, waiting up to ``keepalive`` seconds for another request on a connection
    it no longer serves; ``StopIteration`` is gunicorn's way out of that loop, what its
    ``is_already_handled`` says a worker may raise.)"""
    inner = app.wsgi_app
    app.extensions["stream_handoff"] = handoff

    def wsgi_app(environ, start_response):
        result = inner(environ, start_response)
        if environ.get(HANDED_OFF):
            if hasattr(result, "close"):
                result.close()
            raise StopIteration("the connection was handed to the stream process")
        return result

    app.wsgi_app = wsgi_app
