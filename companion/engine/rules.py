"""The rules a table plays by: its edition's box rules plus what the table chose (the optional
rules in ``variants``, the winning level). Asked through one object, ``Rules.of(state)``,
wherever a rule depends on the table's choices rather than on the box alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from . import editions
from .errors import BadAction
from .words import N_

# Every rulebook: the first to reach level 10 (by a kill) wins. Epic Munchkin, which the Oz
# rulebook points to, plays on to level 20; its own rules for levels 11 to 20 are not in this
# app, so a table playing them keeps those by hand.
RULEBOOK_WINNING_LEVEL = 10
WINNING_LEVELS = (10, 20)


@dataclass(frozen=True)
class Rules:
    edition: editions.Edition
    variants: Mapping[str, bool]
    winning_level: int = RULEBOOK_WINNING_LEVEL

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> "Rules":
        return cls(edition=editions.get(state["edition"]), variants=state.get("variants") or {},
                   winning_level=winning_level(state))


def winning_level(state: Mapping[str, Any]) -> int:
    """The level that wins this game (a game from before the choice plays to 10)."""
    return state.get("winning_level") or RULEBOOK_WINNING_LEVEL


def check_winning_level(value: Any) -> int:
    """A winning level a table may choose: 10 (every rulebook) or 20 (Epic Munchkin)."""
    if type(value) is not int or value not in WINNING_LEVELS:
        raise BadAction(N_("The winning level is 10 (the rulebook) or 20 (Epic Munchkin)."))
    return value
