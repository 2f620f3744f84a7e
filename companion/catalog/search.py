"""Fuzzy card-name search: forgiving of typos and partial words, fast enough to run per key press.

Each card's names (printed name plus ``aka``) are normalized once into an ``Entry``. A query is
scored against every entry that passes the set/kind filters with rapidfuzz:

- whole-string similarity (``WRatio``, which itself mixes token and partial ratios);
- a per-word score: each query word against its best card-name word, where a word that starts
  a name word counts in full ("drool" -> "drooling") and otherwise the edit-distance ratio
  counts ("plutonim" -> "plutonium"); query words are averaged;
- boosts for a name that starts with the query, or contains it as a substring;
- the card's kind in words ("go up a level", "curse"), weighted down so names come first.

The best-scoring name of a card is its score; cards under ``MIN_SCORE`` are dropped.

Names are compared in any script: accents are dropped ("Niziołek" and "niziolek" meet, "é" is
"e"), case is folded, and Cyrillic stays Cyrillic ("Эльф" is a query, not nothing). A race's or
class's card is also found by its name in every language the game is translated into (the
rulebooks' terms, from the translation catalogs ``companion/translations``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from babel.support import Translations
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

MIN_SCORE = 72.0
# Set by the server (``gevent.sleep``): called every ``PAUSE_EVERY`` entries scored, so a search
# of a game full of house cards lets the event loop's other requests go on (engine.allowed too).
pause = None
PAUSE_EVERY = 16
MAX_QUERY = 100  # characters of a normalized query that are looked at
MAX_QUERY_WORDS = 4  # distinct words of a query that are scored (a name is a few words)
# Names of one house card that are scored: its name and its first aliases (a table's own card
# may carry ten; a search looks at the first few, so a game full of them stays cheap to search).
MAX_HOUSE_NAMES = 4
# Characters of the raw query normalized at all: NFKD may make one character 18 letters
# (U+FDFA), so the query is cut again once normalized.
MAX_RAW_QUERY = 2 * MAX_QUERY
_WORD = re.compile(r"[^\W_]+")
TRANSLATIONS_DIR = Path(__file__).resolve().parents[1] / "translations"
NAMED_IN_EVERY_LANGUAGE = frozenset({"race", "class"})  # their names are rule terms


def normalize_text(text: str) -> str:
    """Case folded, accents dropped, punctuation dropped, words separated by single spaces;
    letters of any script are kept (a Cyrillic query is a query)."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    text = text.replace("&", " and ").replace("'", "").replace("\u2019", "").replace(",", "")
    return " ".join(_WORD.findall(text))


@lru_cache(maxsize=1)
def _catalogs() -> tuple:
    """Every compiled translation catalog of the game (read once)."""
    found = []
    for mo in sorted(TRANSLATIONS_DIR.glob("*/LC_MESSAGES/messages.mo")):
        with mo.open("rb") as f:
            found.append(Translations(f))
    return tuple(found)


@lru_cache(maxsize=512)
def names_in_languages(name: str) -> tuple[str, ...]:
    """A race's or class's name as each translated language says it (other than ``name``)."""
    out = []
    for catalog in _catalogs():
        said = catalog.gettext(name)
        if said and said != name and said not in out:
            out.append(said)
    return tuple(out)


@dataclass(frozen=True)
class _Name:
    text: str
    words: tuple[str, ...]
    joined: str  # without spaces: "3872 orcs" -> "3872orcs"


@lru_cache(maxsize=8192)
def _name(raw: str) -> _Name | None:
    text = normalize_text(raw)
    return _Name(text, tuple(text.split()), text.replace(" ", "")) if text else None


@dataclass
class Entry:
    card: dict
    set: str
    kind: str
    order: tuple
    names: list[_Name] = field(default_factory=list)
    kind_names: tuple[_Name, ...] = ()  # the kind's (and an item's slot's) words, every language


# What a player may type for a kind ("go up", "curse") or an item's slot ("armor"), in English
# and, through the game's translation catalogs, in every language the app speaks ("Fluch",
# "проклятие", "malédiction", "zbroja"): matches rank below matches of names.
KIND_WORDS = {
    "monster": "monster", "curse": "curse", "enhancer": "monster enhancer", "item": "item",
    "one-shot": "one shot", "race": "race", "class": "class", "half-breed": "half breed",
    "super-munchkin": "super munchkin", "ally": "ally", "go-up-a-level": "go up a level",
}
# The msgids the pages show for a kind or slot (web.words.TERM_WORDS), looked up in every catalog.
KIND_MSGIDS = {
    "monster": ("monster",), "curse": ("curse",), "enhancer": ("enhancer",), "item": ("item",),
    "one-shot": ("one-shot",), "race": ("race",), "class": ("class",),
    "half-breed": ("half-breed",), "super-munchkin": ("super munchkin",), "ally": ("ally",),
    "go-up-a-level": ("go up a level",),
}
SLOT_MSGIDS = {"headgear": ("headgear",), "armor": ("armor",), "footgear": ("footgear",),
               "1-hand": ("1 hand",), "2-hands": ("2 hands",)}
KIND_WEIGHT = 0.7
KIND_CAP = 80.0
KIND_CLOSE = 85.0


@lru_cache(maxsize=64)
def _type_names(english: str, msgids: tuple[str, ...]) -> tuple[_Name, ...]:
    raw = [english, *msgids]
    for msgid in msgids:
        raw += names_in_languages(msgid)
    out: list[_Name] = []
    for text in raw:
        name = _name(text)
        if name is not None and name not in out:
            out.append(name)
    return tuple(out)


def make_entry(card: dict, order: tuple, printed: Iterable[str] = ()) -> Entry:
    """``printed``: the card's names as printed in the other languages' editions."""
    entry = Entry(card=card, set=card.get("set", ""), kind=card.get("kind", ""), order=order)
    raw_names = [card.get("name", ""), *card.get("aka", ()), *printed]
    if entry.set == "house":
        raw_names = raw_names[:MAX_HOUSE_NAMES]
    if entry.kind in NAMED_IN_EVERY_LANGUAGE and isinstance(card.get("name"), str):
        raw_names += names_in_languages(card["name"])
    for raw in raw_names:
        name = _name(raw) if isinstance(raw, str) else None
        if name is not None and name not in entry.names:
            entry.names.append(name)
    words = KIND_WORDS.get(entry.kind)
    if words:
        entry.kind_names = _type_names(words, KIND_MSGIDS.get(entry.kind, ()))
    slot = card.get("slot")
    if entry.kind == "item" and isinstance(slot, str) and slot in SLOT_MSGIDS:
        entry.kind_names += _type_names(slot, SLOT_MSGIDS[slot])
    return entry


def _pair_score(q: str, w: str) -> float:
    """How well query word ``q`` matches name word ``w`` (0-100)."""
    if w == q:
        return 100.0
    if len(q) >= 2 and w.startswith(q):
        return 96.0
    if len(q) >= 4 and q.startswith(w) and len(w) >= 3:
        return 80.0
    s = Levenshtein.normalized_similarity(q, w) * 100.0
    if len(q) >= 4 and len(w) > len(q):
        # a typo in a word still being typed: "plutonim" vs the start of "plutonium"
        s = max(s, Levenshtein.normalized_similarity(q, w[: len(q) + 1]) * 97.0)
    return s


class _Query:
    """A normalized query with per-query caches (name words repeat across cards)."""

    def __init__(self, text: str):
        self.text = text
        self.words = tuple(text.split())
        self._pairs: dict[tuple[str, str], float] = {}
        self._names: dict[_Name, float] = {}

    def word_score(self, q: str, words: tuple[str, ...]) -> float:
        best = 0.0
        pairs = self._pairs
        for w in words:
            key = (q, w)
            s = pairs.get(key)
            if s is None:
                s = pairs[key] = _pair_score(q, w)
            if s > best:
                best = s
                if s >= 100.0:
                    break
        return best

    def name_score(self, name: _Name) -> float:
        s = self._names.get(name)
        if s is None:
            s = self._names[name] = score_name(self, name)
        return s


def _whole_score(a: str, b: str) -> float:
    """rapidfuzz's WRatio without its partial token-set part, which scores any two names that
    share one word as a full match: with names in nine languages, "a", "de" and "la" are in
    many of them ("go up a level" is no "botas de chutar a bunda")."""
    score = max(fuzz.ratio(a, b), fuzz.token_sort_ratio(a, b) * 0.95,
                fuzz.token_set_ratio(a, b) * 0.95)
    short, long_ = sorted((len(a), len(b)))
    if short and long_ / short >= 1.5:
        score = max(score, fuzz.partial_ratio(a, b) * 0.9,
                    fuzz.partial_token_sort_ratio(a, b) * 0.9 * 0.95)
    return score


def score_name(query: _Query, name: _Name) -> float:
    text = query.text
    if text == name.text:
        return 150.0
    whole = _whole_score(text, name.text)
    qwords = query.words
    words = sum(query.word_score(q, name.words) for q in qwords) / len(qwords)
    score = max(whole, words)
    if name.text.startswith(text):
        score += 25.0
    elif text in name.text:
        score += 15.0
    elif text.replace(" ", "") in name.joined:
        score += 10.0
    # shorter names that match equally well come first
    if len(name.words) > len(qwords):
        score -= min(len(name.words) - len(qwords), 6) * 0.5
    return score


def score_entry(query: _Query, entry: Entry) -> float:
    best = max((query.name_score(n) for n in entry.names), default=0.0)
    if entry.kind_names and best < KIND_CAP:
        kind = max(query.name_score(n) for n in entry.kind_names)
        # A kind word a letter off ("проклятия", "Flüche") still lists the kind.
        best = max(best, KIND_CAP if kind >= KIND_CLOSE else kind * KIND_WEIGHT)
    return best


def bounded_query(q: str | None) -> str:
    """The query as it is scored: normalized, then cut to ``MAX_QUERY`` characters and its
    first ``MAX_QUERY_WORDS`` distinct words, so no query costs more than a short one."""
    raw = (q or "")[:MAX_RAW_QUERY]
    if len(q or "") > MAX_RAW_QUERY and len(raw.split()) > 1:
        raw = raw.rsplit(None, 1)[0]  # the word the cut went through is left out
    kept: list[str] = []
    for word in dict.fromkeys(normalize_text(raw).split()):
        if len(kept) == MAX_QUERY_WORDS or len(" ".join([*kept, word])) > MAX_QUERY:
            break
        kept.append(word)
    if not kept and q:  # one word longer than the whole budget: its beginning
        kept = normalize_text(q[:MAX_RAW_QUERY])[:MAX_QUERY].split()[:1]
    return " ".join(kept)


def search(entries: list[Entry], q: str | None, *, set: str | None = None,
           kind: str | None = None, limit: int | None = 50) -> list[Entry]:
    """Entries best match first (no query: every entry passing the filters, in entry order)."""
    if limit is not None and limit <= 0:
        return []
    pool = [e for e in entries
            if (set is None or e.set == set) and (kind is None or e.kind == kind)]
    text = bounded_query(q)
    if not text:
        pool.sort(key=lambda e: e.order)
        return pool[:limit] if limit is not None else pool
    query = _Query(text)
    scored = []
    for i, e in enumerate(pool):
        if pause is not None and i % PAUSE_EVERY == PAUSE_EVERY - 1:
            pause()  # a game with hundreds of house cards: the event loop's other requests go on
        s = score_entry(query, e)
        if s >= MIN_SCORE:
            scored.append((-s, e.order, e))
    scored.sort(key=lambda t: (t[0], t[1]))
    out = [e for _, _, e in scored]
    return out[:limit] if limit is not None else out
