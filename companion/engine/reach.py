"""How far a held +/- button may go in one change: the level, the gear bonus, the cards in hand.

A phone steps the value while the player holds the button and sends the final value once on
release (``static/app.js``); it asks here first how many steps the rules accept, so the value on
screen stops where the engine would refuse (level 1, level 9 by anything but a kill, the schema's
bounds) instead of the whole change being refused on release."""

from __future__ import annotations

from typing import Any

from .allowed import is_allowed

MOST = 60  # more steps than any of these fields takes (a hand holds at most 60 cards)


def reach(state: dict, action: dict, actor: Any, field: str, step: int, most: int = MOST) -> int:
    """How many steps of ``step`` on ``action[field]`` the engine accepts as one action:
    ``n`` where the action with ``field`` at ``first + (n - 1) * step`` is accepted and one step
    more is not (``first`` is the value in ``action``, one step; 0: not even that one), at most
    ``most``. The values a rule accepts are one run (a level from 1 to 9, a count from 0 up, a
    bonus within its bounds), so a binary search finds its end in a few checks."""
    first = action.get(field)
    if not isinstance(first, int) or isinstance(first, bool) or step not in (-1, 1):
        return 0

    def accepted(n: int) -> bool:
        return is_allowed(state, {**action, field: first + (n - 1) * step}, actor)

    if not accepted(1):
        return 0
    low, high = 1, most  # accepted(low) holds; the end lies in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if accepted(middle):
            low = middle
        else:
            high = middle - 1
    return low
