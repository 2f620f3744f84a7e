"""Benchmark: thousands of live streams on one ``companion serve`` process.

For each N (default 100, 1,000 and 5,000) it starts the real server (``companion serve`` in a
subprocess, a free 127.0.0.1 port, a fresh temporary instance folder), puts N/6 tables in
its database, opens N live streams (six per table, like six phones), then has some of the
tables act (a few actions a second in all, each table waiting between its actions like a
player) and prints:

- streams held: how many of the N are still open at the end;
- action p50/p95: the HTTP round trip of an action;
- fan-out p50/p95: from the action's answer until every stream of that table has the
  ``changed`` event (0 when the events came before the answer);
- memory per stream: the server's RSS growth while the streams opened, divided by N.

The client is asyncio on raw sockets (one process, no thread per stream). Every loop is
bounded in count and time, and all traffic goes to 127.0.0.1.

    .venv/bin/python bench/streams.py [--streams 100 1000 5000] [--actions 300] [--rate 25]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHONES = 6
HOST = "127.0.0.1"
EVENT_ID = re.compile(rb"^id: (\d+)")


# --- the server --------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def raise_open_files() -> None:
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 16
    if soft == resource.RLIM_INFINITY or soft >= hard:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        pass


class Server:
    """``companion serve`` on a free loopback port with its own temporary instance folder."""

    def __init__(self, *args: str, env: dict | None = None):
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.instance = Path(tempfile.mkdtemp(prefix="companion-bench-"))
        self.database = f"sqlite:///{self.instance / 'companion.db'}"
        self.env = dict(os.environ, COMPANION_INSTANCE_PATH=str(self.instance), COMPANION_PUBLIC_URL=self.base,
                        COMPANION_DATABASE_URL=self.database, COMPANION_SECRET_KEY="bench", **(env or {}))
        self.args = args
        self.proc: subprocess.Popen | None = None
        self.log = self.instance / "server.log"

    def store(self):
        """The same database, opened from here: tables are set up without HTTP (and so
        without the per-address limits on creating games)."""
        from companion.store import Store

        return Store(self.database)

    def start(self) -> None:
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve", "--host", HOST, "--port", str(self.port),
                 *self.args], env=self.env, stdout=subprocess.DEVNULL, stderr=log, cwd=ROOT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                with socket.create_connection((HOST, self.port), timeout=1) as s:
                    s.sendall(f"GET / HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
                    if s.recv(12).startswith(b"HTTP/1.1 200"):
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start:\n" + self.log.read_text()[-3000:])

    def rss_kib(self) -> int:
        """The server's resident memory (Linux /proc), in KiB; 0 where unknown."""
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def cpu_seconds(self) -> float:
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def stop(self, keep_log: str | None = None) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if keep_log and self.log.exists():
            shutil.copyfile(self.log, keep_log)
        shutil.rmtree(self.instance, ignore_errors=True)


# --- tables ------------------------------------------------------------------------------

@dataclass
class Table:
    code: str
    version: int
    player: int | None = None
    token: str | None = None
    streams: int = 0
    arrivals: dict[int, list] = field(default_factory=dict)  # version -> [count, last arrival]
    waiting: dict[int, asyncio.Event] = field(default_factory=dict)

    def arrived(self, version: int, at: float) -> None:
        entry = self.arrivals.setdefault(version, [0, at])
        entry[0] += 1
        entry[1] = at
        if entry[0] >= self.streams and version in self.waiting:
            self.waiting[version].set()

    async def all_have(self, version: int, timeout: float) -> float | None:
        """When the last stream of this table got ``version`` (None: not within timeout)."""
        entry = self.arrivals.get(version)
        if entry is None or entry[0] < self.streams:
            event = self.waiting.setdefault(version, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except asyncio.TimeoutError:
                return None
            finally:
                self.waiting.pop(version, None)
        return self.arrivals.pop(version)[1]


def make_tables(server: Server, count: int, seated: int) -> list[Table]:
    store = server.store()
    tables = []
    for i in range(count):
        state, _host_token = store.create_game("classic")
        table = Table(code=state["code"], version=state.get("version", 0))
        if i < seated:
            new, pid, token = store.join(table.code, f"Player {i + 1}", "female")
            table.player, table.token, table.version = pid, token, new["version"]
        tables.append(table)
    store.engine.dispose()
    return tables


# --- the client --------------------------------------------------------------------------

class Stream:
    """One phone's live stream over a raw socket; records each ``changed`` id on its table."""

    def __init__(self, port: int, table: Table | None, code: str | None = None, since: int | None = None):
        self.port, self.table = port, table
        self.code = code or table.code
        self.since = since if since is not None else (table.version if table else None)
        self.open = asyncio.get_running_loop().create_future()
        self.closed = False
        self.retry_ms = 3000  # what a browser waits before reconnecting, until the server says
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            reader, self.writer = await asyncio.open_connection(HOST, self.port, limit=1 << 16)
            query = "" if self.since is None else f"?since={self.since}"
            self.writer.write(f"GET /api/games/{self.code}/events{query} HTTP/1.1\r\nHost: {HOST}\r\n"
                              f"{self.extra_headers()}Accept: text/event-stream\r\n\r\n".encode())
            status = await reader.readline()
            if not status.startswith(b"HTTP/1.1 200"):
                raise ConnectionError(status.decode(errors="replace").strip() or "no answer")
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"retry:"):
                    self.retry_ms = int(line[6:].strip() or 0)
                    if not self.open.done():
                        self.open.set_result(True)
                elif line.startswith(b"0\r\n") and self.open.done():
                    return  # the last chunk: the server ended this stream
                else:
                    match = EVENT_ID.match(line)
                    if match:
                        self.arrived(int(match.group(1)), time.perf_counter())
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            if not self.open.done():
                self.open.set_exception(ConnectionError(str(error)))
        finally:
            self.closed = True
            if not self.open.done():
                self.open.set_exception(ConnectionError("closed before it opened"))
            if not self.open.cancelled():
                self.open.exception()  # looked at: asyncio need not warn about it
            if self.writer is not None:
                self.writer.close()

    def extra_headers(self) -> str:
        """Request header lines besides Host and Accept (a seat's token, for one)."""
        return ""

    def arrived(self, version: int, when: float) -> None:
        if self.table is not None:
            self.table.arrived(version, when)

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            self.writer.close()


class Http:
    """A kept-alive HTTP/1.1 connection for JSON requests (no compression asked)."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: dict | None = None,
                      headers: dict | None = None) -> tuple[int, bytes]:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            data = json.dumps(body).encode() if body is not None else b""
            head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", f"Content-Length: {len(data)}"]
            if body is not None:
                head.append("Content-Type: application/json")
            head += [f"{k}: {v}" for k, v in (headers or {}).items()]
            try:
                self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
                status = await self.reader.readline()
                if not status:
                    raise ConnectionError("closed")
                length, close = 0, False
                while True:
                    line = await self.reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                    elif name.lower() == "connection" and "close" in value.lower():
                        close = True
                payload = await self.reader.readexactly(length)
                if close:
                    self.close()
                return int(status.split()[1]), payload
            except (OSError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def open_streams(port: int, tables: list[Table], per_table: int, *, batch: int = 200,
                       timeout: float = 120) -> list[Stream]:
    """Open ``per_table`` streams on every table, ``batch`` at a time; wait until all are open."""
    streams: list[Stream] = []
    deadline = time.monotonic() + timeout
    pending = [t for t in tables for _ in range(per_table)]
    for i in range(0, len(pending), batch):
        group = []
        for table in pending[i:i + batch]:
            stream = Stream(port, table)
            table.streams += 1
            stream.start()
            group.append(stream)
        left = max(1.0, deadline - time.monotonic())
        await asyncio.wait([s.open for s in group], timeout=left)
        streams += group
        if time.monotonic() > deadline:
            break
    return streams


async def act(http: Http, table: Table, delta: int) -> tuple[float, float, int]:
    """One action; (sent, answered, new version)."""
    sent = time.perf_counter()
    status, body = await http.request("POST", f"/api/games/{table.code}/actions",
                                      {"type": "level", "player": table.player, "delta": delta},
                                      {"Authorization": f"Bearer {table.token}"})
    answered = time.perf_counter()
    if status != 200:
        raise RuntimeError(f"action refused: {status} {body[:200]!r}")
    return sent, answered, json.loads(body)["state"]["version"]


async def players(port: int, tables: list[Table], *, actions: int, rate: float, seconds: float,
                  fan_out_timeout: float = 5.0) -> tuple[list[float], list[float], int]:
    """The acting tables take turns like players: about ``rate`` actions a second in all,
    ``actions`` at most, for ``seconds`` at most. Returns round trips, fan-outs, misses."""
    round_trips: list[float] = []
    fan_outs: list[float] = []
    missed = 0
    budget = [actions]
    stop_at = time.monotonic() + seconds
    pause = len(tables) / rate if rate > 0 else 0.0

    async def player(table: Table) -> None:
        nonlocal missed
        http = Http(port)
        delta = 1
        await asyncio.sleep(random.uniform(0, pause))
        try:
            while budget[0] > 0 and time.monotonic() < stop_at:
                budget[0] -= 1
                sent, answered, version = await act(http, table, delta)
                delta = -delta  # level up, level down: the game stays legal forever
                round_trips.append(answered - sent)
                last = await table.all_have(version, fan_out_timeout)
                if last is None:
                    missed += 1
                else:
                    fan_outs.append(max(0.0, last - answered))
                await asyncio.sleep(random.expovariate(1 / pause) if pause else 0)
        finally:
            http.close()

    await asyncio.gather(*(player(t) for t in tables))
    return round_trips, fan_outs, missed


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ms(values: list[float]) -> str:
    if not values:
        return "no samples"
    return f"p50 {statistics.median(values) * 1000:.1f} ms, p95 {percentile(values, 95) * 1000:.1f} ms"


# --- the run -----------------------------------------------------------------------------

async def run_one(n: int, args) -> dict:
    server = Server(*args.server_args)
    tables_count = math.ceil(n / PHONES)
    acting = min(args.acting_tables, tables_count)
    print(f"\n== {n} streams over {tables_count} tables ({acting} of them acting) ==", flush=True)
    try:
        tables = make_tables(server, tables_count, acting)
        server.start()
        # Warm up (imports, templates, the first action) before measuring memory.
        http = Http(server.port)
        for table in tables[:acting]:
            await http.request("GET", f"/api/games/{table.code}")
        http.close()
        await asyncio.sleep(0.5)
        rss_before = server.rss_kib()
        started = time.perf_counter()
        streams = await open_streams(server.port, tables, PHONES if n >= PHONES else n,
                                     batch=args.batch, timeout=args.open_timeout)
        opened = sum(1 for s in streams if s.open.done() and not s.open.exception())
        open_seconds = time.perf_counter() - started
        await asyncio.sleep(1.0)
        rss_after = server.rss_kib()
        print(f"opened {opened}/{len(streams)} streams in {open_seconds:.1f} s", flush=True)
        cpu_before = server.cpu_seconds()
        run_started = time.perf_counter()
        round_trips, fan_outs, missed = await players(server.port, tables[:acting], actions=args.actions,
                                                      rate=args.rate, seconds=args.seconds)
        run_seconds = time.perf_counter() - run_started
        cpu = server.cpu_seconds() - cpu_before
        held = sum(1 for s in streams if s.open.done() and not s.open.exception() and not s.closed)
        per_stream = (rss_after - rss_before) / max(opened, 1)
        print(f"streams held: {held}/{len(streams)} ({PHONES} per table)")
        print(f"actions: {len(round_trips)} in {run_seconds:.1f} s ({len(round_trips) / run_seconds:.1f}/s), "
              f"server CPU {100 * cpu / run_seconds:.0f}% of one core")
        print(f"action round trip: {ms(round_trips)}")
        print(f"fan-out to all {PHONES} streams of the table after the answer: {ms(fan_outs)} "
              f"({len(fan_outs)}/{len(round_trips)} within 5 s)")
        print(f"server memory: {rss_before / 1024:.0f} MiB before, {rss_after / 1024:.0f} MiB with the streams, "
              f"{per_stream:.1f} KiB per stream", flush=True)
        for stream in streams:
            stream.close()
        await asyncio.sleep(0.2)
        return {"n": n, "held": held, "round_trips": round_trips, "fan_outs": fan_outs, "missed": missed,
                "kib_per_stream": per_stream}
    finally:
        server.stop(keep_log=args.server_log and f"{args.server_log}.{n}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--actions", type=int, default=300, help="actions per run (at most)")
    parser.add_argument("--rate", type=float, default=25.0, help="actions a second, all acting tables together")
    parser.add_argument("--acting-tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit of the acting phase")
    parser.add_argument("--batch", type=int, default=250, help="streams opened at once")
    parser.add_argument("--open-timeout", type=float, default=120.0)
    parser.add_argument("--server-log", metavar="PATH",
                        help="keep the server's stderr as PATH.<N> (with --server-args --access-log: "
                             "each request's time inside the server)")
    parser.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                        help="passed on to companion serve (last)")
    args = parser.parse_args()
    raise_open_files()
    results = [asyncio.run(run_one(n, args)) for n in args.streams]
    print("\n   streams   held   action p50/p95 ms   fan-out p50/p95 ms   KiB/stream")
    for r in results:
        print(f"{r['n']:>10} {r['held']:>6}   {statistics.median(r['round_trips']) * 1000:>7.1f} / "
              f"{percentile(r['round_trips'], 95) * 1000:<7.1f}   "
              f"{(statistics.median(r['fan_outs']) if r['fan_outs'] else float('nan')) * 1000:>7.1f} / "
              f"{percentile(r['fan_outs'], 95) * 1000:<7.1f}    {r['kib_per_stream']:>6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
