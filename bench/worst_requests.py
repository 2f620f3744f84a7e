"""Benchmark: the costliest request of each route an attacker can shape, in the machine's
reference units (``bench/reference.py``).

gevent serves every table of a process on one event loop, so a request that computes for a
second delays every other table's taps by a second. Each request below is built to cost as
much as the bounds allow (the attacks of the hardening round four):

- ``search``: a card search of 100 x U+FDFA (18 letters and 4 words each under NFKD) in a
  game filled with house cards with long names and ten aliases each, and a plain "sword" there;
- ``allowed``: ``GET /api/games/<code>/allowed`` as the host of six seats with 125 items each;
- ``calculator``: the anonymous ``POST /api/combat`` with ten monsters, each with 30 enhancers,
  and 30 items and one-shots a side.

Each is timed in-process (Flask's test client, the server's code without the network), its
best and worst of ``--repeat`` runs in CPU ms, beside the reference loop and scaled to a
0.5 s reference. Goal: every worst at most 100 ms at the reference.

    .venv/bin/python bench/worst_requests.py [--repeat 5]
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
    item = {"kind": "item", "name": "Thing", "bonus": 1}
    shot = {"kind": "one-shot", "name": "Potion", "bonus": 2}
    monster = {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}
    person = {"level": 5, "items": [item] * 30}
    return {"edition": "classic", "fighter": person, "helper": person,
            "monsters": [{"card": monster, "enhancers": ["classic/mate"] * 30} for _ in range(10)],
            "one_shots": {"players": [shot] * 30, "monsters": [shot] * 30}}


def _time(call, repeat: int) -> tuple[float, float, int]:
    cpu = []
    status = 0
    for _ in range(repeat):
        start = time.process_time()
        status = call().status_code
        cpu.append(time.process_time() - start)
    return min(cpu), max(cpu), status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        client = _app(folder).test_client()
        code, host = _setup(client)
        requests = {
            "search U+FDFA x100": lambda: client.get(f"/api/cards?game={code}&q=" + "\ufdfa" * 100),
            "search 'sword'": lambda: client.get(f"/api/cards?game={code}&q=sword"),
            "allowed (host, 6 x 125 items)": lambda: client.get(f"/api/games/{code}/allowed", headers=host),
            "calculator (10 monsters x 30)": lambda: client.post("/api/combat", json=_calculator_body()),
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


if __name__ == "__main__":
    main()
