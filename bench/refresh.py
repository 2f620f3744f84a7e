"""Benchmark: how fast a tap reaches the six phones of a table, on the real server.

Runs ``companion serve`` (one process, SQLite, a fresh instance folder per part, throttling
opened wide) and plays tables of six phones that do exactly what the game page does: each
phone holds the live stream ``GET /api/games/<code>/events?since=<version>`` and, at each
``changed`` ring for a version newer than the one it shows, fetches its own fragment
``GET /games/<code>/live`` (its seat cookie, ``HX-Request: true``); a ring that comes while
a fetch is under way makes it fetch once more after (htmx ``hx-sync="this:replace"``). The
version a phone shows is the fragment's ``data-version``. A tap is one
``POST /api/games/<code>/actions`` with a seat's bearer token (gear +1/-1 and level +1/-1,
"adjust", kept between 3 and 7, in turn). Each table is first set up mid-game through the API:
six players, each with a race, a class, five classic items, a few levels and a hand.

The refresh time of a tap runs from sending it until the sixth phone holds a fragment at
least as new as the tap's version (the action answer's ``state.version``).

Parts and targets:

- ``one``: one table, taps one after another (each waits for all six phones).
  Refresh p50/p95 (target p95 <= 40 ms) and the server's CPU per tap, phones' fetches
  included (target <= 25 ms); then the action alone, no phone listening: p50/p95 of its
  round trip (target p95 <= 5 ms) and server CPU per action.
- ``load``: 40 tables, 30 taps/s in all for 15 s, sent on a schedule (open loop, spread
  over the tables). Refresh p95 over all taps (target <= 150 ms) and the share of taps that
  reached all six phones within a grace period after the end (target >= 95 %).
- ``long``: one table inside a long game (5,000 events, 500 house cards; the time to build
  it is printed), against a fresh one set up alike: the median time (and the slowest) and
  the server's mean CPU of an action, a phone's fragment, the table screen's fragment, the
  summary page and an undo, and long/fresh (target: each at most 2x). Each page is timed
  right after a change, as it is fetched at a table; the two games take turns.

Server CPU is the ``companion serve`` process's user + system time from ``/proc/<pid>/stat``
(in the long game, where single requests of a few ms are timed, its threads' run time from
``/proc/<pid>/task/*/schedstat``: the same count, to the nanosecond rather than 10 ms).
The client is one process of gevent greenlets and keep-alive ``requests`` sessions; its own
CPU is printed as a sanity figure (the machine has two cores, the server takes one).

The machine's speed: this shared VM's swings 2x within a minute, so before and after each part
the reference loop of ``bench/reference.py`` is timed (CPU seconds of 5,000,000 integer
additions), and after the part's own lines every figure is printed again beside it and scaled to
a machine where that loop takes 0.5 s (figure * 0.5 / reference, the mean of before and after;
the range in brackets scales by each), with the targets at that reference: server CPU per tap
with six phones <= 15 ms, one-table refresh p95 <= 30 ms, action alone p95 <= 4 ms; 40 tables
at 30 taps/s with >= 95 % of taps reaching all six phones and refresh p95 <= 150 ms; the long
game (5,000 events) within 2x of a fresh one for each request. Ratios and shares are not
scaled. Under load, scaling is only a first guess: queues grow faster than linearly near a full
core. ``--json PATH`` writes every figure, raw and scaled, with both reference times.

    .venv/bin/python bench/refresh.py [--part one|load|long|all] [--quick] [--json PATH]
        [--taps 100] [--tables 40] [--rate 30] [--seconds 15] [--grace 5]
        [--events 5000] [--house-cards 500] [--repeat 30]

``--quick`` makes every size smaller (a run of about a minute); an option given wins.
"""

from gevent import monkey

monkey.patch_all()  # before requests and anything else opens a socket

import argparse  # noqa: E402
import bisect  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
import requests  # noqa: E402
from reference import AT, STEPS, reference_seconds, scaled  # noqa: E402
from serving import RunningServer, percentile, running_server  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.catalog import load_catalog  # noqa: E402

PHONES = 6
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
RACES = ("classic/elf", "classic/dwarf", "classic/halfling")
CLASSES = ("classic/warrior", "classic/wizard", "classic/cleric", "classic/thief")
ITEMS_EACH = 5
# The benchmark creates and joins games by the dozen from 127.0.0.1, and one seat of the long
# game taps thousands of times in a row.
OPEN_LIMITS = {name: "100000 per minute" for name in (
    "COMPANION_RATELIMIT_CREATE", "COMPANION_RATELIMIT_JOIN", "COMPANION_RATELIMIT_UNKNOWN_CODE",
    "COMPANION_RATELIMIT_ACTIONS")}
FRAGMENT_VERSION = re.compile(rb'<div class="live" data-version="(\d+)"')
TIMEOUT = (5, 60)  # connect, read (seconds): a saturated server answers late, not never

FULL = dict(taps=100, tables=40, rate=30.0, seconds=15.0, grace=5.0, events=5000, house_cards=500,
            repeat=30)
QUICK = dict(taps=30, tables=8, rate=10.0, seconds=5.0, grace=3.0, events=800, house_cards=100,
             repeat=8)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


# --- figures, and the machine's speed beside them ----------------------------------------------

@dataclass
class Figure:
    """One printed figure. ``unit`` "s" is a time (scaled to the reference), "ratio", "share"
    and "count" are not. ``target``: (">=" or "<=", value) at the 0.5 s reference."""

    key: str
    label: str
    value: float | None  # None: not reached (a refresh that never came)
    unit: str = "s"
    target: tuple[str, float] | None = None


def show(value: float | None, unit: str) -> str:
    if value is None or value == float("inf"):
        return "not reached"
    if unit == "s":
        return ms(value)
    if unit == "ratio":
        return f"{value:.2f}x"
    if unit == "share":
        return f"{value:.1%}"
    return f"{value:.1f}"


def at_reference(figure: Figure, reference: float) -> float | None:
    if figure.value is None or figure.unit != "s":
        return figure.value
    return scaled(figure.value, reference)


def met(figure: Figure, value: float | None) -> bool | None:
    if figure.target is None:
        return None
    if value is None:
        return False
    op, bound = figure.target
    return value <= bound if op == "<=" else value >= bound


def report_scaled(figures: list[Figure], before: float, after: float, note: str = "") -> None:
    """The part's figures again, beside the reference measured around it and at 0.5 s."""
    reference = (before + after) / 2
    print(f"-- at the {AT:g} s reference: loop {before:.3f} s before, {after:.3f} s after "
          f"(CPU, {STEPS:,} additions); times x {AT:g} / {reference:.3f} --")
    print(f"{'figure':44} {'raw':>12} {'at 0.5 s':>12} {'(by before-after)':>19} {'target':>10}  met")
    for f in figures:
        value = at_reference(f, reference)
        spread = ""
        if f.unit == "s" and f.value is not None and f.value != float("inf"):
            ends = sorted((scaled(f.value, before), scaled(f.value, after)))
            spread = f"({ends[0] * 1000:.1f}-{ends[1] * 1000:.1f} ms)"
        target = f"{f.target[0]} {show(f.target[1], f.unit)}" if f.target else ""
        verdict = {None: "", True: "yes", False: "NO"}[met(f, value)]
        print(f"{f.label:44} {show(f.value, f.unit):>12} {show(value, f.unit):>12} {spread:>19} "
              f"{target:>10}  {verdict}")
    if note:
        print(note)


def as_json(figures: list[Figure], before: float, after: float) -> dict:
    reference = (before + after) / 2

    def number(value: float | None) -> float | None:  # JSON has no infinity
        return None if value is None or value == float("inf") else value

    def by(f: Figure, ref: float) -> float | None:
        return number(scaled(f.value, ref)) if f.unit == "s" and f.value is not None else None

    return {
        "reference_before": before, "reference_after": after, "reference": reference,
        "figures": {f.key: {
            "label": f.label, "unit": f.unit, "raw": number(f.value),
            "scaled": number(at_reference(f, reference)),
            "scaled_by_before": by(f, before), "scaled_by_after": by(f, after),
            "target": {"op": f.target[0], "value": f.target[1]} if f.target else None,
            "met": met(f, at_reference(f, reference)),
        } for f in figures},
    }


# --- a table, set up mid-game through the API ----------------------------------------------

class Seat:
    """A seated player: the token to act with, and the taps it sends in turn."""

    def __init__(self, player: int, token: str, level: int):
        self.player, self.token, self.level = player, token, level
        self.taps = self.gear_taps = 0
        self.bearer = {"Authorization": f"Bearer {token}"}

    def next_tap(self, rng: random.Random) -> dict:
        """Gear, level, gear, level, ...: the level walks between 3 and 7, well clear of a win
        even when a busy server takes two taps of one seat out of order."""
        self.taps += 1
        if self.taps % 2:
            return self.gear_tap()
        delta = rng.choice((-1, 1))
        if not 3 <= self.level + delta <= 7:
            delta = -delta
        self.level += delta
        return {"type": "level", "player": self.player, "delta": delta, "source": "adjust"}

    def gear_tap(self) -> dict:
        """Gear +1, -1, +1, ... (also the change an undo takes back: it leaves the level be)."""
        self.gear_taps += 1
        return {"type": "gear", "player": self.player, "delta": 1 if self.gear_taps % 2 else -1}


class Table:
    def __init__(self, base: str, code: str, host_token: str):
        self.base, self.code = base, code
        self.host = {"Authorization": f"Bearer {host_token}"}
        self.seats: list[Seat] = []
        self.phones: list[Phone] = []
        self.changed = gevent.event.Event()  # set whenever one of its phones shows a newer version
        self.session = requests.Session()  # the taps' keep-alive connections
        self.rng = random.Random(code)
        self.next_seat = 0

    def url(self, path: str) -> str:
        return f"{self.base}/api/games/{self.code}{path}"

    def act(self, action: dict, headers: dict) -> requests.Response:
        return self.session.post(self.url("/actions"), json=action, headers=headers, timeout=TIMEOUT)

    def tap_seat(self) -> Seat:
        seat = self.seats[self.next_seat % PHONES]
        self.next_seat += 1
        return seat

    def all_show(self, version: int) -> bool:
        return all(phone.shown >= version for phone in self.phones)


def set_up_table(base: str, items: list[str]) -> Table:
    """A new classic game, six players joined, each with a race, a class, five items, a few
    levels and a hand (bench/allowed.py's busy table, through the API). Refusals are skipped."""
    session = requests.Session()
    game = session.post(base + "/api/games", json={"edition": "classic"}, timeout=TIMEOUT)
    game.raise_for_status()
    table = Table(base, game.json()["code"], game.json()["host_token"])
    joined = []
    for i, name in enumerate(NAMES):
        body = session.post(table.url("/players"), json={"name": name, "sex": "female" if i % 2 else "male"},
                            timeout=TIMEOUT)
        body.raise_for_status()
        joined.append((body.json()["player_id"], body.json()["token"]))
    for i, (pid, _token) in enumerate(joined):
        table.act({"type": "play", "player": pid, "card": RACES[i % len(RACES)]}, table.host)
        table.act({"type": "play", "player": pid, "card": CLASSES[i % len(CLASSES)]}, table.host)
        played = 0
        for item in table.rng.sample(items, len(items)):
            played += table.act({"type": "play", "player": pid, "card": item}, table.host).ok
            if played == ITEMS_EACH:
                break
        table.act({"type": "level", "player": pid, "delta": 2 + i % 4, "source": "adjust"}, table.host)
        table.act({"type": "set_hand", "player": pid, "count": 3 + i % 3}, table.host)
    levels = {p["id"]: p["level"] for p in session.get(table.url(""), timeout=TIMEOUT).json()["players"]}
    table.seats = [Seat(pid, token, levels[pid]) for pid, token in joined]
    return table


# --- a phone on the game page ----------------------------------------------------------------

class Phone:
    """One player's phone: the live stream, and its own fragment fetched at each newer ring."""

    def __init__(self, table: Table, seat: Seat):
        self.table = table
        self.fragment_url = f"{table.base}/games/{table.code}/live"
        self.fragment_headers = {"HX-Request": "true", "Cookie": f"seat_{table.code}={seat.token}"}
        self.fetch_session = requests.Session()
        self.stream_session = requests.Session()
        self.shown = 0  # data-version of the fragment on screen
        self.ring = gevent.event.Event()  # a ring for a newer version than shown: fetch (again)
        self.connected = gevent.event.Event()
        # Every newer version the phone came to show, and when (for the refresh times).
        self.shown_versions: list[int] = []
        self.shown_at: list[float] = []
        self.fetches = self.fetch_errors = self.stream_drops = 0
        self.greenlets: list[gevent.Greenlet] = []

    def open_page(self) -> None:
        """The page's first render: what the phone shows before any ring; then its stream."""
        self.fetch()
        self.greenlets = [gevent.spawn(self.listen), gevent.spawn(self.follow_rings)]

    def fetch(self) -> None:
        try:
            response = self.fetch_session.get(self.fragment_url, headers=self.fragment_headers,
                                              timeout=TIMEOUT)
        except requests.RequestException:
            self.fetch_errors += 1
            return
        arrived = time.perf_counter()
        self.fetches += 1
        found = FRAGMENT_VERSION.search(response.content)
        if response.status_code != 200 or not found:
            self.fetch_errors += 1
            return
        version = int(found[1])
        if version > self.shown:
            self.shown = version
            self.shown_versions.append(version)
            self.shown_at.append(arrived)
            self.table.changed.set()

    def held_since(self, version: int) -> float | None:
        """When this phone first showed ``version`` or newer (None: not yet)."""
        i = bisect.bisect_left(self.shown_versions, version)
        return self.shown_at[i] if i < len(self.shown_versions) else None

    def follow_rings(self) -> None:
        # One fetch at a time; rings during a fetch leave the event set, so one more follows.
        while True:
            self.ring.wait()
            self.ring.clear()
            self.fetch()

    def listen(self) -> None:
        url = f"{self.table.base}/api/games/{self.table.code}/events"
        while True:  # the server ends a stream after about 5 minutes; the page reconnects
            try:
                with self.stream_session.get(url, params={"since": self.shown}, stream=True,
                                             timeout=TIMEOUT) as response:
                    self.connected.set()
                    pending = b""
                    for chunk in response.iter_content(chunk_size=None):  # each chunk as it comes
                        pending += chunk
                        while b"\n\n" in pending:
                            message, pending = pending.split(b"\n\n", 1)
                            self.on_message(message)
            except requests.RequestException:
                pass
            self.stream_drops += 1
            gevent.sleep(1.5)  # the stream's "retry: 1500"

    def on_message(self, message: bytes) -> None:
        event, data = None, None
        for line in message.split(b"\n"):
            if line.startswith(b"event: "):
                event = line[7:]
            elif line.startswith(b"data: "):
                data = line[6:]
        if event != b"changed" or data is None:
            return
        # static/app.js skips a ring for a version the page already shows.
        if json.loads(data)["version"] > self.shown:
            self.ring.set()

    def close(self) -> None:
        gevent.killall(self.greenlets, block=False)


def open_phones(tables: list[Table]) -> None:
    for table in tables:
        table.phones = [Phone(table, seat) for seat in table.seats]
    opening = [gevent.spawn(phone.open_page) for table in tables for phone in table.phones]
    gevent.joinall(opening, timeout=120)
    for table in tables:
        for phone in table.phones:
            if not phone.connected.wait(30):
                raise SystemExit(f"a phone of {table.code} could not open its live stream")
    gevent.sleep(0.3)  # the streams' first lines are in; their doorbells are armed


def close_phones(tables: list[Table]) -> None:
    for table in tables:
        for phone in table.phones:
            phone.close()


class Tap:
    def __init__(self, table: Table, due: float):
        self.table = table
        self.due = due  # when the schedule meant it to leave
        self.sent: float | None = None
        self.answered: float | None = None
        self.version: int | None = None  # the action answer's state.version (None: no answer)
        self.refused = False

    def send(self) -> None:
        seat = self.table.tap_seat()
        action = seat.next_tap(self.table.rng)
        self.sent = time.perf_counter()
        try:
            response = self.table.act(action, seat.bearer)
        except requests.RequestException:
            return
        self.answered = time.perf_counter()
        if response.ok:
            self.version = response.json()["state"]["version"]
        else:
            self.refused = True

    def refresh(self, by: float = float("inf")) -> float | None:
        """Seconds from sending until the sixth phone showed this tap (None: not by ``by``)."""
        if self.version is None:
            return None
        held = [phone.held_since(self.version) for phone in self.table.phones]
        if any(t is None or t > by for t in held):
            return None
        return max(held) - self.sent


# --- the parts -------------------------------------------------------------------------------

def part_one(items: list[str], taps: int) -> list[Figure]:
    print(f"== one table: six phones, {taps} taps one after another ==")
    with running_server(**OPEN_LIMITS) as server:
        table = set_up_table(server.base, items)

        # The action alone first, before any phone listens (a few untimed taps warm up).
        for _ in range(5):
            Tap(table, 0).send()
        round_trips, refused = [], 0
        cpu = server.cpu_seconds()
        for _ in range(taps):
            tap = Tap(table, 0)
            tap.send()
            if tap.version is None:
                refused += 1
                continue
            round_trips.append(tap.answered - tap.sent)
        action_cpu = (server.cpu_seconds() - cpu) / taps

        open_phones([table])
        client_cpu, server_cpu, started = time.process_time(), server.cpu_seconds(), time.perf_counter()
        fetches = sum(phone.fetches for phone in table.phones)
        done: list[Tap] = []
        for _ in range(taps):
            tap = Tap(table, 0)
            tap.send()
            if tap.version is None:
                refused += 1
                continue
            deadline = time.perf_counter() + 5
            while not table.all_show(tap.version) and time.perf_counter() < deadline:
                table.changed.clear()
                table.changed.wait(deadline - time.perf_counter())
            done.append(tap)
        wall = time.perf_counter() - started
        server_cpu = (server.cpu_seconds() - server_cpu) / taps
        client_cpu = (time.process_time() - client_cpu) / taps
        fetches = (sum(phone.fetches for phone in table.phones) - fetches) / taps
        close_phones([table])

    refreshes = [r for r in (tap.refresh() for tap in done) if r is not None]
    print(f"refresh: p50 {ms(statistics.median(refreshes))}, p95 {ms(percentile(refreshes, 95))} "
          f"(target p95 <= 40 ms); {len(refreshes)}/{taps} taps reached all six within 5 s")
    print(f"server CPU per tap: {ms(server_cpu)} (target <= 25 ms), "
          f"{fetches:.1f} fragment fetches per tap")
    print(f"action alone (no phone listening): p50 {ms(statistics.median(round_trips))}, "
          f"p95 {ms(percentile(round_trips, 95))} (target p95 <= 5 ms); "
          f"server CPU per action {ms(action_cpu)}")
    print(f"client CPU per tap: {ms(client_cpu)} ({client_cpu * taps / wall:.0%} of a core); "
          f"refused taps: {refused}")
    return [
        Figure("one.refresh_p50", "one table: refresh p50", statistics.median(refreshes)),
        Figure("one.refresh_p95", "one table: refresh p95", percentile(refreshes, 95), "s", ("<=", 0.030)),
        Figure("one.reached", "one table: taps reaching all six within 5 s", len(refreshes) / taps, "share"),
        Figure("one.server_cpu_per_tap", "server CPU per tap (six phones)", server_cpu, "s", ("<=", 0.015)),
        Figure("one.fetches_per_tap", "fragment fetches per tap", fetches, "count"),
        Figure("one.action_p50", "action alone: round trip p50", statistics.median(round_trips)),
        Figure("one.action_p95", "action alone: round trip p95", percentile(round_trips, 95), "s",
               ("<=", 0.004)),
        Figure("one.action_server_cpu", "action alone: server CPU", action_cpu),
        Figure("one.client_cpu_per_tap", "client CPU per tap", client_cpu),
    ]


def part_load(items: list[str], tables_count: int, rate: float, seconds: float,
              grace: float) -> list[Figure]:
    count = int(rate * seconds)
    print(f"== load: {tables_count} tables ({tables_count * PHONES} phones), {rate:g} taps/s "
          f"for {seconds:g} s ({count} taps), grace {grace:g} s ==")
    with running_server(**OPEN_LIMITS) as server:
        started = time.perf_counter()
        # All tables at once: the server does the work, one table's round trips overlap another's.
        tables: list[Table] = []
        setting_up = [gevent.spawn(lambda: tables.append(set_up_table(server.base, items)))
                      for _ in range(tables_count)]
        gevent.joinall(setting_up)
        if len(tables) < tables_count:
            raise SystemExit(f"only {len(tables)} of {tables_count} tables could be set up")
        open_phones(tables)
        print(f"set up {tables_count} tables and opened their phones in "
              f"{time.perf_counter() - started:.1f} s")

        phones = [phone for table in tables for phone in table.phones]
        fetches, fetch_errors = sum(p.fetches for p in phones), sum(p.fetch_errors for p in phones)
        client_cpu, server_cpu = time.process_time(), server.cpu_seconds()
        start = time.perf_counter() + 0.2
        taps: list[Tap] = []
        senders: list[gevent.Greenlet] = []
        for n in range(count):  # open loop: the next tap leaves on time, answered or not
            tap = Tap(tables[n % tables_count], start + n / rate)
            gevent.sleep(max(0.0, tap.due - time.perf_counter()))
            taps.append(tap)
            senders.append(gevent.spawn(tap.send))
        end = start + count / rate
        cutoff = end + grace
        while time.perf_counter() < cutoff:  # early out once every tap is everywhere
            if all(s.dead for s in senders) and all(
                    t.version is None or t.table.all_show(t.version) for t in taps):
                break
            gevent.sleep(0.1)
        over = time.perf_counter()
        server_cpu = server.cpu_seconds() - server_cpu
        client_cpu = time.process_time() - client_cpu
        gevent.killall(senders, block=False)
        close_phones(tables)
        fetches = sum(p.fetches for p in phones) - fetches
        fetch_errors = sum(p.fetch_errors for p in phones) - fetch_errors

    answered = [t for t in taps if t.version is not None]
    refused = sum(t.refused for t in taps)
    refreshes = [t.refresh(by=cutoff) for t in taps]
    reached = [r for r in refreshes if r is not None]
    # A tap that never reached all six counts as slower than any that did.
    ranked = [r if r is not None else float("inf") for r in refreshes]
    p95 = percentile(ranked, 95) if ranked else float("inf")
    p50 = percentile(ranked, 50) if ranked else float("inf")
    late = max((t.sent - t.due for t in taps if t.sent is not None), default=0.0)

    def as_ms(value: float) -> str:
        return ms(value) if value != float("inf") else "not reached"

    print(f"refresh over all taps: p50 {as_ms(p50)}, p95 {as_ms(p95)} (target p95 <= 150 ms)")
    print(f"taps that reached all six phones: {len(reached)}/{count} = {len(reached) / count:.1%} "
          f"(target >= 95 %); answered {len(answered)}, refused {refused}")
    if reached and len(reached) < count:
        print(f"  among those that reached: p50 {ms(percentile(reached, 50))}, "
              f"p95 {ms(percentile(reached, 95))}")
    run = over - start
    print(f"server CPU: {ms(server_cpu / count)} per tap sent, {server_cpu / run:.0%} of a core over "
          f"{run:.1f} s; {fetches / count:.1f} fragment fetches per tap ({fetch_errors} failed)")
    print(f"client CPU: {ms(client_cpu / count)} per tap, {client_cpu / run:.0%} of a core; "
          f"latest tap left {ms(late)} after its time")
    return [
        Figure("load.refresh_p50", "load: refresh p50", p50),
        Figure("load.refresh_p95", "load: refresh p95 (unreached = slowest)", p95, "s", ("<=", 0.150)),
        Figure("load.reached", "load: taps reaching all six phones", len(reached) / count, "share",
               (">=", 0.95)),
        Figure("load.server_cpu_per_tap", "load: server CPU per tap sent", server_cpu / count),
        Figure("load.server_core", "load: server share of a core", server_cpu / run, "share"),
        Figure("load.client_cpu_per_tap", "load: client CPU per tap", client_cpu / count),
        Figure("load.latest_send", "load: latest tap left after its time", late),
    ]


def build_long_game(table: Table, house_cards: int, events: int, builders: int = 3) -> None:
    """House cards (in imports of 100, under the request size cap), then gear and level taps
    from a few senders at once (each with its own seats, so a seat's taps stay in order)."""
    started = time.perf_counter()
    imported = 0
    for first in range(0, house_cards, 100):
        cards = [{"kind": "item", "name": f"House item {n}", "bonus": 1 + n % 4, "slot": "other",
                  "summary": "A house card made for this benchmark, of ordinary size."}
                 for n in range(first, min(first + 100, house_cards))]
        if table.act({"type": "import_house_cards", "cards": cards}, table.host).ok:
            imported += len(cards)
    version = int(table.session.get(table.url(""), timeout=TIMEOUT).json()["version"])
    refused = 0
    shown_thousands = [version // 1000]  # progress, printed every 1,000 events

    def send_taps(seats: list[Seat]) -> None:
        nonlocal version, refused
        session = requests.Session()
        n = 0
        while version < events:
            seat = seats[n % len(seats)]
            n += 1
            response = session.post(table.url("/actions"), json=seat.next_tap(table.rng),
                                    headers=seat.bearer, timeout=TIMEOUT)
            if response.ok:
                version = max(version, response.json()["state"]["version"])
                if version // 1000 > shown_thousands[0]:
                    shown_thousands[0] = version // 1000
                    print(f"  {version} events after {time.perf_counter() - started:.0f} s", flush=True)
            else:
                refused += 1
                if refused > 100:
                    raise SystemExit(f"too many refused taps while building: {response.text[:300]}")

    gevent.joinall([gevent.spawn(send_taps, table.seats[b::builders]) for b in range(builders)],
                   raise_error=True)
    took = time.perf_counter() - started
    print(f"built the long game in {took:.1f} s: {imported} house cards, {version} events "
          f"({refused} taps refused)")


class Timings:
    """One request's round trips and server CPU times (seconds)."""

    def __init__(self) -> None:
        self.walls: list[float] = []
        self.cpus: list[float] = []


def timed_requests(server: RunningServer, tables: dict[str, Table],
                   repeat: int) -> dict[str, dict[str, Timings]]:
    """For each request and each table: its round trips and server CPU over ``repeat`` runs. The tables take turns, so a drift (another process starting
    on the machine) weighs on both alike."""
    session = requests.Session()

    def requests_of(table: Table) -> dict:
        seat, other = table.seats[0], table.seats[1]
        game = f"{table.base}/games/{table.code}"
        phone = {"HX-Request": "true", "Cookie": f"seat_{table.code}={seat.token}"}
        table_screen = {"HX-Request": "true"}  # what the table screen fetches at each ring

        def tap(by: Seat, gear_only: bool = False):
            def send():
                action = by.gear_tap() if gear_only else by.next_tap(table.rng)
                return session.post(table.url("/actions"), json=action, headers=by.bearer, timeout=TIMEOUT)
            return send

        def get(path: str, headers: dict | None = None):
            return lambda: session.get(game + path, headers=headers, timeout=TIMEOUT)

        def undo():
            return session.post(table.url("/undo"), headers=seat.bearer, timeout=TIMEOUT)

        # name: (a change made first, untimed; the timed request). A page is timed right after
        # a change, as phones and the table screen fetch it: the first render of a version.
        # Undo takes back the seat's own change, made just before.
        return {
            "action": (None, tap(seat)),
            "phone fragment /live": (tap(other), get("/live", phone)),
            "table screen /table": (tap(other), get("/table", table_screen)),
            "summary /summary": (tap(other), get("/summary")),
            "undo": (tap(seat, gear_only=True), undo),
        }

    requests_by_table = {label: requests_of(table) for label, table in tables.items()}
    results: dict[str, dict[str, Timings]] = {}
    for name in requests_by_table[next(iter(tables))]:
        results[name] = {label: Timings() for label in tables}
        for n in range(repeat + 1):
            for label, table_requests in requests_by_table.items():
                before, request = table_requests[name]
                if before is not None:
                    before().raise_for_status()
                cpu_before, sent = server.cpu_seconds_fine(), time.perf_counter()
                response = request()
                wall, cpu_after = time.perf_counter() - sent, server.cpu_seconds_fine()
                if not response.ok:
                    raise SystemExit(f"{name} answered {response.status_code}: {response.text[:300]}")
                if n:  # the first one warms up
                    results[name][label].walls.append(wall)
                    results[name][label].cpus.append(cpu_after - cpu_before)
    return results


def part_long(items: list[str], events: int, house_cards: int, repeat: int) -> list[Figure]:
    print(f"== long game: {events} events and {house_cards} house cards, against a fresh game "
          f"(medians of {repeat}) ==")
    with running_server(**OPEN_LIMITS) as server:
        fresh, long = set_up_table(server.base, items), set_up_table(server.base, items)
        build_long_game(long, house_cards, events)
        results = timed_requests(server, {"fresh": fresh, "long": long}, repeat)
    # Medians say what a request usually costs; the slowest and the mean CPU show the rare
    # slow one (a pause of the whole server weighs on whichever request it falls in).
    print(f"{'median (ms)':22} {'fresh':>6} {'long':>6} {'x':>5} | {'CPU fresh':>9} {'long':>6} {'x':>5} | "
          f"{'slowest fresh':>13} {'long':>6} | {'mean CPU fresh':>14} {'long':>6}")
    for name, by_table in results.items():
        fresh_, long_ = by_table["fresh"], by_table["long"]
        wall = statistics.median(fresh_.walls) * 1000, statistics.median(long_.walls) * 1000
        cpu = statistics.median(fresh_.cpus) * 1000, statistics.median(long_.cpus) * 1000
        slowest = max(fresh_.walls) * 1000, max(long_.walls) * 1000
        mean_cpu = statistics.mean(fresh_.cpus) * 1000, statistics.mean(long_.cpus) * 1000
        print(f"{name:22} {wall[0]:6.1f} {wall[1]:6.1f} {wall[1] / wall[0]:5.2f} | "
              f"{cpu[0]:9.1f} {cpu[1]:6.1f} {cpu[1] / cpu[0] if cpu[0] else float('nan'):5.2f} | "
              f"{slowest[0]:13.1f} {slowest[1]:6.1f} | {mean_cpu[0]:14.1f} {mean_cpu[1]:6.1f}")
    print("(target: each median at most 2x the fresh game (x = long/fresh). Times are round trips;\n"
          " CPU is the server's, from its threads' run time)")
    figures = []
    for name, by_table in results.items():
        key = name.split()[0]  # action, phone, table, summary, undo
        fresh_, long_ = by_table["fresh"], by_table["long"]
        wall = statistics.median(fresh_.walls), statistics.median(long_.walls)
        cpu = statistics.median(fresh_.cpus), statistics.median(long_.cpus)
        figures += [
            Figure(f"long.{key}.fresh", f"{name}: fresh median", wall[0]),
            Figure(f"long.{key}.long", f"{name}: long median", wall[1]),
            Figure(f"long.{key}.ratio", f"{name}: long/fresh", wall[1] / wall[0], "ratio", ("<=", 2.0)),
            Figure(f"long.{key}.cpu_fresh", f"{name}: CPU fresh median", cpu[0]),
            Figure(f"long.{key}.cpu_long", f"{name}: CPU long median", cpu[1]),
            Figure(f"long.{key}.cpu_ratio", f"{name}: CPU long/fresh",
                   cpu[1] / cpu[0] if cpu[0] else None, "ratio", ("<=", 2.0)),
        ]
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("one", "load", "long", "all"), default="all")
    parser.add_argument("--quick", action="store_true", help="smaller sizes for a quick run: "
                        + ", ".join(f"{k.replace('_', '-')} {v:g}" for k, v in QUICK.items()))
    parser.add_argument("--taps", type=int, help=f"one table: taps (default {FULL['taps']})")
    parser.add_argument("--tables", type=int, help=f"load: tables (default {FULL['tables']})")
    parser.add_argument("--rate", type=float, help=f"load: taps per second in all (default {FULL['rate']:g})")
    parser.add_argument("--seconds", type=float, help=f"load: how long (default {FULL['seconds']:g})")
    parser.add_argument("--grace", type=float,
                        help=f"load: seconds after the last tap for it to arrive (default {FULL['grace']:g})")
    parser.add_argument("--events", type=int, help=f"long: events in the long game (default {FULL['events']})")
    parser.add_argument("--house-cards", type=int,
                        help=f"long: house cards in the long game (default {FULL['house_cards']}, at most 500)")
    parser.add_argument("--repeat", type=int, help=f"long: requests timed each (default {FULL['repeat']})")
    parser.add_argument("--json", metavar="PATH", type=Path,
                        help="also write every figure, raw and scaled to the 0.5 s reference, with "
                             "the reference times before and after each part")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    for name, default in sizes.items():
        if getattr(args, name) is None:
            setattr(args, name, default)

    items = [card["id"] for card in load_catalog().search(None, set="classic", kind="item")]
    parts = ("one", "load", "long") if args.part == "all" else (args.part,)
    written: dict = {"at": AT, "steps": STEPS, "commit": _commit(), "quick": args.quick,
                     "sizes": {name: getattr(args, name) for name in FULL}, "parts": {}}
    for part in parts:
        started = time.perf_counter()
        # Other work on the machine (a test run) slows the server: say how busy it was, and how
        # fast the machine ran just before and just after.
        load_before = os.getloadavg()[0]
        before = reference_seconds()
        print(f"(load average before: {load_before:.1f}; reference loop {before:.3f} s CPU)")
        note = ""
        if part == "one":
            figures = part_one(items, args.taps)
        elif part == "load":
            figures = part_load(items, args.tables, args.rate, args.seconds, args.grace)
            if (args.tables, args.rate) != (FULL["tables"], FULL["rate"]):
                note = (f"(the targets are for {FULL['tables']} tables at {FULL['rate']:g} taps/s; "
                        f"this ran {args.tables} at {args.rate:g})")
        else:
            figures = part_long(items, args.events, args.house_cards, args.repeat)
            if args.events != FULL["events"]:
                note = f"(the targets are for a {FULL['events']:,}-event game; this one had {args.events:,})"
        took = time.perf_counter() - started
        load_after = os.getloadavg()[0]
        after = reference_seconds()
        print(f"({part} part took {took:.0f} s; load average after: {load_after:.1f}; "
              f"reference loop {after:.3f} s CPU)")
        report_scaled(figures, before, after, note)
        print()
        written["parts"][part] = dict(as_json(figures, before, after), seconds=took,
                                      load_average_before=load_before, load_average_after=load_after)
    if args.json:
        args.json.write_text(json.dumps(written, indent=1) + "\n")
        print(f"figures written to {args.json}")
    return 0


def _commit() -> str | None:
    """The commit the figures are of (with "+" when the working tree differs from it)."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+" if dirty else "")


if __name__ == "__main__":
    raise SystemExit(main())
