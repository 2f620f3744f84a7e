"""The rulings and their translations as read from their files: validated once, kept, and
looked up by id. The package (``__init__``) and the arbiter's search (``search.py``) both read
them from here, so neither imports the other to reach them.

Its public names are re-exported by ``companion.rulebase``, which documents the files' format.
"""

from __future__ import annotations

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


@lru_cache(maxsize=1)
def _by_id() -> dict[str, dict]:
    return {r["id"]: r for r in _rulings()}


def _record(rule_id: str) -> dict:
    rec = _by_id().get(rule_id)
    if rec is None:
        raise KeyError(rule_id)
    return rec


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
