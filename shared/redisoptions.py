"""How the project's redis-py clients connect: ``connection_options()``, given to every client and
pool the services make (``shared.config``, the rate limits' pool).

Two settings, both about the check redis-py's pool makes before it hands out a connection — is
there anything to read on it? A reply left over (a command interrupted between its send and its
read) would otherwise be read as the next command's answer.

* **The check is made.** redis-py 8 skips acting on it while "maintenance notifications" are
  enabled, and its default, ``"auto"``, counts as enabled: a connection left holding a reply goes
  back into use and answers the next command with it (``tests/integration/test_redis_options.py``).
  Those notifications are a managed service's (``CLIENT MAINT_NOTIFICATIONS``); the servers this
  project runs on send none, so they are off.
* **The check costs no greenlet switch.** It polls the socket with a zero timeout; under gevent's
  monkey-patching that poll is gevent's, which arms a watcher and a timer and switches to the hub
  and back: the largest single leaf of a rules worker's move (``bench/profile_moves.py``).
  ``HiredisParser`` asks the operating system's own ``poll`` first, which answers at once for a
  zero timeout, and hands anything but "nothing to read" — a reply left over, a closed socket, a
  wait with a timeout — to redis-py's own check, unchanged.
"""
from __future__ import annotations

import select

from redis._parsers import _HiredisParser
from redis.connection import DefaultParser
from redis.maint_notifications import MaintNotificationsConfig

try:  # the unpatched poll, also in a process gevent has patched
    from gevent.monkey import get_original

    _os_poll = get_original("select", "poll")
except ImportError:  # pragma: no cover - gevent is a pinned dependency
    _os_poll = select.poll


class HiredisParser(_HiredisParser):
    """hiredis's parser; ``can_read(0)`` answers "nothing to read" without a greenlet switch."""

    def can_read(self, timeout: float = 0) -> bool:
        sock, reader = self._sock, self._reader
        if timeout == 0 and sock is not None and reader is not None and not reader.has_data() \
                and not _tls_pending(sock):
            poller = _os_poll()
            poller.register(sock, select.POLLIN)
            if not poller.poll(0):
                return False
        return super().can_read(timeout)


def _tls_pending(sock) -> bool:
    """Bytes a TLS socket has decrypted but not yet handed over (no poll of the socket sees them)."""
    pending = getattr(sock, "pending", None)
    return bool(pending and pending())


def connection_options() -> dict:
    """Options for a redis-py client, pool or connection (``parser_class`` only where hiredis is
    installed: without it redis-py parses in Python and keeps its own parser)."""
    options: dict = {"maint_notifications_config": MaintNotificationsConfig(enabled=False)}
    if DefaultParser is _HiredisParser:
        options["parser_class"] = HiredisParser
    return options
