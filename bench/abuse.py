"""Benchmark: the server under abuse, against 127.0.0.1 only.

(a) ``streams``: one client opens 200 live streams to its own game and keeps reopening the
    ones the server closes (after the server's ``retry`` hint, as a browser does, or at once
    with ``--reconnect-ms 0``), while a real table of six phones keeps acting. Prints that
    table's action and fan-out p50/p95 before and during the abuse, and how many streams the
    abuser really holds (the per-game cap closes its oldest ones).
(b) ``slow``: 1,100 connections send half a request head and then a byte now and then
    (reopening whenever the server drops them). Meanwhile a fresh phone loads pages; prints
    how long those pages take and how long the server let the half-open connections live.
(c) ``starve``: a table of six phones, each holding its seat (a bearer token) and its live
    stream, takes turns acting, while one client on the same address opens 120 seatless
    streams on that very game and reopens each one the moment it is closed (issue 22, item 1).
    Prints whether the real phones got every update within a second.
(d) ``tap``: the same table (five phones), while its sixth seat taps as fast as a script can
    (75 taps a second) and ignores every 429 (issue 22, item 2). Prints how many taps the throttle let
    through and when it first refused, whether the real phones got every update (theirs and
    the tapper's) within a second, and how big the game's storage grew
    (``Store.stored_bytes``).

Each phase is bounded in time and count; the server is ``companion serve`` in a subprocess
on a free loopback port with a temporary instance folder. ``--quick`` runs every phase short
and small (about a minute in all).

    .venv/bin/python bench/abuse.py [streams] [slow] [starve] [tap] [--seconds 30] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from streams import (HOST, PHONES, Http, Server, Stream, make_tables, ms,  # noqa: E402
                     open_streams, percentile, players, raise_open_files)


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


# --- (c) and (d): a seated table against a starving client and a tapping seat -------------

ON_TIME = 1.0  # seconds: every update must reach every real phone within this


class SeatedStream(Stream):
    """A real phone's live stream: it holds its seat (the bearer token), so no seatless
    stream may crowd it out; records when each ``changed`` id arrived."""

    def __init__(self, port: int, code: str, token: str, since: int):
        super().__init__(port, None, code=code, since=since)
        self.token = token
        self.seen: list[tuple[int, float]] = []  # (version, when it arrived)

    def extra_headers(self) -> str:
        return f"Authorization: Bearer {self.token}\r\n"

    def arrived(self, version: int, when: float) -> None:
        self.seen.append((version, when))


def seated_table(server: Server, seats: int) -> tuple[str, list[tuple[int, str]], int]:
    """A game with ``seats`` seats, made in the database before the server starts:
    (code, [(player id, token)], version)."""
    store = server.store()
    state, _host = store.create_game("classic")
    code, version, seated = state["code"], state["version"], []
    for i in range(seats):
        new, pid, token = store.join(code, f"Phone {chr(ord('A') + i)}", "female" if i % 2 else "male")
        seated.append((pid, token))
        version = new["version"]
    store.engine.dispose()
    return code, seated, version


async def tap(http: Http, code: str, pid: int, token: str, delta: int) -> tuple[int, int | None, float]:
    """One tap: (status, new version or None, when it was answered)."""
    status, body = await http.request("POST", f"/api/games/{code}/actions",
                                      {"type": "level", "player": pid, "delta": delta},
                                      {"Authorization": f"Bearer {token}"})
    answered = time.perf_counter()
    return status, (json.loads(body)["state"]["version"] if status == 200 else None), answered


async def real_table(port: int, code: str, seats: list[tuple[int, str]], rate: float, until: float,
                     answered: dict[int, float]) -> dict:
    """The real players take turns, about ``rate`` actions a second in all, each a level up
    then down on their own sheet; every accepted version and when it was answered."""
    http, counts, turn = Http(port), {"sent": 0, "refused": 0}, 0
    try:
        while time.monotonic() < until:
            pid, token = seats[turn % len(seats)]
            status, version, at = await tap(http, code, pid, token, 1 if (turn // len(seats)) % 2 == 0 else -1)
            counts["sent"] += 1
            if version is None:
                counts["refused"] += 1
            else:
                answered[version] = at
            turn += 1
            await asyncio.sleep(1 / rate)
    finally:
        http.close()
    return counts


def on_time(phones: list[SeatedStream], answered: dict[int, float]) -> tuple[int, int, float]:
    """(updates that reached every phone within ON_TIME, updates, the slowest delivery in s).
    A phone has an update once it got that version or a later one (a burst may arrive as one
    event); a phone that never got it counts as late."""
    good, worst = 0, 0.0
    for version, at in answered.items():
        slowest = 0.0
        for phone in phones:
            arrival = next((t for v, t in phone.seen if v >= version), None)
            slowest = max(slowest, float("inf") if arrival is None else max(0.0, arrival - at))
        worst = max(worst, slowest)
        good += slowest <= ON_TIME
    return good, len(answered), worst


def print_on_time(phones: list[SeatedStream], answered: dict[int, float], what: str) -> None:
    good, total, worst = on_time(phones, answered)
    held = sum(1 for p in phones if not p.closed)
    verdict = "every update" if good == total else f"only {good} of {total} updates"
    slowest = "never" if worst == float("inf") else f"{worst * 1000:.0f} ms"
    print(f"the {len(phones)} real phones got {verdict} ({what}) within {ON_TIME:g} s "
          f"(slowest {slowest}); they still hold {held}/{len(phones)} streams")


async def abuse_table(args, scenario: str) -> None:
    server = Server()
    try:
        # A game seats at most six: in (d) the tapper is the sixth.
        code, seats, version = seated_table(server, PHONES)
        real, tapper = (seats[:-1], seats[-1]) if scenario == "tap" else (seats, None)
        server.start()
        phones = [SeatedStream(server.port, code, token, version) for _pid, token in real]
        for phone in phones:
            phone.start()
        await asyncio.wait([p.open for p in phones], timeout=30)
        answered: dict[int, float] = {}
        until = time.monotonic() + args.seconds
        if scenario == "starve":
            reconnect = (args.reconnect_ms if args.reconnect_ms is not None else 0) / 1000
            print(f"\n== (c) {PHONES} seated phones take turns while one address holds "
                  f"{args.starving_streams} seatless streams on their game for {args.seconds:.0f} s ==")
            abuse = asyncio.create_task(abusive_client(server.port, code, args.starving_streams, reconnect,
                                                       until, max_opens=200_000))
            await asyncio.sleep(2)  # the starving client's streams open first
            counts = await real_table(server.port, code, real, args.table_rate, until, answered)
            result = await abuse
            await asyncio.sleep(ON_TIME)  # the last update's delivery
            print(f"the starving client opened {result['opens']} streams in all "
                  f"(reopening {reconnect * 1000:g} ms after each close), held {result['open_at_end']} at the end")
            print(f"the real table made {counts['sent'] - counts['refused']} changes "
                  f"({counts['refused']} refused)")
            print_on_time(phones, answered, "all of the table's own")
        else:
            store = server.store()
            before = store.stored_bytes(code)[0]
            print(f"\n== (d) {len(real)} seated phones take turns while a sixth seat at their table taps "
                  f"{args.tap_rate:g} times a second for {args.seconds:.0f} s, ignoring every 429 ==")
            table = asyncio.create_task(real_table(server.port, code, real, args.table_rate, until, answered))
            http, taps = Http(server.port), {"sent": 0, "ok": 0, "throttled": 0, "other": 0, "first_429": None}
            pid, token = tapper
            started = time.monotonic()
            try:
                while time.monotonic() < until and taps["sent"] < args.tap_rate * args.seconds:
                    status, version, at = await tap(http, code, pid, token, 1 if taps["sent"] % 2 == 0 else -1)
                    taps["sent"] += 1
                    if status == 200:
                        taps["ok"] += 1
                        answered[version] = at
                    elif status == 429:
                        taps["throttled"] += 1
                        taps["first_429"] = taps["first_429"] or taps["sent"]
                    else:
                        taps["other"] += 1
                    next_tap = started + taps["sent"] / args.tap_rate
                    await asyncio.sleep(max(0.0, next_tap - time.monotonic()))
            finally:
                http.close()
            counts = await table
            await asyncio.sleep(ON_TIME)
            after, counted = store.stored_bytes(code)
            store.engine.dispose()
            first = f"first refused at tap {taps['first_429']}" if taps["first_429"] else "never refused"
            print(f"the tapping seat sent {taps['sent']} taps: {taps['ok']} made changes, "
                  f"{taps['throttled']} answered 429 ({first}), {taps['other']} other answers")
            print(f"the real table made {counts['sent'] - counts['refused']} changes "
                  f"({counts['refused']} refused: other seats are not slowed)")
            print_on_time(phones, answered, "theirs and the tapper's")
            print(f"the game's storage grew from {before / 1024:.0f} KB to {after / 1024:.0f} KB "
                  f"(+{(after - before) / 1024:.0f} KB, {(after - before) / max(1, len(answered)):.0f} bytes a change; "
                  f"{counted / 1024:.0f} KB counted afresh from its events)")
        for phone in phones:
            phone.close()
    finally:
        server.stop()


SCENARIOS = ("streams", "slow", "starve", "tap")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", choices=[*SCENARIOS, []], default=[],
                        help="which to run (default: all)")
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
    parser.add_argument("--starving-streams", type=int, default=120,
                        help="seatless streams the starving client holds on the real table's game")
    parser.add_argument("--tap-rate", type=float, default=75.0, help="the tapping seat's taps a second")
    parser.add_argument("--table-rate", type=float, default=2.0,
                        help="the real table's actions a second in (c) and (d), its seats taking turns")
    parser.add_argument("--quick", action="store_true",
                        help="every phase short and small: 8 s each, 300 half-open connections, "
                             "60 abusive streams (a minute or so in all)")
    args = parser.parse_args()
    if args.quick:
        args.seconds = min(args.seconds, 8.0)
        args.slow_connections = min(args.slow_connections, 300)
        args.abusive_streams = min(args.abusive_streams, 60)
        args.actions = min(args.actions, 60)
    raise_open_files()
    run = {"streams": abuse_streams, "slow": abuse_slow,
           "starve": lambda a: abuse_table(a, "starve"), "tap": lambda a: abuse_table(a, "tap")}
    for scenario in dict.fromkeys(args.scenarios or SCENARIOS):
        asyncio.run(run[scenario](args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
