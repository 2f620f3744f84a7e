"""Benchmark: how long ``engine.allowed(state, actor)`` takes on a busy table.

Six players (classic), each with a race, a class and five items from the catalog, hands and
levels; a fight on with two monsters, an enhancer and a one-shot, and a full history log.
Prints the CPU time of ``allowed`` for the fighter's phone, a bystander's phone and the host;
the same with a plain deep copy per check, and one plain ``engine.apply``, for scale; and how
many checks had to fall back to a plain deep copy (0 expected). Target: a few milliseconds.

    .venv/bin/python bench/allowed.py [--repeat 30] [--house-cards 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import engine  # noqa: E402
from companion.catalog import load_catalog  # noqa: E402
from companion.engine import Actor  # noqa: E402


NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
RACES = ("classic/elf", "classic/dwarf", "classic/halfling")
CLASSES = ("classic/warrior", "classic/wizard", "classic/cleric", "classic/thief")


def busy_table(house_cards: int = 0, seed: int = 1) -> dict:
    catalog = load_catalog()
    items = [c["id"] for c in catalog.search(None, set="classic", kind="item")]
    state = engine.new_game("BENCH01", "classic")
    players = [engine.add_player(state, name, "female" if i % 2 else "male") for i, name in enumerate(NAMES)]
    host = Actor(host=True)

    def act(action: dict) -> bool:
        nonlocal state
        try:
            state, _ = engine.apply(state, action, host)
        except engine.EngineError:
            return False
        return True

    rng = random.Random(seed)
    for i, pid in enumerate(players):
        act({"type": "play", "player": pid, "card": RACES[i % len(RACES)]})
        act({"type": "play", "player": pid, "card": CLASSES[i % len(CLASSES)]})
        played = 0
        for item in rng.sample(items, len(items)):
            played += act({"type": "play", "player": pid, "card": item})
            if played == 5:
                break
        act({"type": "level", "player": pid, "delta": 2 + i % 4})
        act({"type": "set_hand", "player": pid, "count": 3 + i % 3})
    if house_cards:
        act({"type": "import_house_cards", "cards": [
            {"kind": "item", "name": f"House item {n}", "bonus": 1 + n % 4, "slot": "other",
             "summary": "A house card made for this benchmark, of ordinary size."}
            for n in range(house_cards)]})
    enhancer = catalog.search(None, set="classic", kind="enhancer")[0]["id"]
    one_shot = catalog.search(None, set="classic", kind="one-shot")[0]["id"]
    assert act({"type": "fight", "player": players[0], "monster": "classic/bigfoot"})
    assert act({"type": "add_monster", "monster": "classic/crabs"})
    assert act({"type": "enhance", "monster": 0, "card": enhancer})
    assert act({"type": "one_shot", "side": "players", "card": one_shot})
    state["log"] = [{"seq": n, "actor": players[n % 6], "text": f"{NAMES[n % 6]}: level 1 to 2",
                     "event": {"kind": "level", "said": "%(name)s: level %(old)s to %(new)s",
                               "name": NAMES[n % 6], "old": 1, "new": 2}} for n in range(50)]
    return state


def timed(fn, repeat: int) -> list[float]:
    fn()  # warm caches (catalog, rules base) once
    out = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        out.append((time.process_time() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--house-cards", type=int, default=0)
    args = parser.parse_args()
    state = busy_table(args.house_cards)
    fighter, bystander = state["players"][0]["id"], state["players"][3]["id"]
    cards = sum(len(p["cards"]) for p in state["players"])
    print(f"table: {len(state['players'])} players, {cards} cards in play, fight on "
          f"({len(state['combat']['monsters'])} monsters), {len(state['house_cards'])} house cards, "
          f"{len(state['log'])} log lines")
    plain = timed(lambda: engine.apply(state, {"type": "gear", "player": fighter, "delta": 1},
                                       Actor(host=True)), args.repeat)
    print(f"one plain engine.apply (deep copy + reducer): {statistics.median(plain):6.2f} ms")
    for label, actor in (("fighter's phone", Actor(player=fighter)),
                         ("bystander's phone", Actor(player=bystander)),
                         ("host", Actor(host=True))):
        answer = engine.allowed(state, actor)
        times = timed(lambda: engine.allowed(state, actor), args.repeat)
        listed = sum(len(v) for v in answer.values())
        print(f"allowed, {label:18s} median {statistics.median(times):6.2f} ms, "
              f"best {min(times):6.2f} ms  ({len(answer)} types, {listed} actions listed)")


if __name__ == "__main__":
    main()
