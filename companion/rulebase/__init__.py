"""The rules base: rulings in our own words, with citations per edition, and the arbiter search.

Each ``rulings/<topic>.json`` file holds a JSON list of ruling records (see docs/ENGINE.md,
"Rule ids")::

    {"id", "topic", "question", "answer", "reasoning", "keywords", "editions",
     "citations": [{"edition", "source"}], "differs",
     "official"?: {"answer", "source", "editions"?}}

``official`` (optional) is the publisher's later ruling (FAQ, rule updates) where it differs from
what a box's rulebook prints: its answer, its source (``"Steve Jackson Games, ..."``) and the
editions it covers (all five when omitted). A table that chose ``"official_updates"`` sees that
answer first; every other table sees the printed one first (``ruling_for_edition``).
A file's records have the file's name as topic (``sheet_rules.json`` may also say
``sheet-rules``); every ``*.json`` file in the folder is read.

The ids are the rule ids the engine's refusals carry. ``answer`` is the sentence a refusal shows
on a phone; ``citation_for(ruling, edition)`` is the refusal's citation for the game's edition.

Public API::

    all_rulings() -> list[dict]
    get_ruling(rule_id) -> dict | None
    citation_for(ruling_or_id, edition) -> str
    explain(rule_id, edition, lang="en", official_updates=False) -> (answer, citation)
        # KeyError for an unknown id; the official answer and source for such a table
    official_for(ruling_or_id, edition) -> dict | None    # the official part given for edition
    applies(ruling_or_id, edition, official_updates=False) -> bool
    topics() -> list[str]
    rulings_for_topic(topic) -> list[dict]
    ruling_for_edition(ruling_or_id, edition, official_updates=False) -> dict
        # copy + "citation", "applies", "answers" (printed and official, in the table's order)
    search(q, edition=None, limit=10, official_updates=False, lang=None) -> list[dict]
        # best first; lang: the reader's language, searched with English
    localized(ruling, lang) -> dict                        # copy + "lang", "fallback"
    missing_translations(lang) -> list[str]               # rule ids without a text in lang

Translations live in ``translations/<lang>.json``: an object mapping a rule id to
``{"question", "answer", "reasoning", "keywords"?, "differs"?, "official"?}`` in that language
(``differs`` exactly when the English ruling has one, ``official`` (the official answer) exactly
when the English ruling has an official part; ``keywords`` are what players of that language type,
used by the search). An unknown id or a malformed entry raises ``RulebaseError``; a missing id
is allowed (that ruling falls back to English, marked ``"fallback": True``).

The files are read and validated once (cached); a malformed record raises ``RulebaseError``
naming the file and the record. Callers get copies, so they may change what they receive.
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache

# The rulings as read from their files live in records.py, which search.py reads too, so the
# package imports the search and not the other way round.
from .records import (BOOKS, EDITION_IDS, OFFICIAL_PUBLISHER, RULINGS_DIR, SOURCE_LANG, TRANSLATIONS_DIR,
                      _TEXT_KEYS, RulebaseError, _by_id, _record, _rulings, _translations, load_rulings,
                      load_translations, normalize_lang, official_for, validate_record)
# ``search`` is the function from here on; the module is ``companion.rulebase.search`` to imports.
from .search import _index, search

# how the "not in this rulebook" note names each book
_BOOK_NOTE = {
    "classic": "the classic Munchkin rulebook",
    "oz": "Munchkin Oz's rulebook",
    "spell-skool": "Munchkin Spell Skool's rulebook",
    "russia": "Munchkin Russia's rulebook",
    "tails": "Munchkin Tails's rulebook",
}

#: Sections cited for an edition that our plain-text copy of its rulebook (shared/seeds) lacks.
#: Our Munchkin Russia text has pages 2-4 only: its Combat, Items and Turn Phases sections send
#: the reader to p. 5 for Asking For Help, Running Away and Curses, and the setup, death and
#: start-of-game pages are missing. Those citations name the section the full rulebook has,
#: following the layout of the other newer rulebooks; they are the ones to re-check against a
#: complete copy. (tests/test_rulebase.py checks every other cited section against the text.)
UNSEEN_SECTIONS: dict[str, frozenset[str]] = {
    "russia": frozenset({"Asking For Help", "Running Away", "Curses", "Death", "Setup",
                         "Character Creation", "Starting and Finishing the Game"}),
}


def missing_translations(lang: str) -> list[str]:
    """The rule ids (in file order) that have no text in ``lang`` yet."""
    lang = normalize_lang(lang)
    if lang == SOURCE_LANG:
        return []
    have = _translations(lang)
    return [r["id"] for r in _rulings() if r["id"] not in have]


def localized(ruling: dict, lang) -> dict:
    """A copy of ``ruling`` with its texts in ``lang`` when a translation exists.

    Adds ``"lang"``: the language of the texts actually returned, and ``"fallback"``: True when
    ``lang`` was asked for but the ruling is only in English. ``question``, ``answer``,
    ``reasoning``, ``differs``, ``keywords`` and the official answer (also inside ``answers``,
    when ``ruling_for_edition`` added them) are translated; ids, editions and citations
    (rulebook names and sections) stay as they are.
    """
    out = copy.deepcopy(ruling)
    want = normalize_lang(lang)
    entry = _translations(want).get(ruling.get("id")) if want != SOURCE_LANG else None
    if entry is None:
        out["lang"] = SOURCE_LANG
        out["fallback"] = want != SOURCE_LANG
        return out
    for key in _TEXT_KEYS + ("keywords",):
        if key in entry:
            out[key] = copy.deepcopy(entry[key])
    if out.get("differs") is not None and "differs" in entry:
        out["differs"] = entry["differs"]
    if "official" in out and "official" in entry:
        out["official"]["answer"] = entry["official"]
    for shown in out.get("answers", ()):
        if shown["kind"] == "printed":
            shown["answer"] = out["answer"]
        elif "official" in entry:
            shown["answer"] = entry["official"]
    out["lang"] = want
    out["fallback"] = False
    return out


def reload() -> None:
    """Forget the cached rulings (after editing the files in a running process)."""
    _rulings.cache_clear()
    _by_id.cache_clear()
    _translations.cache_clear()
    _index.cache_clear()


def all_rulings() -> list[dict]:
    """Every ruling, in file order (topic files alphabetically)."""
    return copy.deepcopy(list(_rulings()))


def get_ruling(rule_id: str) -> dict | None:
    rec = _by_id().get(rule_id)
    return copy.deepcopy(rec) if rec is not None else None


def topics() -> list[str]:
    return sorted({r["topic"] for r in _rulings()})


def rulings_for_topic(topic: str) -> list[dict]:
    return [copy.deepcopy(r) for r in _rulings() if r["topic"] == topic]


def citation_for(ruling: dict | str, edition: str | None) -> str:
    """The citation of ``ruling`` in ``edition``'s rulebook.

    When that rulebook does not have the rule, a note says so and gives another edition's
    citation: "Not in Munchkin Oz's rulebook; Munchkin (classic rules), Combat".
    With ``edition`` None, the first citation.
    """
    if isinstance(ruling, str):
        rec = _by_id().get(ruling)
        if rec is None:
            raise KeyError(ruling)
        ruling = rec
    cites = ruling.get("citations") or []
    for c in cites:
        if c["edition"] == edition:
            return c["source"]
    if not cites:
        return ""
    if edition is None:
        return cites[0]["source"]
    book = _BOOK_NOTE.get(edition, f"the {edition} rulebook")
    return f"Not in {book}; {cites[0]['source']}"


@lru_cache(maxsize=1)
def _citation_words() -> dict:
    folder = TRANSLATIONS_DIR / "citations"
    return {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in folder.glob("*.json")}


_NOT_IN = re.compile(r"^Not in (.+?); (.*)$")
_PAGE = re.compile(r"\(p\. (\d+)\)")


def localized_citation(text: str | None, lang) -> str:
    """A citation as a reader of ``lang`` reads it: the rulebook's name and each section as
    that language's edition titles them (``translations/citations/<lang>.json``, where a source gives
    them, else our translation), page marks in the language's form. Parts it does not know stay
    as they are; English is returned unchanged."""
    want = normalize_lang(lang)
    words = _citation_words().get(want)
    if not text or words is None:
        return text or ""
    note = _NOT_IN.match(text)
    if note:
        edition = next((e for e, phrase in _BOOK_NOTE.items() if phrase == note.group(1)), None)
        book = words["books"].get(BOOKS.get(edition, ""), BOOKS.get(edition, note.group(1)))
        return words["not_in"] % {"book": book} + "; " + localized_citation(note.group(2), want)
    book, sep, rest = text.partition(", ")
    if sep and book in words["books"]:
        head, sections = words["books"][book] + ", ", rest
    else:
        head, sections = "", text
    parts = [words["sections"].get(part, part) for part in sections.split("; ")]
    return _PAGE.sub(lambda m: f"({words['page']} {m.group(1)})", head + "; ".join(parts))


def applies(ruling: dict | str, edition: str, official_updates: bool = False) -> bool:
    """Whether the ruling holds at a table of ``edition``: its rulebook states it, or the table
    follows the official rulings and the ruling's official part covers that edition."""
    if isinstance(ruling, str):
        ruling = _record(ruling)
    if edition in ruling["editions"]:
        return True
    return bool(official_updates) and official_for(ruling, edition) is not None


def ruling_for_edition(ruling: dict | str, edition: str | None,
                       official_updates: bool = False) -> dict:
    """A copy of the ruling with ``citation`` (for ``edition``), ``applies`` and ``answers``.

    ``answers`` lists what to show, in order: the printed answer (``kind`` "printed", its
    ``source`` the citation) and, when the ruling has an official part for the edition, the
    official one (``kind`` "official", its ``source`` the publisher's document). A table that
    follows the official rulings (``official_updates``) gets the official answer first.
    """
    if isinstance(ruling, str):
        ruling = _record(ruling)
    out = copy.deepcopy(ruling)
    out["citation"] = citation_for(ruling, edition)
    out["applies"] = edition is None or applies(ruling, edition, official_updates)
    printed = {"kind": "printed", "answer": ruling["answer"], "source": out["citation"]}
    answers = [printed]
    off = official_for(ruling, edition)
    if off is not None:
        official = {"kind": "official", "answer": off["answer"], "source": off["source"]}
        answers = [official, printed] if official_updates else [printed, official]
    out["answers"] = answers
    out["official_first"] = bool(official_updates) and off is not None
    return out


def explain(rule_id: str, edition: str | None = None, lang: str = SOURCE_LANG,
            official_updates: bool = False) -> tuple[str, str]:
    """(answer sentence, citation for ``edition``) of a rule id; KeyError if unknown.

    The answer is in ``lang`` when the ruling has a translation there, else in English; the
    citation names the rulebook and its section as printed. A table that follows the official
    rulings (``official_updates``) gets the official answer and its source where the ruling has
    one for ``edition``.
    """
    rec = _record(rule_id)
    want = normalize_lang(lang)
    entry = _translations(want).get(rule_id, {}) if want != SOURCE_LANG else {}
    off = official_for(rec, edition) if official_updates else None
    if off is not None:
        return entry.get("official", off["answer"]), off["source"]
    return entry.get("answer", rec["answer"]), citation_for(rec, edition)


__all__ = ["BOOKS", "EDITION_IDS", "OFFICIAL_PUBLISHER", "RULINGS_DIR", "RulebaseError", "SOURCE_LANG",
           "TRANSLATIONS_DIR", "all_rulings", "applies",
           "citation_for", "explain", "get_ruling", "load_rulings", "load_translations",
           "localized", "localized_citation", "missing_translations", "normalize_lang", "official_for", "reload",
           "ruling_for_edition", "rulings_for_topic", "search", "UNSEEN_SECTIONS",
           "topics", "validate_record"]
