"""A game's live streams under load: seatless streams opened by the dozen from one address
(reopened as soon as the server closes them, some with a made-up token) never starve a seated
phone or the host of their updates, and another address still gets a stream of its own."""

from __future__ import annotations

import threading
import time

from .helpers import ApiTable, make_app

WAIT = 20  # seconds any one step may take before the test gives up


class Reader:
    """A live stream read in its own thread (what a phone's EventSource holds open)."""

    def __init__(self, app, path, cookie=None, **kwargs):
        self.client, self.path, self.kwargs = app.test_client(), path, kwargs
        if cookie:
            self.client.set_cookie(*cookie)
        self.text, self.ended, self.changed = "", threading.Event(), threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        response = self.client.get(self.path, buffered=False, **self.kwargs)
        try:
            for chunk in response.response:
                with self.changed:
                    self.text += chunk.decode() if isinstance(chunk, bytes) else chunk
                    self.changed.notify_all()
        finally:
            response.close()
            with self.changed:
                self.ended.set()
                self.changed.notify_all()

    def wait_for(self, needle):
        """Whether ``needle`` arrives before the stream ends (or WAIT passes)."""
        with self.changed:
            return self.changed.wait_for(lambda: needle in self.text or self.ended.is_set(), WAIT) \
                and needle in self.text


def test_seatless_streams_by_the_dozen_never_starve_a_seated_phone_or_the_host(tmp_path):
    cap, per_address = 4, 2
    app = make_app(tmp_path, LIVE_STREAM_SECONDS=60, LIVE_HEARTBEAT_SECONDS=0.3,
                   LIVE_MAX_STREAMS_PER_GAME=cap, LIVE_MAX_SEATLESS_PER_ADDRESS=per_address)
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann")
    version = table.state()["version"]
    events = f"/api/games/{table.code}/events?since={version}"
    # The table's phones open their streams first: under a cap counting every stream of the
    # game, they would be the oldest, closed first.
    ann = Reader(app, events, headers=table.auth("Ann"))
    host = Reader(app, events, cookie=(f"host_{table.code}", table.host_token))
    assert ann.wait_for("retry: 1500") and host.wait_for("retry: 1500")
    # One client, one address: many more seatless streams than the cap, each reopened at once
    # when the server closes it (ignoring the retry hint), a made-up token on some.
    stop, opens, lock = threading.Event(), [0], threading.Lock()

    def abuser(n):
        headers = {"Authorization": "Bearer made-up"} if n % 3 == 0 else {}
        while not stop.is_set():
            with lock:
                opens[0] += 1
            response = app.test_client().get(events, buffered=False, headers=headers)
            try:
                for _chunk in response.response:
                    if stop.is_set():
                        break
            finally:
                response.close()

    abusers = [threading.Thread(target=abuser, args=(n,), daemon=True) for n in range(3 * cap)]
    for thread in abusers:
        thread.start()
    try:
        deadline = time.monotonic() + WAIT
        while opens[0] < 6 * cap and time.monotonic() < deadline:  # the pool churns
            stop.wait(0.05)
        assert opens[0] >= 6 * cap
        held = [s for s in app.extensions["companion_live_streams"]._games[table.code] if not s.seated]
        assert len(held) <= per_address  # one address holds at most its share of the pool
        new_version = table.act("Ann", {"type": "gear", "player": table.ids["Ann"], "delta": 1})["state"]["version"]
        for phone in (ann, host):
            assert phone.wait_for(f"id: {new_version}\n"), phone.text[-300:]
            assert not phone.ended.is_set() and "too many live streams" not in phone.text
    finally:
        stop.set()
        for thread in abusers:
            thread.join(WAIT)
    # Another address still gets a seatless stream of its own (a table screen without cookies).
    screen = Reader(app, events, environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert screen.wait_for(f"id: {new_version}\n")
