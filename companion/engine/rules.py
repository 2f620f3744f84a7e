"""What a table chose beyond its box's rules, asked wherever a rule depends on it: the
winning level (the optional rules live in ``variants``, ``editions.in_play``).
"""

from __future__ import annotations

from typing import Any, Mapping

from .errors import BadAction
from .words import N_

# Every rulebook: the first to reach level 10 (by a kill) wins. Epic Munchkin, which the Oz
# rulebook points to, plays on to level 20; its own rules for levels 11 to 20 are not in this
# app, so a table playing them keeps those by hand.
RULEBOOK_WINNING_LEVEL = 10
WINNING_LEVELS = (10, 20)


def winning_level(state: Mapping[str, Any]) -> int:
    """The level that wins this game (a game from before the choice plays to 10)."""
    return state.get("winning_level") or RULEBOOK_WINNING_LEVEL


def check_winning_level(value: Any) -> int:
    """A winning level a table may choose: 10 (every rulebook) or 20 (Epic Munchkin)."""
    if type(value) is not int or value not in WINNING_LEVELS:
        raise BadAction(N_("The winning level is 10 (the rulebook) or 20 (Epic Munchkin)."))
    return value
