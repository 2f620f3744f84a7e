"""Benchmark: the costliest request of each route an attacker can shape, in the machine's
reference units (``bench/reference.py``).

gevent serves every table of a process on one event loop, so a request that computes for a
second delays every other table's taps by a second. Each request below is built to cost as
much as the bounds allow (the attacks of the hardening round four):

- ``search``: a card search of 100 x U+FDFA (18 letters and 4 words each under NFKD) in a
  game filled with house cards with long names and ten aliases each, and a plain "sword" there;
- ``allowed``: ``GET /api/games/<code>/allowed`` as the host of six seats with 125 items each;
- ``calculator``: the anonymous ``POST /api/combat`` at its bounds: ten monsters, each with
  two Mates and three enhancers (60 cards).

Each is timed in-process (Flask's test client, the server's code without the network), its
best and worst of ``--repeat`` runs in CPU ms, beside the reference loop and scaled to a
0.5 s reference.

``--served`` then runs ``companion serve`` and measures what matters on the event loop: the
round trip of another table's taps (one every 50 ms) alone, and while these requests are sent
back to back. The server pauses long computations for the loop's other requests
(``companion.cli._share_the_loop``). Goal: no request delays another table's taps by more than
100 ms at the reference.

    .venv/bin/python bench/worst_requests.py [--repeat 5] [--served] [--seconds 8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reference import reference_seconds, scaled  # noqa: E402
from companion import create_app  # noqa: E402


def _app(folder: str):
    return create_app({"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                       "RATELIMIT_ENABLED": False,
                       "COMPANION_DATABASE_URL": f"sqlite:///{folder}/bench.db"})


def _house_cards(count: int) -> list[dict]:
    return [{"kind": "monster", "name": f"Monster of the long name number {i:03d} the terrible",
             "level": 4, "treasures": 1,
             "aka": [f"Another long alias of monster {i:03d} number {j}" for j in range(10)]}
            for i in range(count)]


def _setup(client):
    r = client.post("/api/games", json={"edition": "classic"})
    game = r.get_json()
    code, host = game["code"], {"Authorization": f"Bearer {game['host_token']}"}
    seats = []
    for i in range(6):
        joined = client.post(f"/api/games/{code}/players", json={"name": f"P{i}", "sex": "male"}).get_json()
        seats.append(joined)
    cards = _house_cards(360)
    for start in range(0, len(cards), 30):
        r = client.post(f"/api/games/{code}/actions", headers=host,
                        json={"type": "import_house_cards", "cards": cards[start:start + 30]})
        if r.status_code != 200:
            print("house cards stopped at", start, r.get_json()["error"]["message"])
            break
    for seat in seats:
        auth = {"Authorization": f"Bearer {seat['token']}"}
        for n in range(125):
            r = client.post(f"/api/games/{code}/actions", headers=auth, json={
                "type": "play", "player": seat["player_id"],
                "card": {"kind": "item", "name": f"Junk {n}", "bonus": 0, "gold": 0}})
            if r.status_code != 200:
                print("items stopped at", n, r.get_json()["error"]["message"])
                break
    return code, host


def _calculator_body() -> dict:
    monster = {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}
    enhancer = {"kind": "enhancer", "name": "Ancient", "bonus": 10}
    # At the calculator's bounds: 60 cards in all, two Mates on each monster.
    return {"edition": "classic",
            "monsters": [{"card": monster, "enhancers": ["classic/mate"] * 2 + [enhancer] * 3}
                         for _ in range(10)]}


def _time(call, repeat: int) -> tuple[float, float, int]:
    cpu = []
    status = 0
    for _ in range(repeat):
        start = time.process_time()
        status = call().status_code
        cpu.append(time.process_time() - start)
    return min(cpu), max(cpu), status


class _Http:
    """``requests`` dressed as Flask's test client, for ``_setup`` against a real server."""

    def __init__(self, base: str):
        import requests

        self.base, self.session = base, requests.Session()

    def _wrap(self, response):
        response.get_json = response.json
        return response

    def get(self, path, headers=None):
        return self._wrap(self.session.get(self.base + path, headers=headers, timeout=120))

    def post(self, path, json=None, headers=None):
        return self._wrap(self.session.post(self.base + path, json=json, headers=headers, timeout=120))


def _served(seconds: float) -> None:
    import threading

    from bench.serving import percentile, running_server

    # The set-up plays hundreds of cards from one seat and address: throttling opened wide.
    OPEN_LIMITS = {name: "100000 per minute" for name in (  # noqa: N806
        "COMPANION_RATELIMIT_CREATE", "COMPANION_RATELIMIT_JOIN", "COMPANION_RATELIMIT_UNKNOWN_CODE",
        "COMPANION_RATELIMIT_ACTIONS")}

    with running_server(**OPEN_LIMITS) as server:
        heavy = _Http(server.base)
        code, host = _setup(heavy)
        light = _Http(server.base)
        game = light.post("/api/games", json={"edition": "classic"}).get_json()
        seat = light.post(f"/api/games/{game['code']}/players", json={"name": "Ann", "sex": "female"}).get_json()
        auth = {"Authorization": f"Bearer {seat['token']}"}

        def taps(until: float) -> list[float]:
            out, delta = [], 1
            while time.monotonic() < until:
                start = time.perf_counter()
                light.post(f"/api/games/{game['code']}/actions", headers=auth,
                           json={"type": "gear", "player": seat["player_id"], "delta": delta})
                out.append(time.perf_counter() - start)
                delta = -delta
                time.sleep(0.05)
            return out

        def report(label, values, reference):
            print(f"{label:44} taps {len(values):4}  p50 {percentile(values, 50) * 1000:7.1f} ms  "
                  f"p95 {percentile(values, 95) * 1000:7.1f} ms  max {max(values) * 1000:7.1f} ms  "
                  f"(p95 @0.5s {scaled(percentile(values, 95), reference) * 1000:6.1f} ms)")

        reference = reference_seconds()
        print(f"reference loop: {reference:.3f} s CPU")
        report("another table's taps, alone", taps(time.monotonic() + seconds), reference)
        for name, path in (("allowed (host, 6 x 125 items)", f"/api/games/{code}/allowed"),
                           ("search U+FDFA x100", f"/api/cards?game={code}&q=" + "\ufdfa" * 100)):
            stop = threading.Event()
            attacker = _Http(server.base)

            def hammer():
                while not stop.is_set():
                    attacker.get(path, headers=host)
            worker = threading.Thread(target=hammer)
            worker.start()
            try:
                report(f"... while {name} runs back to back", taps(time.monotonic() + seconds), reference)
            finally:
                stop.set()
                worker.join()
        print(f"reference loop after: {reference_seconds():.3f} s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--served", action="store_true")
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        client = _app(folder).test_client()
        code, host = _setup(client)
        requests = {
            "search U+FDFA x100": lambda: client.get(f"/api/cards?game={code}&q=" + "\ufdfa" * 100),
            "search 'sword'": lambda: client.get(f"/api/cards?game={code}&q=sword"),
            "allowed (host, 6 x 125 items)": lambda: client.get(f"/api/games/{code}/allowed", headers=host),
            "calculator (at its bounds)": lambda: client.post("/api/combat", json=_calculator_body()),
        }
        before = reference_seconds()
        rows = [(name, *_time(call, args.repeat)) for name, call in requests.items()]
        after = reference_seconds()
    reference = (before + after) / 2
    print(f"reference loop: {before:.3f} s before, {after:.3f} s after (CPU)")
    print(f"{'request':34} {'status':>6} {'best ms':>9} {'worst ms':>9} {'worst @0.5s':>12}")
    for name, best, worst, status in rows:
        print(f"{name:34} {status:>6} {best * 1000:9.1f} {worst * 1000:9.1f} "
              f"{scaled(worst, reference) * 1000:12.1f}")
    if args.served:
        _served(args.seconds)


if __name__ == "__main__":
    main()
