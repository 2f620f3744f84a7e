"""The doorbell: rings every live stream of a game when its version changes (in-process).

``ring(code, version)`` after a commit; ``wait(code, seen, timeout)`` in a live stream.
Waiters are kept per game, so a ring wakes only the streams of that game: with thousands of
open streams an action costs the few phones of its table, not a wake-up of every stream.

Built on ``threading.Lock``/``threading.Event`` only, so the same code serves threads (tests,
a threaded server) and greenlets: ``companion serve`` monkey-patches ``threading`` before
this module is imported, which turns both into gevent primitives that park a greenlet, not an
OS thread. A doorbell across several server processes (PostgreSQL LISTEN/NOTIFY) only has to
call :meth:`Doorbell.ring` when a notification arrives; ``wait`` stays as it is.
"""

from __future__ import annotations

import threading
import time


class Doorbell:
    """Rings every live stream of a game when its version changes (in-process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._waiters: dict[str, set[threading.Event]] = {}

    def ring(self, code: str, version: int) -> None:
        with self._lock:
            if version > self._versions.get(code, -1):
                self._versions[code] = version
            for bell in self._waiters.get(code, ()):
                bell.set()

    def wait(self, code: str, seen: int, timeout: float, *,
             bell: threading.Event | None = None) -> int | None:
        """Block until the game's version passes ``seen`` or ``timeout``; the version or None.

        ``bell``, if given, is the event this waiter sleeps on: whoever else holds it may set
        it to end the wait early (a stream being closed); any wake-up without a newer version
        then answers None. Without it, a ring for an older version is slept through.
        """
        deadline = time.monotonic() + timeout
        own_bell = bell is None
        if bell is None:
            bell = threading.Event()
        with self._lock:
            version = self._versions.get(code, -1)
            if version > seen:
                return version
            if bell.is_set():
                return None
            self._waiters.setdefault(code, set()).add(bell)
        try:
            while True:
                left = deadline - time.monotonic()
                rung = left > 0 and bell.wait(left)
                with self._lock:
                    version = self._versions.get(code, -1)
                    if version > seen:
                        return version
                    if not rung or not own_bell:
                        return None
                    bell.clear()  # a ring for an older version: sleep on
        finally:
            with self._lock:
                waiters = self._waiters.get(code)
                if waiters is not None:
                    waiters.discard(bell)
                    if not waiters:
                        del self._waiters[code]
