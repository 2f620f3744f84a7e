"""Live updates as a doorbell: a Server-Sent Events stream per phone.

The stream carries no game data, only "changed" events with the new version; each page then
GETs what it shows. A missed event is harmless: the next one, a reconnect (which sends the
current version at once) or the page becoming visible again catches up.

Under ``companion serve`` (gevent) a waiting stream is a parked greenlet, not an OS thread.

Who holds a stream decides what it competes with, so that no client starves a table:

- A phone holding a seat, and the host (a seat or host cookie, or a bearer token), always get
  their stream. Each seat holds at most ``LIVE_MAX_STREAMS_PER_SEAT`` (a few tabs); past that
  its own oldest one closes.
- Streams without a seat share a bounded pool: at most ``LIVE_MAX_STREAMS_PER_GAME`` per game
  and ``LIVE_MAX_SEATLESS_PER_ADDRESS`` per game from one address. Past either, the oldest
  seatless stream of that pool closes, telling it to come back only after 15 s, and newcomers
  are let in one per ``EVICTION_INTERVAL``: one client opening streams by the hundred only
  competes with itself. Seated phones are never counted against an address (a table on one
  café wifi shares one), nor against the pool.
"""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Iterator, NamedTuple

from flask import Flask, Response, current_app, request, stream_with_context

from .games import bearer_token, store

MAX_BACKLOG = 50  # after a long sleep, one event for the latest version is enough
DEFAULT_MAX_STREAMS_PER_GAME = 60  # seatless ones (a table screen without the host's cookie)
DEFAULT_MAX_SEATLESS_PER_ADDRESS = 8
DEFAULT_MAX_STREAMS_PER_SEAT = 8
EVICTED_RETRY_MS = 15000
EVICTION_INTERVAL = 0.1  # a game at its cap takes in a new stream at most this often


def _event(code: str, version: int) -> str:
    return f"id: {version}\nevent: changed\ndata: {json.dumps({'code': code, 'version': version})}\n\n"


class _Stream:
    """One open live stream: the bell it sleeps on, whether it was told to close, and whose it
    is (``group``: a seat, the host, or an address for a stream without a seat)."""

    __slots__ = ("bell", "closed", "group", "seated")

    def __init__(self, group: tuple = ("seatless", None), seated: bool = False) -> None:
        self.bell = threading.Event()
        self.closed = False
        self.group = group
        self.seated = seated


class StreamRegistry:
    """The open live streams of each game, oldest first, for the caps."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, dict[_Stream, None]] = {}  # a dict keeps the opening order
        self._checked: dict[str, tuple[float, int]] = {}  # code -> (when, version) from the database
        self._next_slot: dict[str, float] = {}  # code -> when a full pool takes the next one

    def _full(self, streams, group: tuple, seated: bool, group_cap: int, pool_cap: int) -> bool:
        if sum(1 for s in streams if s.group == group) >= max(group_cap, 1):
            return True
        return not seated and sum(1 for s in streams if not s.seated) >= max(pool_cap, 1)

    def admission_delay(self, code: str, cap: int, group: tuple = ("seatless", None),
                        seated: bool = False, group_cap: int | None = None) -> float:
        """Seconds a new stream without a seat waits before it may close an older one.

        Newcomers to a full pool are let in one per ``EVICTION_INTERVAL``: a client that
        reopens every closed stream at once (ignoring the retry hint) then waits, parked,
        instead of making the server open and close streams in a tight loop. A seated
        phone never waits."""
        if seated:
            return 0.0
        with self._lock:
            if not self._full(self._games.get(code, ()), group, seated,
                              cap if group_cap is None else group_cap, cap):
                return 0.0
            now = time.monotonic()
            slot = max(now, self._next_slot.get(code, 0.0))
            self._next_slot[code] = slot + EVICTION_INTERVAL
            return slot - now

    def open(self, code: str, cap: int, group: tuple = ("seatless", None), seated: bool = False,
             group_cap: int | None = None) -> _Stream:
        """A new stream; past its group's cap (or, seatless, the game's pool) the oldest of
        that group (or pool) is closed. A seated stream never closes another seat's."""
        stream = _Stream(group, seated)
        group_cap = cap if group_cap is None else group_cap
        with self._lock:
            streams = self._games.setdefault(code, {})
            mine = [s for s in streams if s.group == group]
            while len(mine) >= max(group_cap, 1):
                self._evict(streams, mine.pop(0))
            if not seated:
                pool = [s for s in streams if not s.seated]
                while len(pool) >= max(cap, 1):
                    self._evict(streams, pool.pop(0))
            streams[stream] = None
        return stream

    @staticmethod
    def _evict(streams: dict, oldest: _Stream) -> None:
        del streams[oldest]
        oldest.closed = True
        oldest.bell.set()  # wakes it out of the doorbell's wait; it then ends

    def close(self, code: str, stream: _Stream) -> None:
        with self._lock:
            streams = self._games.get(code)
            if streams is not None:
                streams.pop(stream, None)
                if not streams:
                    del self._games[code]
                    self._checked.pop(code, None)
                    self._next_slot.pop(code, None)

    def checked_version(self, code: str, fetch, max_age: float) -> int:
        """The game's version from the database, looked up at most once per ``max_age`` for
        all the streams of a game (their heartbeats would otherwise each ask)."""
        now = time.monotonic()
        checked = self._checked.get(code)
        if checked is not None and now - checked[0] < max_age:
            return checked[1]
        version = fetch(code)
        self._checked[code] = (time.monotonic(), version)
        return version


def streams(app: Flask) -> StreamRegistry:
    registry = app.extensions.get("companion_live_streams")
    if registry is None:
        registry = app.extensions.setdefault("companion_live_streams", StreamRegistry())
    return registry


def _whose(code: str) -> tuple:
    """Whose stream this is: ("host",), ("seat", player id), or ("seatless", address). A
    token is checked, not just read: a made-up one is a stream without a seat."""
    tokens = [t for t in (bearer_token(), request.cookies.get(f"host_{code}"),
                          request.cookies.get(f"seat_{code}")) if t]
    if tokens:
        # Read here, not through shared.request_game: a stream keeps its request's g open
        # for minutes, and with it the state it read.
        the_store = store()
        game = the_store.read(code)
        for token in tokens:
            actor = the_store.actor(game, token)
            if actor.host:
                return ("host",)
            if actor.player is not None:
                return ("seat", actor.player)
    return ("seatless", request.remote_addr)


class _Plan(NamedTuple):
    """What one stream was given on opening: how long it lasts, how often it beats when
    quiet, whose it is and its caps, and the version the phone already shows."""

    seconds: float
    heartbeat: float
    cap: int
    group: tuple
    seated: bool
    group_cap: int
    since: int | None


def _plan(code: str) -> _Plan:
    config = current_app.config
    # Streams end a little before LIVE_STREAM_SECONDS, spread out, so phones that connected
    # together (a server restart) do not all reconnect in the same second again.
    seconds = config["LIVE_STREAM_SECONDS"] * random.uniform(0.9, 1.0)
    heartbeat = config["LIVE_HEARTBEAT_SECONDS"]
    cap = int(config.get("LIVE_MAX_STREAMS_PER_GAME", DEFAULT_MAX_STREAMS_PER_GAME))
    group = _whose(code)
    seated = group[0] != "seatless"
    group_cap = int(config.get("LIVE_MAX_STREAMS_PER_SEAT", DEFAULT_MAX_STREAMS_PER_SEAT) if seated
                    else config.get("LIVE_MAX_SEATLESS_PER_ADDRESS", DEFAULT_MAX_SEATLESS_PER_ADDRESS))
    since = request.args.get("since", type=int)
    if since is None:
        since = request.headers.get("Last-Event-ID", type=int)
    return _Plan(seconds, heartbeat, cap, group, seated, group_cap, since)


def _stream_body(the_store, registry: StreamRegistry, code: str, plan: _Plan) -> Iterator[str]:
    """The whole stream: wait for a place, say the version now, follow the changes, and say
    why when closed for a newer stream."""
    delay = registry.admission_delay(code, plan.cap, plan.group, plan.seated, plan.group_cap)
    if delay > 0:
        time.sleep(delay)  # a parked greenlet under gevent
    stream = registry.open(code, plan.cap, plan.group, plan.seated, plan.group_cap)
    try:
        seen = the_store.version(code)
        # Retry quickly after a drop; the browser reconnects by itself.
        yield "retry: 1500\n\n"
        if plan.since is None or plan.since != seen:
            yield _event(code, seen)
        yield from _follow(the_store, registry, code, stream, seen, plan)
        if stream.closed:
            # Closed for a newer stream of its pool (or its seat): a browser waits this long
            # before it comes back, so a client holding streams by the hundred cannot spin
            # the server.
            yield f": too many live streams for this game\nretry: {EVICTED_RETRY_MS}\n\n"
    finally:
        registry.close(code, stream)


def _follow(the_store, registry: StreamRegistry, code: str, stream: _Stream, seen: int,
            plan: _Plan) -> Iterator[str]:
    """Every version after ``seen`` as the doorbell rings, and a heartbeat when quiet, until
    the stream's time is up or it is closed."""
    heartbeat = plan.heartbeat
    now = time.monotonic()
    deadline, quiet_until = now + plan.seconds, now + heartbeat
    while not stream.closed and now < deadline:
        stream.bell.clear()
        if stream.closed:
            break
        version = the_store.doorbell.wait(code, seen, min(quiet_until, deadline) - now,
                                          bell=stream.bell)
        now = time.monotonic()
        if stream.closed:
            break
        if version is None:
            if now < quiet_until:
                continue  # woken without news (an old ring): sleep on
            # Quiet for a while: a heartbeat keeps proxies from closing the stream, and a
            # look at the database catches a change made by another server process.
            quiet_until = now + heartbeat
            version = registry.checked_version(code, the_store.version, heartbeat / 2)
            if version <= seen:
                yield ": heartbeat\n\n"
                continue
        if version - seen > MAX_BACKLOG:
            seen = version - 1
        for v in range(seen + 1, version + 1):
            yield _event(code, v)
        seen = version
        quiet_until = now + heartbeat


def event_stream(code: str) -> Response:
    the_store = store()
    registry = streams(current_app)
    body = _stream_body(the_store, registry, code, _plan(code))
    response = Response(stream_with_context(body), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
