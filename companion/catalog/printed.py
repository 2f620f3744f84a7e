"""Card names as printed on the cards of each language's edition (facts, with their sources).

``cards/translations/names/<lang>.json`` holds, per catalog card id, the name that language's
publisher printed on the card, with the sources that give it::

    {"language": "ru", "publisher": "Hobby World", "notes": [...],
     "names": {"classic/plutonium-dragon": {"name": "Плутониевый дракон",
                                            "sources": ["owner/repo: path", "other/repo: path"],
                                            "also": [{"name": ..., "sources": [...]}]}}}

A name stands only with the publisher's own list ("publisher" in a source) or two sources
(independent ones: the researcher's check, recorded in ``notes``); ``also`` holds another
printing's name, found by search but never shown. A card with no entry keeps its English name,
and every page marks it ``lang="en"``: no name is ever made up or translated here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable


class PrintedNamesError(ValueError):
    """A names file that does not hold what this module promises (names the file and card)."""


@dataclass(frozen=True)
class PrintedName:
    name: str
    sources: tuple[str, ...]
    also: tuple[str, ...] = ()  # other printings' names: searched, never shown


@dataclass
class PrintedNames:
    """Every language's printed names, read from one card directory."""

    by_lang: dict[str, dict[str, PrintedName]] = field(default_factory=dict)
    publishers: dict[str, str | None] = field(default_factory=dict)

    def name(self, card_id: str, lang: str) -> str | None:
        entry = self.by_lang.get(lang, {}).get(card_id)
        return entry.name if entry is not None else None

    def entry(self, card_id: str, lang: str) -> PrintedName | None:
        return self.by_lang.get(lang, {}).get(card_id)

    def every_name(self, card_id: str) -> list[str]:
        """The card's printed names in every language, other printings' too (for search)."""
        out: list[str] = []
        for names in self.by_lang.values():
            entry = names.get(card_id)
            if entry is not None:
                out += [entry.name, *entry.also]
        return out

    def languages(self) -> list[str]:
        return sorted(self.by_lang)


def _sources(value, where: str, card_id: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(s, str) and s.strip() for s in value):
        raise PrintedNamesError(f"{where}: card '{card_id}': 'sources' must be a list of texts")
    if len(set(value)) < 2 and not any("publisher" in s.lower() for s in value):
        raise PrintedNamesError(f"{where}: card '{card_id}': a printed name needs the publisher's "
                                "list or two sources")
    return tuple(value)


def _name(value, where: str, card_id: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise PrintedNamesError(f"{where}: card '{card_id}': 'name' must be a text of 1 to 80 characters")
    return value.strip()


def read_names_file(path: Path, card_ids: Iterable[str]) -> tuple[str, str | None, dict[str, PrintedName]]:
    """One language's file: (language, publisher, names by card id), validated."""
    where = f"translations/names/{path.name}"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise PrintedNamesError(f"{where}: not valid JSON (line {exc.lineno}): {exc.msg}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("names"), dict):
        raise PrintedNamesError(f"{where}: expected an object with 'names'")
    lang = raw.get("language") or path.stem
    if lang != path.stem:
        raise PrintedNamesError(f"{where}: 'language' {lang!r} is not the file's {path.stem!r}")
    known = set(card_ids)
    names: dict[str, PrintedName] = {}
    for card_id, entry in raw["names"].items():
        if card_id not in known:
            raise PrintedNamesError(f"{where}: card '{card_id}': no catalog card has this id")
        if not isinstance(entry, dict):
            raise PrintedNamesError(f"{where}: card '{card_id}': expected an object")
        also = []
        for other in entry.get("also") or ():
            if not isinstance(other, dict):
                raise PrintedNamesError(f"{where}: card '{card_id}': 'also' holds objects")
            _sources(other.get("sources"), where, card_id)
            also.append(_name(other.get("name"), where, card_id))
        names[card_id] = PrintedName(_name(entry.get("name"), where, card_id),
                                     _sources(entry.get("sources"), where, card_id), tuple(also))
    publisher = raw.get("publisher")
    return lang, publisher if isinstance(publisher, str) else None, names


def load_printed_names(card_dir: Path, card_ids: Iterable[str]) -> PrintedNames:
    """Every ``<card_dir>/translations/names/*.json``; none there: no printed names."""
    card_ids = list(card_ids)
    out = PrintedNames()
    folder = card_dir / "translations" / "names"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        lang, publisher, names = read_names_file(path, card_ids)
        out.by_lang[lang] = names
        out.publishers[lang] = publisher
    return out
