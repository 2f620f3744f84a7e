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
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

MIN_SCORE = 72.0
_WORD = re.compile(r"[a-z0-9]+")


def normalize_text(text: str) -> str:
    """Lower case, ASCII, punctuation dropped, words separated by single spaces."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = text.replace("&", " and ").replace("'", "").replace(",", "")
    return " ".join(_WORD.findall(text))


@dataclass
class _Name:
    text: str
    words: tuple[str, ...]
    joined: str  # without spaces: "3872 orcs" -> "3872orcs"


@dataclass
class Entry:
    card: dict
    set: str
    kind: str
    order: tuple
    names: list[_Name] = field(default_factory=list)
    kind_name: _Name | None = None


# What a player may type for a kind ("go up", "curse"): matches rank below matches of names.
KIND_WORDS = {
    "monster": "monster", "curse": "curse", "enhancer": "monster enhancer", "item": "item",
    "one-shot": "one shot", "race": "race", "class": "class", "half-breed": "half breed",
    "super-munchkin": "super munchkin", "ally": "ally", "go-up-a-level": "go up a level",
}
KIND_WEIGHT = 0.7
KIND_CAP = 80.0


def make_entry(card: dict, order: tuple) -> Entry:
    entry = Entry(card=card, set=card.get("set", ""), kind=card.get("kind", ""), order=order)
    for name in [card.get("name", ""), *card.get("aka", ())]:
        text = normalize_text(name)
        if text:
            entry.names.append(_Name(text, tuple(text.split()), text.replace(" ", "")))
    words = KIND_WORDS.get(entry.kind)
    if words:
        entry.kind_name = _Name(words, tuple(words.split()), words.replace(" ", ""))
    return entry


def _word_score(q: str, words: tuple[str, ...]) -> float:
    best = 0.0
    for w in words:
        if w == q:
            return 100.0
        if len(q) >= 2 and w.startswith(q):
            s = 96.0
        elif len(q) >= 4 and q.startswith(w) and len(w) >= 3:
            s = 80.0
        else:
            s = Levenshtein.normalized_similarity(q, w) * 100.0
            if len(q) >= 4 and len(w) > len(q):
                # a typo in a word still being typed: "plutonim" vs the start of "plutonium"
                s = max(s, Levenshtein.normalized_similarity(q, w[: len(q) + 1]) * 97.0)
        if s > best:
            best = s
    return best


def score_name(query: str, qwords: tuple[str, ...], name: _Name) -> float:
    if query == name.text:
        return 150.0
    whole = fuzz.WRatio(query, name.text)
    words = sum(_word_score(q, name.words) for q in qwords) / len(qwords)
    score = max(whole, words)
    # the query's words should cover the name: "slime" alone ranks below "drooling slime"
    if name.text.startswith(query):
        score += 25.0
    elif query in name.text:
        score += 15.0
    elif query.replace(" ", "") in name.joined:
        score += 10.0
    # shorter names that match equally well come first
    score -= min(len(name.words) - len(qwords), 6) * 0.5 if len(name.words) > len(qwords) else 0
    return score


def score_entry(query: str, qwords: tuple[str, ...], entry: Entry) -> float:
    best = max((score_name(query, qwords, n) for n in entry.names), default=0.0)
    if entry.kind_name is not None and best < KIND_CAP:
        best = max(best, min(score_name(query, qwords, entry.kind_name) * KIND_WEIGHT, KIND_CAP))
    return best


def search(entries: list[Entry], q: str | None, *, set: str | None = None,
           kind: str | None = None, limit: int = 50) -> list[Entry]:
    """Entries best match first (no query: every entry passing the filters, in entry order)."""
    pool = [e for e in entries
            if (set is None or e.set == set) and (kind is None or e.kind == kind)]
    query = normalize_text(q or "")
    if limit is not None and limit <= 0:
        return []
    if not query:
        pool.sort(key=lambda e: e.order)
        return pool[:limit] if limit is not None else pool
    qwords = tuple(query.split())
    scored = []
    for e in pool:
        s = score_entry(query, qwords, e)
        if s >= MIN_SCORE:
            scored.append((-s, e.order, e))
    scored.sort(key=lambda t: (t[0], t[1]))
    out = [e for _, _, e in scored]
    return out[:limit] if limit is not None else out
