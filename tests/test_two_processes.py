"""Several real ``companion serve`` processes on one database behave as one server.

Two servers on two free loopback ports share one PostgreSQL database (a fresh one for this
module), the second with ``--workers 2`` (two processes on its port): an action through the
first reaches a live stream opened on the second (LISTEN/NOTIFY), and twenty phones tapping
through both at once lose no update. ``--workers 2`` on SQLite (which polls) too. Every
wait is bounded.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from sqlalchemy import text
from sqlalchemy.engine import make_url

from .serving import WAIT, Stream, act, free_port, new_table

ROOT = Path(__file__).resolve().parent.parent
LINUX = sys.platform.startswith("linux")  # --workers forks there; elsewhere it serves with one


@pytest.fixture(scope="module")
def postgres_url(postgres_admin):
    name = f"companion_test_{uuid.uuid4().hex[:20]}"
    with postgres_admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(postgres_admin.url).set(database=name).render_as_string(hide_password=False)
    with postgres_admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class Serving:
    """``companion serve`` on a free port of 127.0.0.1 (``start``, then ``ready``)."""

    def __init__(self, database_url: str, instance: Path, *args: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.instance = instance
        instance.mkdir(parents=True, exist_ok=True)
        self.env = dict(os.environ, COMPANION_INSTANCE_PATH=str(instance), COMPANION_PUBLIC_URL=self.url,
                        COMPANION_SECRET_KEY="two-processes", COMPANION_DATABASE_URL=database_url)
        self.args = args
        self.proc: subprocess.Popen | None = None

    def __getitem__(self, key):  # server["url"], server["port"], server["proc"] as in test_serve
        return getattr(self, key)

    def start(self) -> "Serving":
        with open(self.instance / "server.log", "wb") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                                          "--port", str(self.port), *self.args], env=self.env, cwd=ROOT,
                                         stdout=subprocess.DEVNULL, stderr=log)
        return self

    def ready(self) -> "Serving":
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(self.url + "/", timeout=2).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("companion serve did not start: "
                                   + (self.instance / "server.log").read_text()[-2000:])
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@contextmanager
def serving(*servers: Serving):
    """Start the servers together (their start-ups overlap), yield once all answer, stop them."""
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture(scope="module")
def two(postgres_url, tmp_path_factory):
    base = tmp_path_factory.mktemp("two")
    with serving(Serving(postgres_url, base / "a"), Serving(postgres_url, base / "b", "--workers", "2")) as both:
        yield both


def workers(server: Serving) -> list[str]:
    pid = server.proc.pid
    return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()


def test_an_action_through_one_process_rings_a_stream_on_the_other(two):
    a, b = two
    assert not LINUX or len(workers(b)) == 2
    code, player, token = new_table(a["url"])
    version = requests.get(f"{b['url']}/api/games/{code}", timeout=WAIT).json()["version"]
    # Four phones on B: their streams land on either of B's workers.
    streams = [Stream(b["port"], code, since=version) for _ in range(4)]
    try:
        for stream in streams:
            assert stream.read_until(b"retry: 1500")
        time.sleep(0.2)  # the streams are parked on B's doorbells, B's listeners LISTENing
        sent = time.monotonic()
        new_version = act(a["url"], code, player, token)
        for stream in streams:
            assert stream.read_until(f"id: {new_version}\nevent: changed\n".encode())
        assert time.monotonic() - sent < 5.0  # notifications, not B's 15 s heartbeat check
    finally:
        for stream in streams:
            stream.close()


def test_twenty_phones_tapping_through_both_processes_lose_no_update(two):
    a, b = two
    game = requests.post(a["url"] + "/api/games", json={"edition": "classic"}, timeout=WAIT).json()
    code, host = game["code"], game["host_token"]
    seat = requests.post(f"{b['url']}/api/games/{code}/players", json={"name": "Ann", "sex": "female"},
                         timeout=WAIT).json()
    start = threading.Barrier(20)
    answers = []

    def phone(url):
        start.wait(WAIT)
        r = requests.post(f"{url}/api/games/{code}/actions", timeout=WAIT * 2,
                          json={"type": "gear", "player": seat["player_id"], "delta": 1},
                          headers={"Authorization": f"Bearer {host}"})
        answers.append(r.status_code)

    threads = [threading.Thread(target=phone, args=((a, b)[i % 2]["url"],)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT * 3)
    assert answers == [200] * 20
    for server in (a, b):
        state = requests.get(f"{server['url']}/api/games/{code}", timeout=WAIT).json()
        assert state["version"] == 21  # the join, then one version per tap
        assert state["players"][0]["gear_adjust"] == 20


@pytest.mark.skipif(not LINUX, reason="--workers forks on Linux only")
def test_workers_on_sqlite_share_one_port_and_every_stream_hears_every_change(tmp_path):
    with serving(Serving(f"sqlite:///{tmp_path / 'workers.db'}", tmp_path / "w", "--workers", "2")) as (server,):
        children = workers(server)
        assert len(children) == 2
        code, player, token = new_table(server["url"])
        version = requests.get(f"{server['url']}/api/games/{code}", timeout=WAIT).json()["version"]
        # Six phones: their streams land on either worker, as the kernel hands them out.
        streams = [Stream(server["port"], code, since=version) for _ in range(6)]
        try:
            for stream in streams:
                assert stream.read_until(b"retry: 1500")
            time.sleep(0.2)
            for _ in range(3):
                new_version = act(server["url"], code, player, token)
            for stream in streams:
                # SQLite's poll runs once a second; both well inside WAIT.
                assert stream.read_until(f"id: {new_version}\nevent: changed\n".encode())
        finally:
            for stream in streams:
                stream.close()
        # A SIGTERM to the parent stops every worker.
        server["proc"].terminate()
        server["proc"].wait(15)
        for pid in children:
            deadline = time.monotonic() + WAIT
            while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
