"""A card's facts in words: its effects and who may use it, as sentences in the asker's language.

The catalog keeps effects as data (docs/ENGINE.md "Effects": ``stat``, ``value``, ``if``,
``per``, ``drawback``); a card page says them the way a player would ("may carry any number of
Big items", "+6 to its combat strength when a player facing it has the race Dwarf").

Every wording is a row of a table below, keyed by the vocabulary of ``companion.engine.vocab``
and the card schema, so a new stat, condition or requirement without a row is caught by
``tests/test_card_words.py`` (and shows up raw on a page rather than breaking it). Each row has
two voices: ``holder`` for a card a player has (race, class, item, curse, one-shot...) and
``monster`` for a monster or an enhancer, whose conditions look at the players facing it.
Texts go through gettext as saids (``companion.engine.words``), in the asker's language.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Union

from markupsafe import Markup, escape

from companion.catalog import load_catalog
from companion.engine.card_schema import slugify
from companion.engine.words import N_, said, said_plural

from . import words

# A wording: one msgid, or a plural pair chosen through ngettext by the count, written as a
# ``said_plural(singular, plural, 0)`` so extraction makes it one plural entry (the count is
# filled in when it is said); both may use ``%(value)s`` (the signed number, "+2") and
# ``%(n)s`` (the count, "2").
Wording = Union[str, dict]

VOICES = ("holder", "monster")
MONSTER_VOICE_KINDS = frozenset({"monster", "enhancer"})

# A value at or above this for ``big_items`` means "any number" (docs/ENGINE.md: 99 = any).
ANY_NUMBER = 99

EFFECT_WORDS: dict[str, dict[str, Wording]] = {
    "strength": {
        "holder": N_("%(value)s to your combat strength"),
        "monster": N_("%(value)s to its combat strength"),
    },
    "run_away": {
        "holder": N_("%(value)s to your Run Away rolls"),
        "monster": N_("%(value)s to the Run Away rolls of the players facing it"),
    },
    "hand_limit": {
        "holder": said_plural("You may keep %(n)s card in your hand", "You may keep %(n)s cards in your hand", 0),
        "monster": said_plural("The players facing it may keep %(n)s card in hand",
                    "The players facing it may keep %(n)s cards in hand", 0),
    },
    "big_items": {
        "holder": said_plural("You may carry %(n)s Big item", "You may carry %(n)s Big items", 0),
        "monster": said_plural("The players facing it may carry %(n)s Big item",
                    "The players facing it may carry %(n)s Big items", 0),
    },
    "wins_ties": {
        "holder": N_("You win ties in combat"),
        "monster": N_("The players win ties against it"),
    },
    "helper_levels": {
        "holder": N_("When you help another player win a fight, you go up a level for each monster killed"),
        "monster": N_("A player who helps to kill it goes up a level too"),
    },
    "level_only": {
        "holder": N_("Only your level counts in your fights: item bonuses do not"),
        "monster": N_("Only the players' levels count against it: item bonuses do not"),
    },
    "auto_escape": {
        "holder": N_("You escape without a Run Away roll"),
        "monster": N_("The players facing it escape without a Run Away roll"),
    },
    "treasures": {
        "holder": said_plural("%(value)s Treasure for each monster you kill",
                   "%(value)s Treasures for each monster you kill", 0),
        "monster": said_plural("%(value)s Treasure for killing it", "%(value)s Treasures for killing it", 0),
    },
    "levels": {
        "holder": said_plural("%(value)s level for each monster you kill", "%(value)s levels for each monster you kill", 0),
        "monster": said_plural("%(value)s level for killing it", "%(value)s levels for killing it", 0),
    },
    # Monster conditions.
    "no_pursuit": {
        "holder": N_("Monsters do not pursue you while your level is %(n)s or lower"),
        "monster": N_("It does not pursue a player of level %(n)s or lower"),
    },
    "chase_away": {
        "holder": N_("You chase monsters away without a fight"),
        "monster": N_("It is chased away without a fight"),
    },
    "no_escape": {
        "holder": N_("You cannot run away"),
        "monster": N_("The players facing it cannot run away"),
    },
}

# ``big_items`` at ANY_NUMBER or more.
ANY_BIG_ITEMS = {
    "holder": N_("You may carry any number of Big items"),
    "monster": N_("The players facing it may carry any number of Big items"),
}

# ``if``: one clause per key; ``%(name)s`` a race's or class's name, ``%(sex)s`` a sex in words.
CONDITION_WORDS: dict[str, dict[str, str]] = {
    "race": {"holder": N_("if your race is %(name)s"),
             "monster": N_("when a player facing it has the race %(name)s")},
    "class": {"holder": N_("if your class is %(name)s"),
              "monster": N_("when a player facing it has the class %(name)s")},
    "sex": {"holder": N_("if your character is %(sex)s"),
            "monster": N_("when a player facing it is %(sex)s")},
    "tag": {"holder": N_("when a monster in the fight is %(tag)s"),
            "monster": N_("if it is %(tag)s")},
    "not_race": {"holder": N_("unless your race is %(name)s"),
                 "monster": N_("unless a player facing it has the race %(name)s")},
    "not_class": {"holder": N_("unless your class is %(name)s"),
                  "monster": N_("unless a player facing it has the class %(name)s")},
    "not_sex": {"holder": N_("unless your character is %(sex)s"),
                "monster": N_("unless a player facing it is %(sex)s")},
}
# ``if.role``: the clause depends on the role itself.
ROLE_WORDS: dict[str, dict[str, str]] = {
    "fighting": {"holder": N_("while you fight a monster"), "monster": N_("against the player fighting it")},
    "helping": {"holder": N_("while you help someone fight"), "monster": N_("against a player helping to fight it")},
    "helped": {"holder": N_("while someone helps you fight"), "monster": N_("against a fighter who has help")},
}
PER_WORDS: dict[str, dict[str, str]] = {
    "empty_hand": {"holder": N_("for each of your empty hands"),
                   "monster": N_("for each empty hand of the players facing it")},
}
DRAWBACK = N_("Drawback: %(effect)s")

# ``requires``: who may use an item.
REQUIRES_WORDS: dict[str, str] = {
    "race": N_("Only for a character whose race is %(name)s"),
    "class": N_("Only for a character whose class is %(name)s"),
    "sex": N_("Only for a %(sex)s character"),
    "not_race": N_("Not for a character whose race is %(name)s"),
    "not_class": N_("Not for a character whose class is %(name)s"),
    "not_sex": N_("Not for a %(sex)s character"),
}

# Words for values that are words themselves.
SEX_WORDS = {"male": N_("male"), "female": N_("female")}
TAG_WORDS = {"undead": N_("Undead"), "dragon": N_("a Dragon"), "plant": N_("a Plant")}
NAMES_WITHOUT_CARD = {"human": N_("Human")}  # the race of a character without a race card

def card_name(card: Any) -> Markup:
    """The template filter: a card's name as the reader should see it: the name printed on it
    in the reader's language, a race's or class's rulebook term, else its printed English name
    marked ``lang="en"``; a house or inline card (the table's own words) as written."""
    if not isinstance(card, dict):
        return escape(card or "")
    return words.printed_name_html(card)


class MissingWording(KeyError):
    """A stat, condition, role, per or requirement with no row in the tables."""


def voice_of(card: dict) -> str:
    return "monster" if card.get("kind") in MONSTER_VOICE_KINDS else "holder"


def _signed(value: int) -> str:
    return f"{value:+d}"


def _name(kind: str, slug: Any, set_: str | None) -> Any:
    """A race's or class's printed name (a fact, never translated) from its slug."""
    if isinstance(slug, list):
        return ", ".join(str(words.text(_name(kind, s, set_))) for s in slug)
    slug = str(slug)
    if slug in NAMES_WITHOUT_CARD:
        return said(NAMES_WITHOUT_CARD[slug])
    named = [c for c in load_catalog().search(None, kind=kind, limit=None)
             if slugify(c["name"]) == slug or c["id"].endswith("/" + slug)]
    named.sort(key=lambda c: c.get("set") != set_)  # the card's own set first
    return words.localized_name(named[0]["name"]) if named else slug.replace("-", " ").title()


def _value_words(key: str, value: Any, set_: str | None) -> dict:
    if key in ("race", "not_race"):
        return {"name": _name("race", value, set_)}
    if key in ("class", "not_class"):
        return {"name": _name("class", value, set_)}
    if key in ("sex", "not_sex"):
        return {"sex": said(SEX_WORDS[value]) if value in SEX_WORDS else value}
    if key == "tag":
        return {"tag": said(TAG_WORDS[value]) if value in TAG_WORDS else value}
    return {}


def _lookup(table: dict, key: str, what: str) -> Any:
    try:
        return table[key]
    except KeyError:
        raise MissingWording(f"no wording for the {what} {key!r}") from None


def effect_said(effect: dict, voice: str, set_: str | None = None) -> list[dict]:
    """The parts of one effect's sentence as saids: what it does, per what, when."""
    stat, value = effect["stat"], effect.get("value")
    value = 1 if value is None else int(value)
    if stat == "big_items" and value >= ANY_NUMBER:
        main = said(ANY_BIG_ITEMS[voice])
    else:
        wording = _lookup(EFFECT_WORDS, stat, "effect stat")[voice]
        if isinstance(wording, dict):
            # Not written with literal keys: extraction would take them for a plural msgid.
            main = {**wording, "n": abs(value), "value": _signed(value)}
        else:
            main = said(wording, value=_signed(value), n=abs(value))
    parts = [main]
    if effect.get("per"):
        parts.append(said(_lookup(PER_WORDS, effect["per"], "per")[voice]))
    for key, cond in (effect.get("if") or {}).items():
        if key == "role":
            parts.append(said(_lookup(ROLE_WORDS, cond, "role")[voice]))
        else:
            parts.append(said(_lookup(CONDITION_WORDS, key, "condition")[voice],
                              **_value_words(key, cond, set_)))
    return parts


def effect_sentence(effect: dict, voice: str, set_: str | None = None) -> str:
    """One effect as a sentence in the asker's language."""
    text = " ".join(words.text(p) for p in effect_said(effect, voice, set_))
    text = text[:1].upper() + text[1:] + "."
    if effect.get("drawback"):
        text = words.text(said(DRAWBACK, effect=text))
    return text


def requirement_sentence(key: str, value: Any, set_: str | None = None) -> str:
    return words.text(said(_lookup(REQUIRES_WORDS, key, "requirement"), **_value_words(key, value, set_))) + "."


def _raw_effect(effect: dict) -> str:
    return f"{effect.get('stat')} {effect.get('value')}"


def effects_in_words(card: dict) -> list[str]:
    """The template filter: each effect of ``card`` as a sentence. A stat without a wording
    shows as its raw data (never a broken page); the tests make sure none is left."""
    voice, set_ = voice_of(card), card.get("set")
    out = []
    for effect in card.get("effects") or ():
        try:
            out.append(effect_sentence(effect, voice, set_))
        except MissingWording:
            out.append(_raw_effect(effect))
    return out


def requirements_in_words(card: dict) -> list[str]:
    out = []
    for key, value in (card.get("requires") or {}).items():
        try:
            out.append(requirement_sentence(key, value, card.get("set")))
        except MissingWording:
            out.append(f"{key}: {value}")
    return out
