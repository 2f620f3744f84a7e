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
from pathlib import Path

RULINGS_DIR = Path(__file__).resolve().parent / "rulings"
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
#: the language the rulings are written in
SOURCE_LANG = "en"

#: edition id -> how citations name its rulebook (the same names as companion.engine.editions)
BOOKS: dict[str, str] = {
    "classic": "Munchkin (classic rules)",
    "oz": "Munchkin Oz",
    "spell-skool": "Munchkin Spell Skool",
    "russia": "Munchkin Russia",
    "tails": "Munchkin Tails",
}
EDITION_IDS: tuple[str, ...] = tuple(BOOKS)

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

_KEYS = ("id", "topic", "question", "answer", "reasoning", "keywords", "editions", "citations",
         "differs")
_OPTIONAL_KEYS = ("official",)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TOPIC = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
#: how an official ruling's source begins: the publisher, then the document and its part
OFFICIAL_PUBLISHER = "Steve Jackson Games"


class RulebaseError(ValueError):
    """A rulings file or record is malformed."""


def _fail(where: str, msg: str) -> None:
    raise RulebaseError(f"{where}: {msg}")


def _nonempty_str(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


def validate_record(rec, where: str = "ruling") -> None:
    """Raise RulebaseError if ``rec`` is not a well-formed ruling record."""
    if not isinstance(rec, dict):
        _fail(where, f"expected an object, got {type(rec).__name__}")
    rid = rec.get("id")
    if not _nonempty_str(rid) or not _SLUG.match(rid):
        _fail(where, f"bad or missing id {rid!r} (lower-case words joined by '-')")
    where = f"{where} (id {rid!r})"
    missing = [k for k in _KEYS if k not in rec]
    if missing:
        _fail(where, f"missing key(s) {', '.join(missing)}")
    extra = sorted(set(rec) - set(_KEYS) - set(_OPTIONAL_KEYS))
    if extra:
        _fail(where, f"unknown key(s) {', '.join(extra)}")
    if not _nonempty_str(rec["topic"]) or not _TOPIC.match(rec["topic"]):
        _fail(where, f"bad topic {rec['topic']!r}")
    for key in ("question", "answer", "reasoning"):
        if not _nonempty_str(rec[key]):
            _fail(where, f"{key} must be a non-empty string")
    if not rec["question"].rstrip().endswith("?"):
        _fail(where, "question must end with '?'")
    kw = rec["keywords"]
    if not isinstance(kw, list) or not kw or not all(_nonempty_str(k) for k in kw):
        _fail(where, "keywords must be a non-empty list of strings")
    eds = rec["editions"]
    if not isinstance(eds, list) or not eds:
        _fail(where, "editions must be a non-empty list")
    for ed in eds:
        if ed not in BOOKS:
            _fail(where, f"unknown edition {ed!r} (known: {', '.join(BOOKS)})")
    if len(set(eds)) != len(eds):
        _fail(where, "editions lists an edition twice")
    cites = rec["citations"]
    if not isinstance(cites, list):
        _fail(where, "citations must be a list")
    seen: set[str] = set()
    for c in cites:
        if not isinstance(c, dict) or set(c) != {"edition", "source"}:
            _fail(where, f"citation {c!r} must be exactly {{'edition', 'source'}}")
        ed, src = c["edition"], c["source"]
        if ed not in eds:
            _fail(where, f"citation for {ed!r}, which is not in editions")
        if ed in seen:
            _fail(where, f"two citations for {ed!r}")
        seen.add(ed)
        if not _nonempty_str(src) or not src.startswith(BOOKS[ed] + ", ") \
                or not src[len(BOOKS[ed]) + 2:].strip():
            _fail(where, f"citation source {src!r} must read '{BOOKS[ed]}, <section>'")
    uncited = [ed for ed in eds if ed not in seen]
    if uncited:
        _fail(where, f"no citation for edition(s) {', '.join(uncited)}")
    if rec["differs"] is not None and not _nonempty_str(rec["differs"]):
        _fail(where, "differs must be null or a non-empty string")
    if "official" in rec:
        _validate_official(rec["official"], where)


def _validate_official(off, where: str) -> None:
    if not isinstance(off, dict) or not {"answer", "source"} <= set(off) \
            or set(off) - {"answer", "source", "editions"}:
        _fail(where, "official must be {'answer', 'source', 'editions'?}")
    if not _nonempty_str(off["answer"]):
        _fail(where, "official answer must be a non-empty string")
    src = off["source"]
    if not _nonempty_str(src) or not src.startswith(OFFICIAL_PUBLISHER + ", ") \
            or not src[len(OFFICIAL_PUBLISHER) + 2:].strip():
        _fail(where, f"official source {src!r} must read '{OFFICIAL_PUBLISHER}, <document>'")
    eds = off.get("editions", list(BOOKS))
    if not isinstance(eds, list) or not eds or any(ed not in BOOKS for ed in eds) \
            or len(set(eds)) != len(eds):
        _fail(where, f"official editions must be a list of distinct editions ({', '.join(BOOKS)})")


def load_rulings(directory: Path | str = RULINGS_DIR) -> list[dict]:
    """Read and validate every ``*.json`` file in ``directory`` (no caching)."""
    directory = Path(directory)
    out: list[dict] = []
    where_of: dict[str, str] = {}
    files = sorted(directory.glob("*.json"))
    if not files:
        raise RulebaseError(f"{directory}: no rulings files")
    for path in files:
        name = f"rulings/{path.name}"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise RulebaseError(f"{name}: not valid JSON ({exc})") from exc
        if not isinstance(data, list):
            _fail(name, "expected a JSON list of ruling records")
        for i, rec in enumerate(data):
            where = f"{name} record {i}"
            validate_record(rec, where)
            if rec["topic"] not in (path.stem, path.stem.replace("_", "-")):
                _fail(f"{where} (id {rec['id']!r})",
                      f"topic {rec['topic']!r} does not match its file {path.name}")
            if rec["id"] in where_of:
                _fail(f"{where} (id {rec['id']!r})", f"duplicate id, also in {where_of[rec['id']]}")
            where_of[rec["id"]] = name
            out.append(rec)
    return out


@lru_cache(maxsize=1)
def _rulings() -> tuple[dict, ...]:
    return tuple(load_rulings())


# ------------------------------------------------------------------ translations

_TEXT_KEYS = ("question", "answer", "reasoning")
_TR_KEYS = frozenset(_TEXT_KEYS + ("keywords", "differs", "official"))
_LANG = re.compile(r"^[a-z]{2,3}$")


def normalize_lang(lang) -> str:
    """"ru", "ru_RU", "ru-RU" or a babel Locale -> "ru"; anything unusable -> "en"."""
    code = str(lang or "").strip().replace("-", "_").split("_")[0].lower()
    return code if _LANG.match(code) else SOURCE_LANG


def load_translations(lang: str, directory: Path | str = TRANSLATIONS_DIR,
                      rulings: list[dict] | tuple[dict, ...] | None = None) -> dict[str, dict]:
    """Read and validate ``<directory>/<lang>.json`` (no caching); {} when there is no file.

    Raises ``RulebaseError`` for an id no ruling has, an unknown key, an empty text, a
    question without "?", or a ``differs`` present/absent where the English one is not.
    """
    path = Path(directory) / f"{lang}.json"
    name = f"translations/{path.name}"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RulebaseError(f"{name}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        _fail(name, "expected a JSON object mapping rule ids to translated texts")
    by_id = {r["id"]: r for r in (rulings if rulings is not None else _rulings())}
    for rid, entry in data.items():
        where = f"{name} (id {rid!r})"
        if rid not in by_id:
            _fail(where, "no ruling has this id")
        if not isinstance(entry, dict):
            _fail(where, f"expected an object, got {type(entry).__name__}")
        missing = [k for k in _TEXT_KEYS if k not in entry]
        if missing:
            _fail(where, f"missing key(s) {', '.join(missing)}")
        extra = sorted(set(entry) - _TR_KEYS)
        if extra:
            _fail(where, f"unknown key(s) {', '.join(extra)}")
        for key in _TEXT_KEYS:
            if not _nonempty_str(entry[key]):
                _fail(where, f"{key} must be a non-empty string")
        if not entry["question"].rstrip().endswith("?"):
            _fail(where, "question must end with '?'")
        if "keywords" in entry:
            kw = entry["keywords"]
            if not isinstance(kw, list) or not kw or not all(_nonempty_str(k) for k in kw):
                _fail(where, "keywords must be a non-empty list of strings")
        has_differs = by_id[rid]["differs"] is not None
        if has_differs and not _nonempty_str(entry.get("differs")):
            _fail(where, "the English ruling has a differs note: translate it too")
        if not has_differs and "differs" in entry:
            _fail(where, "differs given, but the English ruling has none")
        has_official = "official" in by_id[rid]
        if has_official and not _nonempty_str(entry.get("official")):
            _fail(where, "the English ruling has an official answer: translate it too (\"official\")")
        if not has_official and "official" in entry:
            _fail(where, "official given, but the English ruling has none")
    return data


@lru_cache(maxsize=16)
def _translations(lang: str) -> dict[str, dict]:
    if lang == SOURCE_LANG:
        return {}
    return load_translations(lang)


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


@lru_cache(maxsize=1)
def _by_id() -> dict[str, dict]:
    return {r["id"]: r for r in _rulings()}


def reload() -> None:
    """Forget the cached rulings (after editing the files in a running process)."""
    _rulings.cache_clear()
    _by_id.cache_clear()
    _translations.cache_clear()
    _search_mod._index.cache_clear()


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
    folder = Path(__file__).resolve().parent / "translations" / "citations"
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


def official_for(ruling: dict | str, edition: str | None) -> dict | None:
    """The ruling's official part when it covers ``edition`` (any edition when None), else None."""
    if isinstance(ruling, str):
        ruling = _record(ruling)
    off = ruling.get("official")
    if off is None:
        return None
    if edition is not None and edition not in off.get("editions", EDITION_IDS):
        return None
    return off


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


def _record(rule_id: str) -> dict:
    rec = _by_id().get(rule_id)
    if rec is None:
        raise KeyError(rule_id)
    return rec


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


# The submodule is imported here, before the function below is defined: importing
# ``companion.rulebase.search`` binds the package attribute ``search`` to the module, and the
# ``def`` that follows rebinds it to the function (``from companion.rulebase.search import
# ...`` still reaches the module through sys.modules).
from . import search as _search_mod  # noqa: E402


def search(q: str, edition: str | None = None, limit: int = 10,
           official_updates: bool = False, lang=None) -> list[dict]:
    """Rulings that answer the player's question ``q``, best first (see ``search.py``).

    ``lang`` is the reader's language ("de", "pt_BR", a babel Locale): the question is searched
    in that language's translations and in English. Without it, a question mostly in Cyrillic
    is searched in Russian and any other in English.
    """
    return _search_mod.search(q, edition=edition, limit=limit, official_updates=official_updates,
                              lang=lang)


__all__ = ["BOOKS", "EDITION_IDS", "OFFICIAL_PUBLISHER", "RulebaseError", "SOURCE_LANG", "all_rulings", "applies",
           "citation_for", "explain", "get_ruling", "load_rulings", "load_translations",
           "localized", "localized_citation", "missing_translations", "normalize_lang", "official_for", "reload",
           "ruling_for_edition", "rulings_for_topic", "search", "UNSEEN_SECTIONS",
           "topics", "validate_record"]
