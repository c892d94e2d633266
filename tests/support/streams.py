"""Reading a held stream in a test: SSE or NDJSON, on a thread, messages and keep-alives apart."""
from __future__ import annotations

import json
import queue
import socket
import threading
import time

import requests

SSE = "text/event-stream"
NDJSON = "application/x-ndjson"


class StreamReader:
    """One live stream read on a thread. ``messages``: dicts ``{"id", "event", "data"}`` (both
    formats give the same); ``keepalives``: comments (SSE) or empty lines (NDJSON); ``ended`` is
    set when the server closes the stream."""

    def __init__(self, url: str, token: str | None = None, *, accept: str = SSE, last_event_id: str | None = None):
        headers = {"Accept": accept}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.resp = requests.get(url, headers=headers, stream=True, timeout=(10, 120))
        self.resp.encoding = "utf-8"  # application/x-ndjson names no charset: requests would give bytes
        self.status = self.resp.status_code
        self.content_type = self.resp.headers.get("Content-Type", "")
        self.messages: queue.Queue = queue.Queue()
        self.keepalives: queue.Queue = queue.Queue()
        self.ended = threading.Event()
        self.error: Exception | None = None
        if self.status == 200:
            reader = self._ndjson if self.content_type.startswith(NDJSON) else self._sse
            threading.Thread(target=self._read, args=(reader,), daemon=True).start()

    def _read(self, reader) -> None:
        try:
            reader(self.resp.iter_lines(decode_unicode=True))
        except (requests.RequestException, AttributeError, ValueError, OSError) as err:
            self.error = err
        finally:
            self.ended.set()

    def _ndjson(self, lines) -> None:
        for line in lines:
            if line == "":
                self.keepalives.put(time.monotonic())
            else:
                self.messages.put(json.loads(line))

    def _sse(self, lines) -> None:
        message: dict = {}
        for line in lines:
            if line.startswith(":"):
                self.keepalives.put(time.monotonic())
            elif line == "":
                if "data" in message:
                    self.messages.put(message)
                message = {}
            else:
                field, _, value = line.partition(": ")
                if field == "data":
                    message["data"] = json.loads(value)
                elif field == "id":
                    message["id"] = value
                elif field == "event":
                    message["event"] = value

    def next(self, timeout: float = 60) -> dict:
        return self.messages.get(timeout=timeout)

    def next_of(self, kind: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.1, deadline - time.monotonic()))
            if message.get("event") == kind:
                return message

    def close(self) -> None:
        self.resp.close()


class RawStreams:
    """Many held streams on raw sockets (cheap for the test): each sends its request and reads the
    status line; nothing more is read, so the server holds them idle."""

    def __init__(self, host: str, port: int, requests_: list[tuple[str, dict]]):
        self.sockets, self.statuses = [], []
        for path, headers in requests_:
            sock = socket.create_connection((host, port), timeout=30)
            head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\n{head}\r\n".encode())
            self.sockets.append(sock)
        for sock in self.sockets:
            data = b""
            while b"\r\n" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
            self.statuses.append(int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0)

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
