"""Fuzz: send 20,000 generated inputs through the real app and print a tally.

The inputs are ``companion.fuzzing``'s (as ``tests/test_fuzz.py``'s): actions of every type built from the action models,
well-formed and broken (wrong types in every field, objects and lists for ``type``, nesting a
thousand deep, lone surrogates, huge numbers, junk keys), sent as the host, a seated player
and a stranger to ``/api/games/<code>/actions``, ``/check``, ``/undo``, joining, the
calculator ``POST /api/combat`` and the HTML form endpoint ``POST /games/<code>/act``. A
fresh game is made per batch; after each batch the game's invariants are checked.

Prints the answers by status code and by endpoint, and every 5xx or broken invariant with a
sample input. Exits 1 if there was any.

    .venv/bin/python bench/fuzz.py [--inputs 20000] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from hypothesis import HealthCheck, Phase, given, seed as hypothesis_seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from companion import create_app  # noqa: E402
from companion.fuzzing import NO_THROTTLE, OPERATIONS, FuzzedTable  # noqa: E402


def short(value, limit: int = 300) -> str:
    text = ascii(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=None, help="repeat a run exactly")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="companion-fuzz-")
    app = create_app({
        "TESTING": True, "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": False, **NO_THROTTLE,
        "COMPANION_DATABASE_URL": f"sqlite:///{os.path.join(folder, 'fuzz.db')}",
    })
    client = app.test_client(use_cookies=False)

    statuses: Counter = Counter()
    by_endpoint: Counter = Counter()
    failures: dict[tuple, tuple[int, str]] = {}  # (where, what) -> (count, sample input)
    sent = 0
    batches = 0

    def fail(where: str, what: str, sample) -> None:
        count, first = failures.get((where, what), (0, short(sample)))
        failures[(where, what)] = (count + 1, first)

    @settings(max_examples=100, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(batch=st.lists(OPERATIONS, min_size=20, max_size=60))
    def run(batch):
        nonlocal sent, batches
        if sent >= args.inputs:
            return
        batches += 1
        table = FuzzedTable(client)
        for op in batch:
            if sent >= args.inputs:
                break
            try:
                path, response = table.send(op)
            except Exception as exc:  # the test client itself raised: a bug in the server
                fail(op[0], f"raised {type(exc).__name__}: {exc}"[:120], op)
                sent += 1
                continue
            sent += 1
            statuses[response.status_code] += 1
            by_endpoint[(op[0], response.status_code)] += 1
            if response.status_code >= 500:
                fail(op[0], f"HTTP {response.status_code}", op)
            elif path.startswith("/api/") and not (response.is_json and response.get_json(silent=True) is not None):
                fail(op[0], "an /api/ answer that is not JSON", op)
        try:
            table.check_invariants()
        except AssertionError as exc:
            fail("invariants", str(exc)[:120], batch)

    if args.seed is not None:
        run = hypothesis_seed(args.seed)(run)
    started = time.monotonic()
    while sent < args.inputs:
        run()
    elapsed = time.monotonic() - started

    print(f"{sent} inputs in {batches} games, {elapsed:.1f} s ({sent / elapsed:.0f} inputs/s)")
    print("\nanswers by status:")
    for status, count in sorted(statuses.items()):
        print(f"  {status}: {count}")
    print("\nanswers by endpoint and status:")
    for (kind, status), count in sorted(by_endpoint.items()):
        print(f"  {kind:7} {status}: {count}")
    if not failures:
        print("\nno 5xx, every /api/ answer JSON, every game's invariants held")
        return 0
    print(f"\n{sum(c for c, _ in failures.values())} failures:")
    for (where, what), (count, sample) in sorted(failures.items(), key=lambda kv: -kv[1][0]):
        print(f"  {count} x {where}: {what}\n      sample: {sample}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
