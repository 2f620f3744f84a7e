"""The engine says things as data; words are made at read time, in the reader's language.

Everything a player reads that the engine decides (a history line, why a rule said no, why an
item does not count, a bribe's reason) leaves the engine as a **said**: a JSON object
``{"said": MSGID, **params}``. ``MSGID`` is the English sentence with ``%(name)s``
placeholders; it is the gettext key, marked with ``N_`` so ``pybabel extract`` finds it.
Params are plain values, card names (facts, never translated), other saids, or lists of saids.

An **event** is what an accepted action did: ``{"kind": KIND, **params}``. Each kind's sentence
is registered once, next to the reducer that emits it (``EVENT_WORDS``); composite events put
their optional parts in ``parts``, a list of saids.

``render(value, gettext)`` turns any of these into text with the given translation function;
the web layer passes flask-babel's ``gettext`` (the asker's language), tests pass ``english``.
Events written before this format carry their English ``text`` and render as that.

A said or event whose words must agree with a player (French "morte", Polish "dodała",
Russian "погибла") carries that player's ``sex`` ("female"/"male") among its params; given a
``pgettext`` (and ``npgettext`` for counted words), ``render`` asks for the translation in that
context, and the caller falls back to the plain translation where the catalog has none (the web
layer: ``companion.web.words``; the gendered msgids are listed in ``companion.web.gendered``).
"""

from __future__ import annotations

from typing import Any, Callable

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]
Pgettext = Callable[[str, str], str]  # (context, msgid)
Npgettext = Callable[[str, str, str, int], str]  # (context, singular, plural, n)

# The contexts a said's ``sex`` param picks (the players' sexes, ``state.SEXES``).
SEX_CONTEXTS = frozenset({"female", "male"})

EVENT_WORDS: dict[str, str] = {}
# Kinds that keep a count straight rather than tell of play (a hand counted by hand): the
# history keeps them and undo takes them back, but the game's log (its latest lines, on the
# phones and the table screen) shows none, so tapping a count up does not flood it.
OFF_THE_LOG: set[str] = set()


def N_(msgid: str) -> str:
    """Marks an English message for extraction; the engine stores it untranslated."""
    return msgid


def said(msgid: str, **params: Any) -> dict:
    return {"said": msgid, **params}


def said_plural(singular: str, plural: str, n: int, **params: Any) -> dict:
    """A said whose words depend on a count ``n`` (``%(n)s`` in both forms); languages with
    several plural forms (Russian, Polish, Ukrainian) choose theirs through ngettext.

    Extraction knows this function as a plural keyword (``pybabel extract -k said_plural:1,2``,
    see README), so the two literals become one plural entry of the catalogs: never wrap
    them in ``N_``."""
    return {"said": singular, "plural": plural, "n": n, **params}


def event_words(kind: str, msgid: str, *, log: bool = True) -> str:
    """Register the sentence of an event kind (once, where the reducer is); ``log=False``: its
    events write no line of the game's log (``OFF_THE_LOG``)."""
    if EVENT_WORDS.get(kind, msgid) != msgid:
        raise ValueError(f"event kind {kind!r} already has words")
    EVENT_WORDS[kind] = msgid
    if not log:
        OFF_THE_LOG.add(kind)
    return kind


def in_log(happened: dict) -> bool:
    """Whether an event writes a line of the game's log (the store asks). An undo is as quiet
    as the change it takes back: an undone correction is another correction."""
    if happened.get("kind") == "undo" and isinstance(happened.get("undone"), dict):
        return in_log(happened["undone"])
    return happened.get("kind") not in OFF_THE_LOG


def card_text(card: dict, field: str, english_text: str) -> dict:
    """A card's own text inside a said (its Bad Stuff, say): not words of ours, so no msgid.
    It renders as the English text; the web layer shows a catalog card's translation instead
    where there is one (``companion.web.words.text``)."""
    return {"card_text": card.get("id"), "field": field, "text": english_text}


def event(kind: str, *parts: dict | None, **params: Any) -> dict:
    """An event of a registered kind; ``parts`` are optional saids that follow its sentence."""
    if kind not in EVENT_WORDS:
        raise KeyError(f"event kind {kind!r} has no words: register it with event_words")
    out = {"kind": kind, **params}
    kept = [p for p in parts if p]
    if kept:
        out["parts"] = kept
    return out


def english(msgid: str) -> str:
    return msgid


def english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def render(value: Any, gettext: Gettext = english, ngettext: Ngettext = english_plural,
           pgettext: Pgettext | None = None, npgettext: Npgettext | None = None) -> str:
    """Text for a said, an event, a list of them, or a plain value, in ``gettext``'s language;
    with ``pgettext``/``npgettext``, a said or event with a ``sex`` param is looked up in that
    context (the functions fall back to the plain translation themselves)."""
    words = (gettext, ngettext, pgettext, npgettext)
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(t for t in (render(v, *words) for v in value) if t)
    if not isinstance(value, dict):
        return str(value)
    if "said" in value:
        template, params = value["said"], value
    elif "kind" in value and value["kind"] in EVENT_WORDS:
        template, params = EVENT_WORDS[value["kind"]], value
    elif "text" in value:  # an event stored before events were data
        return str(value["text"])
    else:
        return str(value.get("kind", ""))
    sex = value.get("sex")  # a said of words may hold a sex in words (card_words): no context
    if not isinstance(sex, str) or sex not in SEX_CONTEXTS:
        sex = None
    if "plural" in value:
        n = int(value.get("n", 0))
        if sex and npgettext is not None:
            translated = npgettext(sex, template, value["plural"], n)
        else:
            translated = ngettext(template, value["plural"], n)
        template = english_plural(template, value["plural"], n)
    elif sex and pgettext is not None:
        translated = pgettext(sex, template)
    else:
        translated = gettext(template)
    text = _fill(translated, params, words)
    if text is None:  # a translation that names a missing parameter: say it in English
        text = _fill(template, params, words) or template
    if "parts" in value and "said" not in value:
        text = "; ".join([text] + [render(p, *words) for p in value["parts"]])
    return text


def _fill(template: str, params: dict, words: tuple) -> str | None:
    values = {k: (render(v, *words) if isinstance(v, (dict, list)) else v)
              for k, v in params.items() if k not in ("said", "kind", "parts", "plural")}
    try:
        return template % values
    except (KeyError, ValueError, TypeError):
        return None
