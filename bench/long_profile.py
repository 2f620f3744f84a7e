"""Profile: where a long game's summary page, table screen and undo spend their time, in-process.

Builds (once, kept in ``--folder``) a game like bench/refresh.py's long one: six players set up
mid-game, 500 house cards, then gear and level taps up to ``--events`` events; and a fresh game
set up alike. Then, the two games taking turns, it times (CPU, ``time.process_time``) each
request right after a change, as bench/refresh.py does, and prints the medians, long/fresh,
and the reference loop around them (``bench/reference.py``). ``--profile NAME`` runs that
request of the long game under cProfile instead and prints the top of the profile.

    .venv/bin/python bench/long_profile.py [--folder /tmp/long-profile] [--events 5000]
        [--repeat 30] [--profile summary|table|undo|action|live] [--sort cumulative|tottime]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reference import reference_seconds, scaled  # noqa: E402
from companion import create_app  # noqa: E402
from companion.catalog import load_catalog  # noqa: E402

RACES = ("classic/elf", "classic/dwarf", "classic/halfling")
CLASSES = ("classic/warrior", "classic/wizard", "classic/cleric", "classic/thief")


def _app(folder: Path):
    # Not TESTING: that turns on checks the server does not run (the store's check_kept).
    return create_app({"TESTING": False, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                       "RATELIMIT_ENABLED": False,
                       "COMPANION_DATABASE_URL": f"sqlite:///{folder}/bench.db"})


class Game:
    """A game of six seats driven through the API (Flask's test client)."""

    def __init__(self, client, code: str, host: str, seats: list[dict]):
        self.client, self.code = client, code
        self.host = {"Authorization": f"Bearer {host}"}
        self.seats = seats  # {"player_id", "token", "level", "gear"}
        self.rng = random.Random(code)
        self.turn = 0

    def act(self, action: dict, headers: dict):
        return self.client.post(f"/api/games/{self.code}/actions", json=action, headers=headers)

    def bearer(self, seat: dict) -> dict:
        return {"Authorization": f"Bearer {seat['token']}"}

    def gear(self, seat: dict):
        seat["gear"] += 1
        return self.act({"type": "gear", "player": seat["player_id"],
                         "delta": 1 if seat["gear"] % 2 else -1}, self.bearer(seat))

    def tap(self, seat: dict | None = None):
        """Gear and level taps in turn, the level kept between 3 and 7 (bench/refresh.py's)."""
        if seat is None:
            seat = self.seats[self.turn % len(self.seats)]
            self.turn += 1
        seat["taps"] = seat.get("taps", 0) + 1
        if seat["taps"] % 2:
            return self.gear(seat)
        delta = self.rng.choice((-1, 1))
        if not 3 <= seat["level"] + delta <= 7:
            delta = -1 if seat["level"] + delta > 7 else 1
        seat["level"] += delta
        return self.act({"type": "level", "player": seat["player_id"], "delta": delta,
                         "source": "adjust"}, self.bearer(seat))


def set_up(client, items: list[str]) -> Game:
    body = client.post("/api/games", json={"edition": "classic"}).get_json()
    code = body["code"]
    seats = []
    for i, name in enumerate(("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")):
        joined = client.post(f"/api/games/{code}/players",
                             json={"name": name, "sex": "female" if i % 2 else "male"}).get_json()
        seats.append({"player_id": joined["player_id"], "token": joined["token"], "gear": 0})
    game = Game(client, code, body["host_token"], seats)
    for i, seat in enumerate(seats):
        pid = seat["player_id"]
        game.act({"type": "play", "player": pid, "card": RACES[i % len(RACES)]}, game.host)
        game.act({"type": "play", "player": pid, "card": CLASSES[i % len(CLASSES)]}, game.host)
        played = 0
        for item in game.rng.sample(items, len(items)):
            played += game.act({"type": "play", "player": pid, "card": item}, game.host).status_code == 200
            if played == 5:
                break
        game.act({"type": "level", "player": pid, "delta": 2 + i % 4, "source": "adjust"}, game.host)
        game.act({"type": "set_hand", "player": pid, "count": 3 + i % 3}, game.host)
    levels = {p["id"]: p["level"] for p in client.get(f"/api/games/{code}").get_json()["players"]}
    for seat in seats:
        seat["level"] = levels[seat["player_id"]]
    return game


def build(folder: Path, events: int, house_cards: int) -> dict:
    app = _app(folder)
    client = app.test_client()
    items = [card["id"] for card in load_catalog().search(None, set="classic", kind="item")]
    fresh, long = set_up(client, items), set_up(client, items)
    for first in range(0, house_cards, 100):
        cards = [{"kind": "item", "name": f"House item {n}", "bonus": 1 + n % 4, "slot": "other",
                  "summary": "A house card made for this benchmark, of ordinary size."}
                 for n in range(first, min(first + 100, house_cards))]
        long.act({"type": "import_house_cards", "cards": cards}, long.host)
    started = time.perf_counter()
    version = 0
    while version < events:
        response = long.tap()
        if response.status_code == 200:
            version = response.get_json()["state"]["version"]
            if version % 1000 == 0:
                print(f"  {version} events after {time.perf_counter() - started:.0f} s", flush=True)
    saved = {label: {"code": g.code, "host": g.host, "seats": g.seats, "turn": g.turn}
             for label, g in (("fresh", fresh), ("long", long))}
    (folder / "games.json").write_text(json.dumps(saved))
    return saved


def games(folder: Path, events: int, house_cards: int):
    folder.mkdir(parents=True, exist_ok=True)
    saved = json.loads((folder / "games.json").read_text()) if (folder / "games.json").exists() \
        else build(folder, events, house_cards)
    client = _app(folder).test_client()
    made = {}
    for label, g in saved.items():
        game = Game(client, g["code"], "", g["seats"])
        game.host, game.turn = g["host"], g["turn"]
        # Levels as they are now (earlier runs tapped on after the games were saved).
        levels = {p["id"]: p["level"] for p in client.get(f"/api/games/{game.code}").get_json()["players"]}
        for seat in game.seats:
            seat["level"] = levels[seat["player_id"]]
        made[label] = game
    return made


def requests_of(game: Game) -> dict:
    """name: (a change made first, untimed; the timed request), as bench/refresh.py's long part."""
    seat, other = game.seats[0], game.seats[1]
    c, path = game.client, f"/games/{game.code}"
    phone = {"HX-Request": "true"}
    return {
        "action": (None, lambda: game.tap(seat)),
        "live": (lambda: game.tap(other),
                 lambda: (c.set_cookie(f"seat_{game.code}", seat["token"]), c.get(path + "/live", headers=phone))[1]),
        "table": (lambda: game.tap(other), lambda: c.get(path + "/table", headers={"HX-Request": "true"})),
        "summary": (lambda: game.tap(other), lambda: c.get(path + "/summary")),
        "undo": (lambda: game.gear(seat),
                 lambda: c.post(f"/api/games/{game.code}/undo", headers=game.bearer(seat))),
    }


def check(response) -> None:
    if response.status_code != 200:
        raise SystemExit(f"answered {response.status_code}: {response.get_data(as_text=True)[:300]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp/long-profile"))
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--house-cards", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--only", nargs="*", help="requests to time (default: all)")
    parser.add_argument("--profile", choices=("action", "live", "table", "summary", "undo"))
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--lines", type=int, default=45)
    args = parser.parse_args()
    made = games(args.folder, args.events, args.house_cards)
    by_game = {label: requests_of(game) for label, game in made.items()}

    if args.profile:
        before, request = by_game["long"][args.profile]
        for _ in range(3):  # warm up
            if before:
                check(before())
            check(request())
        profile = cProfile.Profile()
        for _ in range(args.repeat):
            if before:
                check(before())
            profile.enable()
            check(request())
            profile.disable()
        stats = pstats.Stats(profile)
        stats.sort_stats(args.sort).print_stats(args.lines)
        return 0

    names = args.only or list(by_game["long"])
    reference_before = reference_seconds()
    cpus: dict[str, dict[str, list[float]]] = {n: {"fresh": [], "long": []} for n in names}
    for name in names:
        for n in range(args.repeat + 1):
            for label, reqs in by_game.items():
                before, request = reqs[name]
                if before:
                    check(before())
                start = time.process_time()
                check(request())
                took = time.process_time() - start
                if n:
                    cpus[name][label].append(took)
    reference_after = reference_seconds()
    reference = (reference_before + reference_after) / 2
    print(f"reference loop {reference_before:.3f} s before, {reference_after:.3f} s after (CPU)")
    print(f"{'CPU median (ms)':16} {'fresh':>7} {'long':>7} {'x':>5} | {'@0.5 s fresh':>12} {'long':>7}")
    for name, by_label in cpus.items():
        fresh, long = statistics.median(by_label["fresh"]), statistics.median(by_label["long"])
        print(f"{name:16} {fresh * 1000:7.2f} {long * 1000:7.2f} {long / fresh:5.2f} | "
              f"{scaled(fresh, reference) * 1000:12.2f} {scaled(long, reference) * 1000:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
