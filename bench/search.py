"""Benchmark: how fast the two searches answer a phone.

- the card lookup over about 600 cards (the catalog four times over, as a busy table's sets
  plus house cards might be), for typed, misspelled and one-letter queries;
- the rules arbiter over every player question of companion/rulebase/questions.json (the
  questions tests/test_arbiter_questions.py asks).

    .venv/bin/python bench/search.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import rulebase  # noqa: E402
from companion.catalog import load_catalog  # noqa: E402
from companion.rulebase import search  # noqa: E402

QUESTIONS = [(q["question"], q["ruling"], q["edition"]) for q in
             json.loads((Path(rulebase.__file__).parent / "questions.json").read_text(encoding="utf-8"))]

CARD_QUERIES = ["drooling slim", "plutonim dragn", "drool", "wizard", "a", "potion of", "go up"]


def per_call_ms(calls: list, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        for call in calls:
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1000)
    return times


def describe(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{name}: median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, worst {max(times):.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    catalog = load_catalog()
    house = [dict(c, set="house", id=f"house/{c['id'].replace('/', '-')}-{n}")
             for n in range(3) for c in catalog.cards]
    catalog.search("warm up", extra=house)
    search("warm up the index")
    print(f"card lookup, {len(catalog.cards)} cards: " + describe(
        "per query", per_call_ms([lambda q=q: catalog.search(q) for q in CARD_QUERIES], args.rounds)))
    print(f"card lookup, {len(catalog.cards) + len(house)} cards: " + describe(
        "per query", per_call_ms([lambda q=q: catalog.search(q, extra=house) for q in CARD_QUERIES],
                                 args.rounds)))
    print(f"arbiter, {len(QUESTIONS)} questions: " + describe(
        "per question", per_call_ms([lambda q=q, ed=ed: search(q, edition=ed) for q, _, ed in QUESTIONS],
                                    args.rounds)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
