"""What the benchmarks that drive a real server share: a free port, a percentile, and
``companion serve`` on loopback with a fresh database for the length of a ``with``
(``companion_server`` gives its base URL; ``running_server`` also its process, for CPU)."""

from __future__ import annotations

import contextlib
import glob
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass

import requests

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")  # /proc/<pid>/stat counts CPU time in these


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux, /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    # The command name (field 2) may hold spaces: count the fields after its ")".
    fields = stat.rsplit(")", 1)[1].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    return (utime + stime) / CLOCK_TICKS


def process_cpu_seconds_fine(pid: int) -> float:
    """The same, to the nanosecond rather than the clock tick (10 ms): the run time of each of
    its threads from /proc/<pid>/task/*/schedstat; the tick count when that is missing. For
    requests of a few milliseconds each (a thread that ended meanwhile is left out)."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # the thread ended between the listing and the read
    return total / 1e9 if total else process_cpu_seconds(pid)


def wait_until_up(process: subprocess.Popen, url: str, what: str) -> None:
    """Until ``url`` answers; up to a minute (on this shared 2-core VM under a test run,
    start-up took over 10 s). Exits the benchmark when the process ends or the minute passes."""
    deadline = time.monotonic() + 60
    while True:
        try:
            requests.get(url, timeout=1)
            return
        except requests.RequestException:
            if process.poll() is not None:
                raise SystemExit(f"{what} exited with {process.returncode} at start")
            if time.monotonic() > deadline:
                raise SystemExit(f"{what} did not answer on {url} within 60 s")
            time.sleep(0.1)


@dataclass
class RunningServer:
    base: str  # e.g. http://127.0.0.1:54321
    pid: int  # the one ``companion serve`` process (no --workers)

    def cpu_seconds(self) -> float:
        return process_cpu_seconds(self.pid)

    def cpu_seconds_fine(self) -> float:
        return process_cpu_seconds_fine(self.pid)


@contextlib.contextmanager
def running_server(**env: str) -> Iterator[RunningServer]:
    """A fresh ``companion serve`` (its URL and process), stopped on leaving."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, COMPANION_INSTANCE_PATH=tempfile.mkdtemp(prefix="companion-bench-"),
               COMPANION_PUBLIC_URL=base, **env)
    server = subprocess.Popen([sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                               "--port", str(port)], env=env, stdout=subprocess.DEVNULL)
    try:
        wait_until_up(server, base + "/", "companion serve")
        yield RunningServer(base, server.pid)
    finally:
        server.terminate()
        server.wait(10)


@contextlib.contextmanager
def companion_server(**env: str) -> Iterator[str]:
    """The base URL of a fresh ``companion serve``, stopped on leaving."""
    with running_server(**env) as server:
        yield server.base
