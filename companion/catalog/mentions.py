"""Cards a sentence names: "does the wishing ring stop a curse" names the Wishing Ring.

The arbiter shows a named card's catalog facts beside the rulings. A card is named
when its printed name or one of its ``aka`` names appears in the question as whole words, after
the catalog's own normalization (case, accents and punctuation dropped: "3872 orcs" names the
3,872 Orcs). A question word may carry a plural or possessive "s" ("pit bulls" names the Pit
Bull). One-word names of races, classes and enhancers ("Elf", "Thief", "Baby", "Mate") are the
game's own vocabulary, which the rulings already answer, so only their longer names count.
A name inside a longer named one ("Dragon" in "Plutonium Dragon") is left out. A name printed
on the card in another language's edition names it too ("Sabbernder Schleim").
"""

from __future__ import annotations

from typing import Iterable

from . import load_catalog
from .search import normalize_text

#: kinds whose one-word names are words of the rules rather than of one card
_VOCABULARY_KINDS = frozenset({"race", "class", "half-breed", "super-munchkin", "enhancer"})


def _names(card: dict) -> list[tuple[str, ...]]:
    """The card's names as words: printed in English, its ``aka``, and as printed in every
    other language's edition (a German player asks about the "Sabbernder Schleim")."""
    out = []
    printed = load_catalog().printed.every_name(card["id"]) if isinstance(card.get("id"), str) else []
    for raw in [card.get("name") or ""] + list(card.get("aka") or ()) + printed:
        words = tuple(normalize_text(raw).split())
        if not words or (len(words) == 1 and card.get("kind") in _VOCABULARY_KINDS):
            continue
        out.append(words)
    return out


def _word_matches(said: str, printed: str) -> bool:
    return said == printed or said == printed + "s" or printed == said + "s"


def _find(words: list[str], name: tuple[str, ...]) -> tuple[int, int] | None:
    """Where ``name`` stands in ``words`` as (start, end), or None."""
    n = len(name)
    for i in range(len(words) - n + 1):
        if all(_word_matches(words[i + k], name[k]) for k in range(n)):
            return i, i + n
    return None


def cards_named(text: str, cards: Iterable[dict], limit: int = 3) -> list[dict]:
    """The cards ``text`` names, in the order ``cards`` gives them (callers put the table's
    edition first), at most ``limit``, one per name: a name two sets share (the Wizard of
    classic and Tails) gives the first set's card only."""
    words = normalize_text(text or "").split()
    if not words or limit <= 0:
        return []
    found: list[tuple[tuple[int, int], dict]] = []
    seen_names: set[tuple[str, ...]] = set()
    for card in cards:
        for name in _names(card):
            if name in seen_names:
                continue
            span = _find(words, name)
            if span is not None:
                seen_names.add(name)
                found.append((span, card))
                break
    # a name inside a longer name found in the same place is not a card of its own
    kept = [(span, card) for span, card in found
            if not any(o != span and o[0] <= span[0] and span[1] <= o[1] for o, _ in found)]
    kept.sort(key=lambda sc: sc[0][0])
    out: list[dict] = []
    for _span, card in kept:
        if all(c.get("id") != card.get("id") for c in out):
            out.append(card)
    return out[:limit]
