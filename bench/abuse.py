"""Benchmark: the server under abuse, against 127.0.0.1 only.

(a) ``streams``: one client opens 200 live streams to its own game and keeps reopening the
    ones the server closes (after the server's ``retry`` hint, as a browser does, or at once
    with ``--reconnect-ms 0``), while a real table of six phones keeps acting. Prints that
    table's action and fan-out p50/p95 before and during the abuse, and how many streams the
    abuser really holds (the per-game cap closes its oldest ones).
(b) ``slow``: 1,100 connections send half a request head and then a byte now and then
    (reopening whenever the server drops them). Meanwhile a fresh phone loads pages; prints
    how long those pages take and how long the server let the half-open connections live.

Each phase is bounded in time and count; the server is ``companion serve`` in a subprocess
on a free loopback port with a temporary instance folder.

    .venv/bin/python bench/abuse.py [streams] [slow] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from streams import (HOST, PHONES, Http, Server, Stream, make_tables, ms, open_streams,  # noqa: E402
                     percentile, players, raise_open_files)


# --- (a) one client, many streams to its own game ----------------------------------------

async def abusive_client(port: int, code: str, count: int, reconnect: float | None, until: float,
                         max_opens: int) -> dict:
    """Hold ``count`` streams to ``code``; reopen each one the server closes, after the
    server's ``retry`` hint like a browser (``reconnect`` None) or after ``reconnect`` s."""
    opens = [0]
    held: list[Stream] = []

    async def one_slot() -> None:
        while time.monotonic() < until and opens[0] < max_opens:
            stream = Stream(port, None, code=code)
            opens[0] += 1
            held.append(stream)
            stream.start()
            await stream.task
            held.remove(stream)
            await asyncio.sleep(stream.retry_ms / 1000 if reconnect is None else reconnect)

    slots = [asyncio.create_task(one_slot()) for _ in range(count)]
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    open_now = sum(1 for s in held if s.open.done() and not s.open.exception() and not s.closed)
    for task in slots:
        task.cancel()
    for stream in list(held):
        stream.close()
    await asyncio.gather(*slots, return_exceptions=True)
    return {"opens": opens[0], "open_at_end": open_now}


async def abuse_streams(args) -> None:
    server = Server()
    try:
        real, abuser_game, *background = make_tables(server, 2 + args.background_tables, 1)
        server.start()
        streams = await open_streams(server.port, [real], PHONES)
        if background:
            streams += await open_streams(server.port, background, PHONES)
        print(f"\n== (a) a table of {PHONES} phones acting; {len(background) * PHONES} other streams open ==")
        trips, fans, missed = await players(server.port, [real], actions=args.actions, rate=args.rate,
                                            seconds=args.seconds / 2)
        print(f"quiet:  action {ms(trips)}; fan-out {ms(fans)} ({missed} missed)")

        until = time.monotonic() + args.seconds
        abuse = asyncio.create_task(abusive_client(server.port, abuser_game.code, args.abusive_streams,
                                                   None if args.reconnect_ms is None else args.reconnect_ms / 1000,
                                                   until, max_opens=200_000))
        await asyncio.sleep(2)  # let the abuser open its streams first
        trips, fans, missed = await players(server.port, [real], actions=args.actions, rate=args.rate,
                                            seconds=max(1.0, until - time.monotonic() - 1))
        result = await abuse
        pause = ("after the server's retry hint, as a browser does" if args.reconnect_ms is None
                 else f"{args.reconnect_ms:g} ms after each close")
        held = sum(1 for s in streams if not s.closed)
        print(f"abused: action {ms(trips)}; fan-out {ms(fans)} ({missed} missed)")
        print(f"the abuser asked for {args.abusive_streams} streams, opened {result['opens']} in all "
              f"(reconnecting {pause}), held {result['open_at_end']} at the end; "
              f"the real table still holds {held}/{len(streams)} streams")
        for stream in streams:
            stream.close()
    finally:
        server.stop()


# --- (b) half-open connections ---------------------------------------------------------

async def slow_client(port: int, until: float, trickle: float, lifetimes: list[float], counts: dict) -> None:
    """One connection that never finishes its request head; reopened when dropped."""
    while time.monotonic() < until and counts["opened"] < counts["max"]:
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            counts["refused"] += 1
            await asyncio.sleep(0.5)
            continue
        counts["opened"] += 1
        born = time.monotonic()
        try:
            writer.write(f"GET / HTTP/1.1\r\nHost: {HOST}\r\nUser-Agent: slow".encode())
            while time.monotonic() < until:
                try:
                    data = await asyncio.wait_for(reader.read(1024), timeout=trickle)
                except asyncio.TimeoutError:
                    writer.write(b"w")  # one more byte of a header that never ends
                    continue
                if not data:
                    break  # the server hung up
            else:
                return
            lifetimes.append(time.monotonic() - born)
        except OSError:
            lifetimes.append(time.monotonic() - born)
        finally:
            writer.close()


async def timed_get(port: int, path: str, cookie: str | None = None) -> float | None:
    """A fresh connection's GET (a phone arriving); seconds, or None on failure."""
    started = time.perf_counter()
    http = Http(port)
    try:
        status, _ = await asyncio.wait_for(
            http.request("GET", path, headers={"Cookie": cookie} if cookie else None), timeout=10)
        return time.perf_counter() - started if status == 200 else None
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
        return None
    finally:
        http.close()


async def abuse_slow(args) -> None:
    server = Server()
    try:
        (table,) = make_tables(server, 1, 1)
        server.start()
        pages = {"home page": ("/", None),
                 "game page": (f"/games/{table.code}", f"seat_{table.code}={table.token}"),
                 "game state (JSON)": (f"/api/games/{table.code}", None)}
        print(f"\n== (b) {args.slow_connections} half-open connections for {args.seconds:.0f} s ==")
        quiet = {name: [await timed_get(server.port, *page) for _ in range(10)] for name, page in pages.items()}
        until = time.monotonic() + args.seconds
        lifetimes: list[float] = []
        counts = {"opened": 0, "refused": 0, "max": 50_000}
        slow = [asyncio.create_task(slow_client(server.port, until, args.trickle, lifetimes, counts))
                for _ in range(args.slow_connections)]
        await asyncio.sleep(1)
        timings: dict[str, list] = {name: [] for name in pages}
        while time.monotonic() < until - 0.5:
            for name, page in pages.items():
                timings[name].append(await timed_get(server.port, *page))
            await asyncio.sleep(0.2)
        await asyncio.gather(*slow, return_exceptions=True)
        for name in pages:
            before = [t for t in quiet[name] if t is not None]
            during = [t for t in timings[name] if t is not None]
            failed = len(timings[name]) - len(during)
            print(f"{name:>18}: quiet {ms(before)}; under attack {ms(during)}, max "
                  f"{max(during) * 1000 if during else float('nan'):.0f} ms ({failed} failed of {len(timings[name])})")
        if lifetimes:
            print(f"half-open connections: {counts['opened']} opened, {len(lifetimes)} dropped by the server "
                  f"after {statistics.median(lifetimes):.1f} s (p95 {percentile(lifetimes, 95):.1f} s), "
                  f"{counts['refused']} refused")
        else:
            print(f"half-open connections: {counts['opened']} opened, none dropped within the run")
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", choices=["streams", "slow", []], default=[],
                        help="which to run (default: both)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each abuse phase")
    parser.add_argument("--actions", type=int, default=300, help="real table's actions per phase (at most)")
    parser.add_argument("--rate", type=float, default=10.0, help="real table's actions a second")
    parser.add_argument("--abusive-streams", type=int, default=200)
    parser.add_argument("--reconnect-ms", type=float, default=None,
                        help="abuser's fixed pause before reopening a closed stream (default: the "
                             "server's retry hint, as a browser; 0: a script that ignores it)")
    parser.add_argument("--background-tables", type=int, default=0, help="other tables with 6 idle streams each")
    parser.add_argument("--slow-connections", type=int, default=1100)
    parser.add_argument("--trickle", type=float, default=1.0, help="seconds between the slow clients' bytes")
    args = parser.parse_args()
    raise_open_files()
    for scenario in dict.fromkeys(args.scenarios or ["streams", "slow"]):
        asyncio.run(abuse_streams(args) if scenario == "streams" else abuse_slow(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
