"""The doorbell: rings every live stream of a game when its version changes.

``ring(code, version)`` after a commit; ``wait(code, seen, timeout)`` in a live stream.
Waiters are kept per game, so a ring wakes only the streams of that game: with thousands of
open streams an action costs the few phones of its table, not a wake-up of every stream.

Built on ``threading.Lock``/``threading.Event`` only, so the same code serves threads (tests,
a threaded server) and greenlets: ``companion serve`` monkey-patches ``threading`` before
this module is imported, which turns both into gevent primitives that park a greenlet, not an
OS thread.

Across processes (``companion serve --workers N``, or several servers on one database) a
watcher rings the doorbell for changes committed elsewhere. It runs in the background only
while streams wait, one per process:

- :class:`PostgresListener`: one connection that LISTENs on ``companion_changed``; every
  commit sends ``NOTIFY companion_changed, '<code>:<version>'`` in its transaction. When
  that connection drops it reconnects, and after (re)connecting it reads the versions of the
  games streams wait on, since notifications sent meanwhile are lost.
- :class:`VersionPoll` (SQLite): every second, one query for the versions of the games
  streams wait on. One process is SQLite's normal case; this keeps several correct, cheaply.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

log = logging.getLogger(__name__)

CHANNEL = "companion_changed"


class Doorbell:
    """Rings every live stream of a game when its version changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._waiters: dict[str, set[threading.Event]] = {}
        # Called (outside the lock) when a game gets its first waiter: starts a watcher.
        self.on_first_waiter: Callable[[], None] | None = None

    def ring(self, code: str, version: int) -> None:
        """The game is at ``version`` now: wake its streams, unless that is no news."""
        with self._lock:
            if version <= self._versions.get(code, -1):
                return  # already rung (a commit here, then its own notification)
            self._versions[code] = version
            for bell in self._waiters.get(code, ()):
                bell.set()

    def waiting(self) -> list[str]:
        """The games that streams wait on now."""
        with self._lock:
            return list(self._waiters)

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
            first = code not in self._waiters
            self._waiters.setdefault(code, set()).add(bell)
        if first and self.on_first_waiter is not None:
            self.on_first_waiter()
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
                    bell.clear()  # woken without news: sleep on
        finally:
            with self._lock:
                waiters = self._waiters.get(code)
                if waiters is not None:
                    waiters.discard(bell)
                    if not waiters:
                        del self._waiters[code]


Versions = Callable[[list[str]], dict[str, int]]  # codes -> {code: version} from the database


class _Watcher:
    """Rings ``doorbell`` for changes made by other processes, in a background thread (a
    greenlet under gevent) that runs only while streams wait: it starts when a game gets its
    first waiter and stops after ``linger`` seconds with none."""

    name = "companion-doorbell"

    def __init__(self, doorbell: Doorbell, versions: Versions, *, linger: float) -> None:
        self.doorbell = doorbell
        self.versions = versions
        self.linger = linger
        self._lock = threading.Lock()
        self._running = False
        self._closed = threading.Event()
        doorbell.on_first_waiter = self.wake

    def wake(self) -> None:
        """Make sure the watcher runs (a stream started waiting)."""
        with self._lock:
            if self._running or self._closed.is_set():
                return
            self._running = True
        threading.Thread(target=self._main, name=self.name, daemon=True).start()

    def close(self) -> None:
        self._closed.set()

    @property
    def running(self) -> bool:
        return self._running

    def _main(self) -> None:
        failed = True
        try:
            self.run()
            failed = False
        except BaseException:  # never dies silently with streams waiting
            log.exception("the doorbell watcher failed")
            raise
        finally:
            # An idle stop has said so under the lock already (see _may_stop).
            if failed or self._closed.is_set():
                with self._lock:
                    self._running = False

    def _may_stop(self) -> bool:
        """Whether to stop now: closed, or nobody waits. Decided under the lock that ``wake``
        takes, so a stream that starts waiting meanwhile finds the watcher stopped and starts
        a new one."""
        with self._lock:
            if self._closed.is_set() or not self.doorbell.waiting():
                self._running = False
                return True
            return False

    def recheck(self) -> None:
        """Ring every waited-on game with its version from the database."""
        codes = self.doorbell.waiting()
        if codes:
            for code, version in self.versions(codes).items():
                self.doorbell.ring(code, version)

    def run(self) -> None:
        raise NotImplementedError


class VersionPoll(_Watcher):
    """Every ``interval`` seconds, one query for the versions of all waited-on games."""

    name = "companion-doorbell-poll"

    def __init__(self, doorbell: Doorbell, versions: Versions, *, interval: float = 1.0,
                 linger: float = 5.0) -> None:
        super().__init__(doorbell, versions, linger=linger)
        self.interval = interval

    def run(self) -> None:
        idle_since = None
        while not self._closed.wait(self.interval):
            if not self.doorbell.waiting():
                idle_since = idle_since or time.monotonic()
                if time.monotonic() - idle_since >= self.linger and self._may_stop():
                    return
                continue
            idle_since = None
            try:
                self.recheck()
            except Exception as exc:  # the database is busy or away: ask again next time
                log.warning("doorbell poll failed: %s", exc)


class PostgresListener(_Watcher):
    """One LISTEN connection per process; each notification rings the doorbell.

    ``connect()`` opens a new autocommit psycopg connection. If the connection drops, the
    listener reconnects (backing off up to 5 s) while streams wait; after every (re)connect
    it rechecks the waited-on games, so nothing committed while it was away is missed.
    """

    name = "companion-doorbell-listen"

    def __init__(self, doorbell: Doorbell, versions: Versions, connect: Callable[[], Any], *,
                 linger: float = 30.0) -> None:
        super().__init__(doorbell, versions, linger=linger)
        self.connect = connect
        self.tick = 1.0  # seconds between looks at whether it is closed or idle
        self.connections = 0  # how many times it connected and caught up (tests look)
        self.backend_pid: int | None = None  # the listening connection's, once caught up

    def run(self) -> None:
        backoff = 0.1
        while not self._closed.is_set():
            try:
                with self.connect() as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.recheck()  # whatever was committed while nobody listened
                    # Told once caught up: from here on only a notification rings (tests wait
                    # on it before a change that must reach this process by LISTEN alone).
                    self.backend_pid = connection.info.backend_pid
                    self.connections += 1
                    backoff = 0.1
                    if self._listen(connection):
                        return
            except Exception as exc:
                self.backend_pid = None
                if self._may_stop():
                    return
                log.warning("doorbell listener lost the database (%s); reconnecting in %.1f s",
                            exc, backoff)
                if self._closed.wait(backoff):
                    return
                backoff = min(backoff * 2, 5.0)

    def _listen(self, connection) -> bool:
        """Ring for each notification until closed or idle (True) or the connection fails."""
        idle_since = None
        while not self._closed.is_set():
            for note in connection.notifies(timeout=self.tick):
                code, _, version = note.payload.rpartition(":")
                if code and version.isdigit():
                    self.doorbell.ring(code, int(version))
            if self.doorbell.waiting():
                idle_since = None
            else:
                idle_since = idle_since or time.monotonic()
                if time.monotonic() - idle_since >= self.linger and self._may_stop():
                    return True
        return True
