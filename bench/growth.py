"""Benchmark: how much the database grows per action (the event log stores reverse patches).

Makes a game with 300 house cards and four players, plays a few hundred ordinary actions
through the JSON API (in-process app, a fresh SQLite file), and prints the bytes each event
row stores and how much the database file grew per action. Target: an ordinary action adds
at most 2 KB to a game with 300 house cards.

    .venv/bin/python bench/growth.py [--actions 300] [--house-cards 300]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402


def checkpointed_size(store, db: Path) -> int:
    with store.engine.connect() as connection:  # fold the WAL into the file before measuring
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    return db.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--house-cards", type=int, default=300)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="companion-growth-"))
    db = folder / "growth.db"
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "COMPANION_DATABASE_URL": f"sqlite:///{db}"})
    client = app.test_client()
    store = app.extensions["companion_store"]
    game = client.post("/api/games", json={"edition": "classic"}).get_json()
    code, host = game["code"], {"Authorization": f"Bearer {game['host_token']}"}
    players = []
    for name in ("Ann", "Bob", "Cid", "Dee"):
        players.append(client.post(f"/api/games/{code}/players", json={"name": name, "sex": "female"})
                       .get_json()["player_id"])
    cards = [{"kind": "item", "name": f"House item {i}", "bonus": 1 + i % 4, "gold": 100 * (i % 9),
              "slot": "other", "summary": "A house card made for this benchmark, of ordinary size."}
             for i in range(args.house_cards)]
    imported = client.post(f"/api/games/{code}/actions", json={"type": "import_house_cards", "cards": cards},
                           headers=host)
    assert imported.status_code == 200, imported.get_json()
    for pid in players:  # some gear in front of everyone, as in a real game
        for n in range(4):
            client.post(f"/api/games/{code}/actions", headers=host, json={
                "type": "play", "player": pid, "card": {"kind": "item", "name": f"Gear {pid}-{n}", "bonus": 2}})
    state_bytes = len(client.get(f"/api/games/{code}").data)
    first = len(store.event_sizes(code))
    size_before = checkpointed_size(store, db)
    rng = random.Random(7)
    statuses = {}
    for _ in range(args.actions):
        pid = rng.choice(players)
        action = rng.choice([
            {"type": "gear", "player": pid, "delta": rng.choice([-1, 1, 2])},
            {"type": "set_hand", "player": pid, "count": rng.randint(0, 8)},
            {"type": "level", "player": pid, "delta": 1},
        ])
        r = client.post(f"/api/games/{code}/actions", json=action, headers=host)
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
    size_after = checkpointed_size(store, db)
    sizes = store.event_sizes(code)[first:]
    print(f"game with {args.house_cards} house cards, public state {state_bytes / 1000:.1f} KB")
    print(f"{args.actions} ordinary actions, answers {statuses}")
    print(f"bytes stored per event: median {statistics.median(sizes):.0f}, max {max(sizes)}, "
          f"mean {statistics.mean(sizes):.0f}")
    print(f"database file grew {(size_after - size_before) / 1000:.1f} KB in all, "
          f"{(size_after - size_before) / args.actions:.0f} bytes per action "
          f"(the game row itself is rewritten in place)")
    os.environ.pop("COMPANION_DATABASE_URL", None)


if __name__ == "__main__":
    main()
