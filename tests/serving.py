"""Starting ``companion serve`` (or any command that serves HTTP) for a test: a free loopback
port, and a process that is waited for until its home page answers, and always stopped. Then
talking to it as phones do: a game with Ann seated, her tap, and a live stream on a raw socket."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from typing import Callable, Iterator

import requests

WAIT = 15  # seconds any one step may take before the test gives up


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(command: list, url: str, *, output: Callable[[subprocess.Popen], str], wait: float = 30,
            **popen) -> Iterator[subprocess.Popen]:
    """``command`` running until the block ends, once ``url`` + "/" answers 200 (a bounded
    wait on that condition); if it stops or does not answer in time, RuntimeError with what
    ``output(proc)`` says it printed."""
    proc = subprocess.Popen(command, **popen)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                if requests.get(url + "/", timeout=5).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{command[0]} did not start serving:\n{output(proc)[-3000:]}")
            time.sleep(0.1)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def stderr_of(proc: subprocess.Popen) -> str:
    """What a process started with ``stderr=subprocess.PIPE`` wrote there."""
    return proc.stderr.read().decode(errors="replace") if proc.stderr else ""


def new_table(url: str) -> tuple[str, int, str]:
    game = requests.post(url + "/api/games", json={"edition": "classic"}, timeout=WAIT).json()
    seat = requests.post(f"{url}/api/games/{game['code']}/players", json={"name": "Ann", "sex": "female"},
                         timeout=WAIT).json()
    return game["code"], seat["player_id"], seat["token"]


def act(url: str, code: str, player: int, token: str) -> int:
    r = requests.post(f"{url}/api/games/{code}/actions", json={"type": "level", "player": player, "delta": 1},
                      headers={"Authorization": f"Bearer {token}"}, timeout=WAIT)
    assert r.status_code == 200, r.text
    return r.json()["state"]["version"]


class Stream:
    """A raw-socket live stream (what a phone's EventSource holds open)."""

    def __init__(self, port: int, code: str, since: int | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        self.sock.settimeout(1)
        query = "" if since is None else f"?since={since}"
        self.sock.sendall(f"GET /api/games/{code}/events{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Accept: text/event-stream\r\nAccept-Encoding: gzip, br\r\n\r\n".encode())
        self.data = b""
        self.closed = False

    def read_until(self, needle: bytes) -> bool:
        """Read until ``needle`` arrives (True) or the server closes the stream (False)."""
        deadline = time.monotonic() + WAIT
        while needle not in self.data:
            if self.closed or time.monotonic() > deadline:
                return needle in self.data
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except ConnectionError:
                chunk = b""
            if not chunk:
                self.closed = True
            self.data += chunk
        return True

    def ended(self) -> bool:
        """Whether the server ends this stream (its last chunk, or the connection, closes)."""
        return self.read_until(b"\r\n0\r\n\r\n") or self.closed

    def close(self) -> None:
        self.sock.close()
