"""A card's name as the reader's table holds it: the name printed on the card in the reader's
language (``cards/translations/names``), else its printed English name, marked ``lang="en"``
on a page in another language. A race's or class's name with no printed source is the
rulebook's term from the translation catalogs; a house card or a name a player typed stays as
written.

The engine and its events keep the English name (the catalog's key); the words are chosen here,
at read time, like every other word.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from markupsafe import Markup, escape

from companion.catalog import load_catalog

SOURCE_LANG = "en"


@lru_cache(maxsize=4096)
def _printed(name: str, card_id: str | None, lang: str) -> tuple[str | None, bool]:
    """(the name printed on the card in ``lang``, None where no source gives it; whether
    ``name`` is a catalog card's at all)."""
    catalog = load_catalog()
    ids = [card_id] if card_id and card_id in catalog else catalog.ids_named(name)
    found = next((n for n in (catalog.printed_name(cid, lang) for cid in ids) if n), None)
    return found, bool(ids)


def parts(card: Any, lang: str, terms: Mapping[str, str]) -> tuple[str, bool]:
    """A card dict or a card's English name -> (the name to show in ``lang``, whether it is a
    catalog card's English name for want of a printed one). ``terms``: the rulebook's race and
    class words in ``lang`` (English name -> term), for those no printed card list names."""
    if isinstance(card, dict):
        name = str(card.get("name") or "")
        if card.get("set") == "house":
            return name, False  # the table's own words
        card_id = card.get("id")
        card_id = card_id if isinstance(card_id, str) else None
    else:
        name, card_id = str(card or ""), None
    if lang == SOURCE_LANG:
        return name, False
    printed, in_catalog = _printed(name, card_id, lang)
    if printed:
        return printed, False
    term = terms.get(name)
    if term and term != name:
        return term, False
    return name, in_catalog  # a catalog card's English name, or a player's typed words


def as_html(name: str, english: bool) -> Markup:
    """A name in a page: one with no printed source in the reader's language is the English
    one inside ``<span lang="en">``, so a reader (and a screen reader) knows it is English."""
    if english:
        return Markup('<span lang="en">%s</span>') % name
    return escape(name)


def other_names(card: dict) -> list[dict]:
    """The card's printed names in every language that has one, English first (the card page's
    "in other languages"), each with its sources."""
    catalog = load_catalog()
    card_id = card.get("id")
    out = [{"lang": SOURCE_LANG, "name": card.get("name"), "sources": []}]
    if not isinstance(card_id, str) or card_id not in catalog:
        return out
    for lang in catalog.printed.languages():
        entry = catalog.printed.entry(card_id, lang)
        if entry is not None:
            out.append({"lang": lang, "name": entry.name, "sources": list(entry.sources)})
    return out


def split_names(value: str) -> list[str]:
    """A comma-joined list of card names ("Leather Armor, 3,872 Orcs") split into names: the
    longest run of parts that is a catalog name is one card (names may hold a comma)."""
    catalog = load_catalog()
    pieces = value.split(", ")
    out, i = [], 0
    while i < len(pieces):
        for j in range(len(pieces), i, -1):
            candidate = ", ".join(pieces[i:j])
            if catalog.ids_named(candidate) or j == i + 1:
                out.append(candidate)
                i = j
                break
    return out
