"""Starting ``companion serve`` (or any command that serves HTTP) for a test: a free loopback
port, and a process that is waited for until its home page answers, and always stopped."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from typing import Callable, Iterator

import requests


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
