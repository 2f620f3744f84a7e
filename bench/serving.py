"""What the benchmarks that drive a real server share: a free port, a percentile, and
``companion serve`` on loopback with a fresh database for the length of a ``with``."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import requests


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@contextlib.contextmanager
def companion_server(**env: str) -> Iterator[str]:
    """The base URL of a fresh ``companion serve``, stopped on leaving."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, COMPANION_INSTANCE_PATH=tempfile.mkdtemp(prefix="companion-bench-"),
               COMPANION_PUBLIC_URL=base, **env)
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                               "--port", str(port)], env=env, stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                requests.get(base + "/", timeout=1)
                break
            except requests.RequestException:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(10)
