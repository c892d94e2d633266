"""The rules service's stream process: serves the held streams its gunicorn workers hand off.

``python -m services.rules.stream_server`` (a gevent process beside the workers, same host):
listens on ``STREAM_HANDOFF_SOCKET``, receives each client connection with ``socket.recv_fds``
(protocol in ``shared/stream_handoff.py``), rebuilds the request and runs the SAME Flask app's
route with ``tabletop.serve_here`` set, so it streams instead of handing off again. The answer
says ``Connection: close``; at its end the connection is shut down (the worker may still hold a
copy of the fd for its keep-alive wait). One live-log listener per match and one token re-check
for all its streams, as in a worker. Killed, its streams drop and clients resume (Last-Event-ID).
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

from shared.config import load  # noqa: E402
from shared.stream_handoff import ANSWER_HEADERS, SERVE_HERE, request_head  # noqa: E402

log = logging.getLogger("rules.streams")
GO_WITHIN_S = 2.0


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
                return start_response(status, list(headers) + extra, exc_info)
            return app(environ, respond)
        return application

    def receive(self, unix, _address) -> None:
        """One handoff: the fd and its request, ``ok``, then serve once the worker said ``go``."""
        fd = None
        try:
            unix.settimeout(GO_WITHIN_S)
            msg, fds, _flags, _addr = socket.recv_fds(unix, 65536, 1)
            if not fds:
                return
            fd = fds[0]
            desc = json.loads(msg)
            unix.sendall(b"ok\n")
            if unix.recv(3) != b"go\n":
                raise OSError("the worker kept the stream")
        except (OSError, ValueError) as err:
            log.warning("handoff dropped: %s", err)
            if fd is not None:
                os.close(fd)  # not shut down: the worker serves it
            return
        finally:
            unix.close()
        client = socket.socket(fileno=fd)
        self.serve(client, desc)

    def serve(self, client: socket.socket, desc: dict) -> None:
        """Run the request through the app's route and write its answer to the client."""
        self.served += 1
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
        if os.path.exists(self.path):
            os.unlink(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.path)
        listener.listen(1024)
        server = StreamServer(listener, self.receive)
        gevent.signal_handler(signal.SIGTERM, server.stop)
        log.warning("stream process %s serving handed-off streams on %s", os.getpid(), self.path)
        server.serve_forever()


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    if not config.stream_handoff_socket:
        log.warning("STREAM_HANDOFF_SOCKET is not set: no streams to serve")
        signal.pause()
        return
    from .app import create_app
    StreamProcess(create_app(config), config.stream_handoff_socket).run()


if __name__ == "__main__":
    main()
