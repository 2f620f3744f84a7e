"""The machine's speed, for every benchmark's figures: the CPU time of a fixed pure-Python loop
(5,000,000 integer additions). This VM's speed swings 2x within a minute, so a figure means
something only beside the reference measured around it; ``scaled`` brings a time to a machine
whose reference takes 0.5 s (the figures the README and the issues name)."""

from __future__ import annotations

import time

STEPS = 5_000_000
AT = 0.5  # seconds: the reference machine


def reference_seconds(steps: int = STEPS) -> float:
    start = time.process_time()
    total = 0
    for i in range(steps):
        total += i
    return time.process_time() - start


def scaled(seconds: float, reference: float) -> float:
    """``seconds`` measured while the reference took ``reference``, on the reference machine."""
    return seconds * AT / reference if reference > 0 else seconds


if __name__ == "__main__":
    print(f"reference loop ({STEPS:,} additions): {reference_seconds():.3f} s CPU")
