"""Card facts: what the engine asks about cards, through an interface it owns.

The engine keeps no card files. Whoever puts the app together supplies a ``CardFacts``
(``companion/__init__.py`` supplies the catalog's, ``catalog.CARD_FACTS``), and every
``apply`` given no resolver of its own asks it:

- ``resolve(spec, house_cards)``: a card id (a table's house card first, else a box's card) or
  a card's facts inline, as a normalized card dict the caller may change; ``BadAction`` when
  there is no such card or the facts do not fit the card schema (``card_schema``).
- ``validate(data)``: a card's facts checked against the card schema and normalized (defaults
  filled, a house card's id made from its name); ``InvalidCard`` when they do not fit.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

# What ``apply`` resolves a card spec with: (spec, the table's house cards) -> a card dict.
CardResolver = Callable[[Any, Sequence[dict]], dict]


class InvalidCard(ValueError):
    """Card facts that do not fit the card schema: which card (its name or id as given) and
    the first field at fault (None when the card as a whole is wrong)."""

    def __init__(self, card: str | None, field: str | None):
        super().__init__(f"card {card!r}: field {field!r}")
        self.card = card
        self.field = field


class CardFacts(Protocol):
    def resolve(self, spec: Any, house_cards: Sequence[dict]) -> dict: ...

    def validate(self, data: dict) -> dict: ...


_supplied: CardFacts | None = None


def supply(facts: CardFacts) -> None:
    """Where the engine's card facts come from from now on (once, as the app is put together)."""
    global _supplied
    _supplied = facts


def supplied() -> CardFacts:
    if _supplied is None:
        raise RuntimeError("no card facts supplied: call companion.engine.cards.supply() first")
    return _supplied


def resolve(spec: Any, house_cards: Sequence[dict]) -> dict:
    """The resolver ``apply`` uses when given none: the supplied card facts'."""
    return supplied().resolve(spec, house_cards)


def bad_stuff_rolls_a_die(card: dict) -> bool:
    """Whether the monster's Bad Stuff, if it catches someone, may ask for a die (a
    ``roll_levels`` step, in a branch too): a table rolling real dice enters that one as well."""
    def rolls(steps) -> bool:
        return any(step.get("do") == "roll_levels" or rolls(step.get("otherwise") or ())
                   for step in steps or ())
    return rolls((card.get("bad_stuff") or {}).get("steps"))
