"""The rules one table plays by: its box's edition and what the table chose beyond it.

``TableRules`` is made once per ``apply`` (``Context.rules``) and handed wherever a rule is
asked: the edition in play (the box's printed rules, with the publisher's later rulings laid
over them when the table chose ``official_updates``: ``editions.in_play``), the optional rules
switched on (the state's ``variants``), and the level that wins (``winning_level``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Mapping

from . import editions
from .editions import Edition
from .errors import BadAction
from .vocab import OFFICIAL_UPDATES, VARIANTS, Variant
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


@dataclass(frozen=True)
class TableRules:
    """``edition``: the edition in play (what every rule about races, fights or hands asks);
    ``variants``: the optional rules the table switched on; ``winning_level``: the level a
    kill must reach to win."""

    edition: Edition
    variants: frozenset[str]
    winning_level: int

    def has(self, variant: Variant) -> bool:
        """Whether the table plays this optional rule."""
        return variant in self.variants

    @property
    def official_updates(self) -> bool:
        """The table follows the publisher's later rulings where they differ from its box's."""
        return OFFICIAL_UPDATES in self.variants

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> "TableRules":
        """A game's rules, from its state (the same object for the same choices)."""
        chosen = state.get("variants") or {}
        return _made(state["edition"], tuple(v for v in VARIANTS if chosen.get(v)), winning_level(state))

    @classmethod
    def chosen(cls, edition: Edition | str, variants: Mapping[str, Any] | None = None,
               winning_level: int | None = None) -> "TableRules":
        """The rules of a table that keeps no game here (the calculator): an edition (or its
        id) and the optional rules chosen with it."""
        box = editions.get(edition) if isinstance(edition, str) else edition
        on = frozenset(v for v, chosen in (variants or {}).items() if chosen)
        return cls(editions.in_play(box, OFFICIAL_UPDATES in on), on,
                   winning_level or RULEBOOK_WINNING_LEVEL)


@functools.lru_cache(maxsize=256)  # a handful of combinations: editions x choices x levels
def _made(edition_id: str, variants: tuple[str, ...], level: int) -> TableRules:
    return TableRules.chosen(edition_id, dict.fromkeys(variants, True), level)
