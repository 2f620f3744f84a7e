"""Benchmark: the floor under bench/refresh.py's targets, what a request costs before any of
the companion's work.

A tap at a table of six is seven requests on the server: the action, then each phone's fragment
(the doorbell design of DESIGN.md: every phone fetches its own part). However cheap the
companion made its own work, each of those requests pays the web stack first: gevent's WSGI
server reading and writing HTTP, Flask making a request and a response. This measures that
price on the server ``companion serve`` runs (``cli.make_server``, the same handler, timeouts
and garbage-collection setting), with apps that do nothing of the companion's:

- ``bare GET``: a Flask app answering a few bytes of text;
- ``bare POST + commit``: a Flask app that parses a small JSON body, writes one row to SQLite
  with the store's settings (WAL, ``synchronous=FULL``) and answers JSON: the least an action does;

and then the companion's own requests on a table set up like bench/refresh.py's, each on its
own: a static file (the companion's hooks, no game), ``/healthz``, the game as JSON, one
phone's fragment, one action. Server CPU is the server process's run time
(``/proc/<pid>/task/*/schedstat``) over ``--repeat`` requests on one kept-alive connection;
the action's round trip p95 is timed at the client.

Each figure is printed raw and at the 0.5 s reference (bench/reference.py, measured before and
after), and the floor of a tap, one bare POST and six bare GETs, beside bench/refresh.py's
target for a tap (15 ms at 0.5 s) and the action's (4 ms round trip p95 at 0.5 s).

    .venv/bin/python bench/floor.py [--repeat 400]
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference import reference_seconds, scaled  # noqa: E402
from serving import (free_port, percentile, process_cpu_seconds_fine, running_server,  # noqa: E402
                     wait_until_up)

TAP_TARGET = 0.015  # bench/refresh.py: server CPU per tap with six phones, at the 0.5 s reference
ACTION_TARGET = 0.004  # bench/refresh.py: the action alone, round trip p95, at the 0.5 s reference
OPEN_LIMITS = {name: "100000 per minute" for name in (
    "COMPANION_RATELIMIT_CREATE", "COMPANION_RATELIMIT_JOIN", "COMPANION_RATELIMIT_UNKNOWN_CODE",
    "COMPANION_RATELIMIT_ACTIONS")}


def serve_bare(port: int, database: str) -> None:
    """The bare apps, on the companion's own server (run in a child process)."""
    from companion import cli

    cli._patch()
    import gc

    from flask import Flask, request

    gc.set_threshold(*cli.GC_THRESHOLDS)
    app = Flask("bare")
    connection = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE IF NOT EXISTS taps (id INTEGER PRIMARY KEY, body TEXT)")

    @app.get("/text")
    def text():
        return "a few bytes of text"

    @app.post("/write")
    def write():
        body = request.get_json()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO taps (body) VALUES (?)", (str(body),))
        connection.execute("COMMIT")
        return {"ok": True, "version": body.get("n")}

    cli.make_server(app, "127.0.0.1", port).serve_forever()


def timed(pid: int, call, repeat: int) -> tuple[float, float]:
    """(server CPU per call, round-trip p95) over ``repeat`` calls, after a warm-up."""
    for _ in range(20):
        call()
    trips = []
    before = process_cpu_seconds_fine(pid)
    for _ in range(repeat):
        start = time.perf_counter()
        response = call()
        trips.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise SystemExit(f"answered {response.status_code}: {response.text[:200]}")
    return (process_cpu_seconds_fine(pid) - before) / repeat, percentile(trips, 95)


def bare_figures(repeat: int) -> dict[str, tuple[float, float]]:
    port = free_port()
    folder = tempfile.mkdtemp(prefix="companion-floor-")
    child = subprocess.Popen([sys.executable, __file__, "--serve-bare", str(port), f"{folder}/bare.db"],
                             stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(child, base + "/text", "the bare server")
        session = requests.Session()
        count = iter(range(10**9))
        return {
            "bare GET (text)": timed(child.pid, lambda: session.get(base + "/text"), repeat),
            "bare POST + SQLite commit": timed(
                child.pid, lambda: session.post(base + "/write", json={"n": next(count)}), repeat),
        }
    finally:
        child.terminate()
        child.wait(10)


def companion_figures(repeat: int) -> dict[str, tuple[float, float]]:
    # The table bench/refresh.py plays on (importing it makes this process gevent's: last).
    from refresh import set_up_table

    from companion.catalog import load_catalog

    items = [card["id"] for card in load_catalog().search(None, set="classic", kind="item")]
    with running_server(**OPEN_LIMITS) as server:
        base = server.base
        table = set_up_table(base, items)
        seat = table.seats[0]
        phone = requests.Session()
        phone.cookies.set(f"seat_{table.code}", seat.token)
        api = requests.Session()
        bearer = seat.bearer
        steps = iter(range(10**9))

        def action():
            delta = 1 if next(steps) % 2 else -1
            return api.post(f"{base}/api/games/{table.code}/actions", headers=bearer,
                            json={"type": "gear", "player": seat.player, "delta": delta})

        return {
            "static file": timed(server.pid, lambda: api.get(base + "/static/app.css"), repeat),
            "/healthz": timed(server.pid, lambda: api.get(base + "/healthz"), repeat),
            "the game as JSON": timed(server.pid, lambda: api.get(f"{base}/api/games/{table.code}",
                                                                  headers=bearer), repeat),
            "a phone's fragment": timed(server.pid, lambda: phone.get(
                f"{base}/games/{table.code}/live", headers={"HX-Request": "true"}), repeat),
            "an action": timed(server.pid, action, repeat),
        }


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--serve-bare":
        serve_bare(int(sys.argv[2]), sys.argv[3])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=400)
    args = parser.parse_args()
    before = reference_seconds()
    figures = {**bare_figures(args.repeat), **companion_figures(args.repeat)}
    after = reference_seconds()
    reference = (before + after) / 2
    print(f"reference loop {before:.3f} s before, {after:.3f} s after (CPU); times x 0.5 / {reference:.3f}")
    print(f"{'request':28} {'server CPU':>11} {'at 0.5 s':>9} | {'round trip p95':>14} {'at 0.5 s':>9}")
    for name, (cpu, p95) in figures.items():
        print(f"{name:28} {cpu * 1000:8.2f} ms {scaled(cpu, reference) * 1000:6.2f} ms | "
              f"{p95 * 1000:11.2f} ms {scaled(p95, reference) * 1000:6.2f} ms")
    get_cpu, _ = figures["bare GET (text)"]
    post_cpu, post_p95 = figures["bare POST + SQLite commit"]
    tap = post_cpu + 6 * get_cpu
    print(f"\nfloor of a tap (one bare POST, six bare GETs): {tap * 1000:.2f} ms raw, "
          f"{scaled(tap, reference) * 1000:.2f} ms at 0.5 s; target for the whole tap "
          f"{TAP_TARGET * 1000:.0f} ms at 0.5 s: the floor is {scaled(tap, reference) / TAP_TARGET:.0%} of it")
    print(f"floor of an action's round trip p95 (bare POST + commit): {post_p95 * 1000:.2f} ms raw, "
          f"{scaled(post_p95, reference) * 1000:.2f} ms at 0.5 s; target {ACTION_TARGET * 1000:.0f} ms at 0.5 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
