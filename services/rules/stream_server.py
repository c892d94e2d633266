"""The rules service's stream process: serves the held streams its gunicorn workers hand off.

``python -m services.rules.stream_server`` (a gevent process beside the workers, same host):
listens on ``STREAM_HANDOFF_SOCKET``, receives each client connection with ``socket.recv_fds``
(protocol in ``shared/stream_handoff.py``), rebuilds the request and runs the SAME Flask app's
route with ``tabletop.serve_here`` set, so it streams instead of handing off again. The answer
says ``Connection: close``; at its end the connection is shut down (the worker may still hold a
copy of the fd a moment longer). One live-log listener per match and one token re-check for all
its streams, as in a worker. Killed, its streams drop and clients resume (Last-Event-ID).

* ``/metrics`` and ``/healthz`` on ``METRICS_PORT`` (``shared/metrics.serve``): the streams it
  holds (``tabletop_held_streams``), the handoffs it took or dropped, and every request metric of
  the routes it ran; ``/healthz`` is 503 once it no longer listens on its socket.
* The socket file is its own: removed on SIGTERM/SIGINT (first of all, so that the workers stop
  handing off to a process that is going); one left by a process killed -9 is removed at start
  (nothing answers on it), while one a live stream process answers on is an error at start.
* ``STREAM_PROCESS_NICE`` (default 0): lowers its CPU priority below the workers' (``os.nice``),
  for a host where the fan-out's writes should yield to moves (measured on 2 shared cores, 5 did
  not lower the move's p99: docs/benchmarks.md).
"""
from gevent import monkey

monkey.patch_all()

import io  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402

import gevent  # noqa: E402
from gevent.pywsgi import WSGIServer  # noqa: E402
from gevent.server import StreamServer  # noqa: E402
from prometheus_client import Counter  # noqa: E402
from prometheus_client.core import GaugeMetricFamily  # noqa: E402
from prometheus_client.registry import Collector  # noqa: E402

from shared import metrics  # noqa: E402
from shared.config import load  # noqa: E402
from shared.stream_handoff import ANSWER_HEADERS, SERVE_HERE, listening, request_head  # noqa: E402

log = logging.getLogger("rules.streams")
GO_WITHIN_S = 2.0
HEARTBEAT_S = 5.0
STOP_WITHIN_S = 3.0  # on SIGTERM, how long held streams get before they are cut (clients resume)

RECEIVED = Counter("tabletop_stream_process_handoffs", "Handoffs the stream process received: served "
                   "(it answered the request) or dropped (the worker kept it, or the handoff broke)",
                   ["outcome"])


class HeldStreamsNow(Collector):
    """``tabletop_held_streams{service, client_kind}``: the streams this process holds now, by the
    kind of client they count against (player, bot, address)."""

    def __init__(self, held_streams, service: str):
        self.held, self.service = held_streams, service

    def collect(self):
        family = GaugeMetricFamily("tabletop_held_streams", "Streams held open by this process now, by the "
                                   "kind of client they count against", labels=["service", "client_kind"])
        by_kind = dict.fromkeys(("player", "bot", "address"), 0)
        for client, n in self.held.counts().items():
            kind = client.split(":", 1)[0]
            by_kind[kind] = by_kind.get(kind, 0) + n
        for kind, n in by_kind.items():
            family.add_metric([self.service, kind], n)
        yield family


class StreamProcess:
    def __init__(self, app, path: str):
        self.path = path
        self.wsgi = WSGIServer(("127.0.0.1", 0), self._serve_here(app), log=None)
        self.wsgi.environ.update(SERVER_NAME="rules", SERVER_PORT="")
        self.served = 0

    @staticmethod
    def _serve_here(app):
        def application(environ, start_response):
            environ[SERVE_HERE] = True
            extra = list(environ.pop(ANSWER_HEADERS, {}).items())

            def respond(status, headers, exc_info=None):
                # every answer ends its connection, said so (a client must not send another request on it)
                closing = [] if any(k.lower() == "connection" for k, _v in headers) else [("Connection", "close")]
                return start_response(status, list(headers) + extra + closing, exc_info)
            return app(environ, respond)
        return application

    def receive(self, unix, _address) -> None:
        """One handoff: the fd and its request, ``ok``, then serve once the worker said ``go``."""
        fd = None
        try:
            unix.settimeout(GO_WITHIN_S)
            msg, fds, _flags, _addr = socket.recv_fds(unix, 65536, 1)
            if not fds:
                return  # a probe of the socket (``claim_socket``), not a handoff
            fd = fds[0]
            desc = json.loads(msg)
            unix.sendall(b"ok\n")
            if unix.recv(3) != b"go\n":
                raise OSError("the worker kept the stream")
        except (OSError, ValueError) as err:
            log.warning("handoff dropped: %s", err)
            if fd is not None:
                os.close(fd)  # not shut down: the worker serves it
                RECEIVED.labels("dropped").inc()
            return
        finally:
            unix.close()
        client = socket.socket(fileno=fd)
        self.serve(client, desc)

    def serve(self, client: socket.socket, desc: dict) -> None:
        """Run the request through the app's route and write its answer to the client."""
        self.served += 1
        RECEIVED.labels("served").inc()
        address = (desc.get("remote_addr") or "", int(desc.get("remote_port") or 0))
        handler = self.wsgi.handler_class(client, address, self.wsgi, rfile=io.BytesIO(request_head(desc)))
        plain_environ = handler.get_environ

        def environ_with_answer_headers() -> dict:
            environ = plain_environ()
            environ[ANSWER_HEADERS] = dict(desc.get("answer_headers") or {})
            return environ
        handler.get_environ = environ_with_answer_headers
        try:
            handler.handle()
        finally:
            try:
                client.shutdown(socket.SHUT_RDWR)  # the end of the stream, whatever copies are left
            except OSError:
                pass
            client.close()

    def run(self) -> None:
        listener = claim_socket(self.path)
        ours = os.stat(self.path).st_ino
        server = StreamServer(listener, self.receive)

        def stop() -> None:
            release_socket(self.path, ours)  # no new handoff: the workers serve streams themselves
            gevent.spawn(server.stop, STOP_WITHIN_S)
        gevent.signal_handler(signal.SIGTERM, stop)
        gevent.signal_handler(signal.SIGINT, stop)
        gevent.spawn(self._heartbeat, ours)
        log.warning("stream process %s serving handed-off streams on %s", os.getpid(), self.path)
        try:
            server.serve_forever()
        finally:
            release_socket(self.path, ours)

    def _heartbeat(self, ours: int) -> None:
        """Healthy (``/healthz``) while the event loop runs and the socket file is still this one."""
        while True:
            try:
                if os.stat(self.path).st_ino == ours:
                    metrics.stepped()
            except OSError:
                pass
            gevent.sleep(HEARTBEAT_S)


def claim_socket(path: str) -> socket.socket:
    """A listening Unix socket at ``path``; a file left there by a dead process is replaced, one a
    live process answers on is an error (two stream processes would split the handoffs)."""
    if os.path.exists(path):
        if listening(path):
            raise SystemExit(f"another stream process is serving on {path}")
        os.unlink(path)  # stale: nothing listens there
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1024)
    return listener


def release_socket(path: str, ours: int) -> None:
    """Remove the socket file if it is still the one this process bound."""
    try:
        if os.stat(path).st_ino == ours:
            os.unlink(path)
    except OSError:
        pass


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    nice = int(os.environ.get("STREAM_PROCESS_NICE") or 0)
    if nice:
        os.nice(nice)
    if not config.stream_handoff_socket:
        log.warning("STREAM_HANDOFF_SOCKET is not set: no streams to serve (the workers serve them)")
        metrics.serve()  # healthy, with nothing to serve, until stopped
        while True:
            gevent.sleep(3600)
    from .app import create_app
    app = create_app(config)
    metrics.serve([HeldStreamsNow(app.extensions["held_streams"], "rules")])  # METRICS_PORT
    StreamProcess(app, config.stream_handoff_socket).run()


if __name__ == "__main__":
    main()
