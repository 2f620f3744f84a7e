"""The card schema of docs/ENGINE.md ("Cards" and "Effects") as pydantic v2 models.

A card's facts are said in the engine's words (``vocab``), so the schema lives beside them:
the action models type inline cards with it, and the catalog checks its files against it.

One model per kind, joined in a discriminated union on ``kind``. Every model forbids unknown
keys, so a typo in a data file ("treasure" for "treasures") is an error rather than a silently
ignored fact. ``normalize`` turns a validated model back into the plain card dict the rest of
the app shares, with the documented defaults filled in.

Keys added beyond ENGINE.md's table (all optional):

- ``slug``: a race or class card's slug when it is not the slug of its name (ENGINE.md names it).
- ``disagreement``: where the public sources differ on a fact, what the other source says.
- ``aka``: other printed names of the same card (older printings, other sources), for search.
- ``copies``: how many copies of the card the set's decks hold (catalog data only).
- ``unknown``: fact keys the sources do not give (e.g. ``["level"]``); they are left out of
  the card rather than invented, and no default is filled in for them.
- ``played_as`` (other): the action an "other" card is played through when it is not put in
  front of a player (``play``): ``add_monster`` for the Wandering Monster, which brings a
  monster from the hand into a fight (``add_monster``'s ``wandering``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal, Optional, Union, get_args

from anyascii import anyascii
from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool,
                      StrictInt, ValidationError, model_validator)

# The fixed vocabularies are the engine's words (one source for schema, engine and forms).
from .vocab import (BAD_STUFF_DOS, FLAG_STATS, KINDS, LOSE_SLOTS, LOSE_WHICH, ROLES, SETS, SLOTS,
                    STATS, BadStuffDo, CardSet, CurseDuration, LoseSlot, LoseWhich, Per, Role, Stat)
from .vocab import Sex as SexWord
from .vocab import Slot as SlotWord


def _slug_in(value: Any) -> Any:
    """Phones type "Elf" or "Chess Club": accept them as the slugs "elf" and "chess-club"."""
    return slugify(value) if isinstance(value, str) else value


def _word_in(value: Any) -> Any:
    """Fixed vocabulary words are matched without regard to case or spaces ("1 Hand")."""
    return slugify(value) if isinstance(value, str) else value


def has_lone_surrogate(value: str) -> bool:
    """True for text that cannot be written as UTF-8 (a lone surrogate such as ``"\\ud800"``)."""
    if value.isascii():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


LONE_SURROGATE = "has a broken character (a lone surrogate): send proper Unicode text"


def _unicode_text(value: str) -> str:
    if has_lone_surrogate(value):
        raise ValueError(LONE_SURROGATE)
    return value


# Any text a card carries: it must be writable (no lone surrogate) to reach the database.
UnicodeText = Annotated[str, AfterValidator(_unicode_text)]

Slug = Annotated[str, BeforeValidator(_slug_in),
                 Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", min_length=1, max_length=60)]
Sex = Annotated[SexWord, BeforeValidator(_word_in)]
Text = Annotated[UnicodeText, Field(min_length=1, max_length=600)]
Name = Annotated[UnicodeText, Field(min_length=1, max_length=80)]
SmallInt = Annotated[StrictInt, Field(ge=-99, le=99)]


KIND_ALIASES = {"monster-enhancer": "enhancer", "oneshot": "one-shot", "halfbreed": "half-breed",
                "supermunchkin": "super-munchkin", "go-up-level": "go-up-a-level",
                "level-up": "go-up-a-level"}


def normalize_kind(value: Any) -> Any:
    """``"Monster Enhancer"`` -> ``"enhancer"``; anything else that is not a string unchanged."""
    if not isinstance(value, str):
        return value
    slug = slugify(value)
    return KIND_ALIASES.get(slug, slug)


def slugify(text: str) -> str:
    """``"3,872 Orcs"`` -> ``"3872-orcs"``; ``"Help Me Out Here!"`` -> ``"help-me-out-here"``;
    a name in another script in Latin letters (anyascii): ``"Шлем отваги"`` -> ``"shlem-otvagi"``
    (a Russian table's own monster or item has an id, as an English one does)."""
    text = anyascii(unicodedata.normalize("NFKC", text)).encode("ascii", "ignore").decode("ascii")
    text = text.lower().replace("&", " and ").replace("'", "").replace(",", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)


class Condition(_Strict):
    """``if`` of an effect: every key present must hold."""

    race: Optional[Slug] = None
    class_: Optional[Slug] = Field(default=None, alias="class")
    sex: Optional[Sex] = None
    role: Optional[Annotated[Role, BeforeValidator(_word_in)]] = None
    tag: Optional[Slug] = None
    # "unless": a monster that spares an Elf, Bad Stuff that spares a Wizard
    not_race: Optional[Slug] = None
    not_class: Optional[Slug] = None
    not_sex: Optional[Sex] = None


class Effect(_Strict):
    stat: Stat
    value: Optional[SmallInt] = None
    if_: Optional[Condition] = Field(default=None, alias="if")
    per: Optional[Per] = None
    drawback: StrictBool = False
    # The card words it as an option (a Cleric *may* chase the Wannabe Vampire away): offered
    # to the player who may take it (an action), never applied for them.
    choice: StrictBool = False
    # Where printings of the card differ: "box" holds under the box's printed rules only,
    # "current" under the publisher's current card text only (the table's official_updates).
    printing: Optional[Literal["box", "current"]] = None

    @model_validator(mode="after")
    def _value_needed(self):
        if self.value is None:
            if self.stat in FLAG_STATS:
                self.value = 1
            else:
                raise ValueError(f"an effect on '{self.stat}' needs a 'value'")
        return self


class BadStuffStep(_Strict):
    """One thing a monster's Bad Stuff does to the player it catches (docs/ENGINE.md, "Bad
    Stuff"); ``if`` is judged on that player, ``otherwise`` happens when a ``lose_*`` step
    finds nothing to take."""

    do: BadStuffDo
    value: Optional[Annotated[StrictInt, Field(ge=1, le=10)]] = None
    which: Optional[Annotated[LoseWhich, BeforeValidator(_word_in)]] = None
    tag: Optional[Slug] = None
    slug: Optional[Slug] = None
    death_at_most: Optional[Annotated[StrictInt, Field(ge=0, le=6)]] = None
    shared: Optional[StrictBool] = None
    if_: Optional[Condition] = Field(default=None, alias="if")
    otherwise: Optional[list["BadStuffStep"]] = Field(default=None, max_length=5)

    @model_validator(mode="after")
    def _fits_its_kind(self):
        allowed = _STEP_KEYS[self.do]
        given = {name for name in ("value", "which", "tag", "slug", "death_at_most", "shared",
                                   "otherwise") if getattr(self, name) is not None}
        if given - allowed:
            raise ValueError(f"a '{self.do}' step takes no {', '.join(sorted(given - allowed))}")
        if self.do == "lose_levels" and self.value is None:
            raise ValueError("a 'lose_levels' step needs a 'value'")
        if self.do == "lose_items" and self.which is None and self.tag is None:
            raise ValueError("a 'lose_items' step needs 'which' or 'tag'")
        return self


# The keys each kind of step takes (besides ``do`` and ``if``).
_STEP_KEYS: dict[str, set[str]] = {
    "lose_levels": {"value"}, "roll_levels": {"death_at_most"}, "level_to_lowest": set(),
    "lose_items": {"which", "tag", "otherwise"}, "lose_race": {"slug", "otherwise"},
    "lose_class": {"slug", "otherwise"}, "lose_hand": {"shared", "otherwise"}, "death": set(),
    "manual": set(),
}
assert set(_STEP_KEYS) == set(BAD_STUFF_DOS), "every Bad Stuff step of the vocabulary has its keys"


class BadStuff(_Strict):
    """``steps`` is the Bad Stuff as data; without it (older and house cards) ``levels`` and
    ``death`` are what the engine applies and a summary alone is done by hand. With it,
    ``levels``/``death`` are derived (what every caught player suffers) for the card's facts."""

    levels: Annotated[StrictInt, Field(ge=0, le=10)] = 0
    death: StrictBool = False
    summary: Optional[Text] = None
    steps: Optional[list[BadStuffStep]] = Field(default=None, max_length=10)
    # steps suffered by a player this monster pursues, whether the roll escapes or not
    on_flee: Optional[list[BadStuffStep]] = Field(default=None, max_length=5)

    @model_validator(mode="after")
    def _derived_facts(self):
        if self.steps is None:
            return self
        plain = [s for s in self.steps if s.if_ is None]
        levels = min(10, sum(s.value or 0 for s in plain if s.do == "lose_levels"))
        death = any(s.do == "death" for s in plain)
        given = self.model_fields_set
        if "levels" in given and self.levels != levels:
            raise ValueError(f"'levels' is {self.levels} but the steps lose {levels}")
        if "death" in given and self.death != death:
            raise ValueError(f"'death' is {self.death} but the steps say {death}")
        self.levels, self.death = levels, death
        return self


class Requires(_Strict):
    race: Optional[Slug] = None
    class_: Optional[Slug] = Field(default=None, alias="class")
    sex: Optional[Sex] = None
    not_race: Optional[Slug] = None
    not_class: Optional[Slug] = None
    not_sex: Optional[Sex] = None


class _Card(_Strict):
    id: Optional[Annotated[str, Field(pattern=r"^[a-z0-9-]+/[a-z0-9]+(-[a-z0-9]+)*$", max_length=120)]] = None
    set: CardSet
    name: Name
    summary: Optional[Text] = None  # the catalog files must give one (checked on load); inline cards need not
    effects: list[Effect] = Field(default_factory=list, max_length=20)
    sources: list[Text] = Field(default_factory=list, max_length=10)
    disagreement: Optional[Text] = None
    aka: list[Name] = Field(default_factory=list, max_length=10)
    copies: Optional[Annotated[StrictInt, Field(ge=1, le=20)]] = None
    unknown: list[Annotated[UnicodeText, Field(max_length=40)]] = Field(default_factory=list, max_length=20)


#: A monster's rules for the fight that are more than a number, beside ``effects``;
#: companion/engine/monster_conditions.py and combat.py apply each, and
#: tests/engine/test_monster_rules.py holds a check per word (a word without one fails there).
FightRuleWord = Literal["level_ignored", "no_help", "discard_item_first", "drop_to_escape",
                        "extra_levels"]
FIGHT_RULES: tuple[str, ...] = get_args(FightRuleWord)


class FightRule(_Strict):
    """``level_ignored``: the players' Levels do not count, only their bonuses (Insurance
    Salesman). ``no_help``: nobody may help against it (Gazebo). ``discard_item_first``: the
    fighter discards an item of their choice before the fight can be decided (Tongue Demon).
    ``drop_to_escape``: a player running from it who discards an item with one of ``tags`` gets
    away without a roll (Pit Bull). ``extra_levels``: ``value`` more levels for the kill when a
    card with one of ``tags`` is on the players' side, or (``alone``) when the fighter had no
    helper and no bonus (Large Angry Chicken, Pukachu). ``if``: only for a player who meets it."""

    rule: FightRuleWord
    tags: list[Slug] = Field(default_factory=list, max_length=10)
    value: Optional[Annotated[StrictInt, Field(ge=1, le=5)]] = None
    alone: StrictBool = False
    if_: Optional[Condition] = Field(default=None, alias="if")

    @model_validator(mode="after")
    def _fits_its_rule(self):
        if self.rule == "drop_to_escape" and not self.tags:
            raise ValueError("a 'drop_to_escape' rule names the tags of the items to drop")
        if self.rule == "extra_levels" and (self.value is None or not (self.tags or self.alone)):
            raise ValueError("an 'extra_levels' rule needs a 'value' and 'tags' or 'alone'")
        if self.rule != "extra_levels" and (self.value is not None or self.alone):
            raise ValueError(f"a '{self.rule}' rule takes no value or alone")
        return self


class Monster(_Card):
    kind: Literal["monster"]
    level: Optional[Annotated[StrictInt, Field(ge=0, le=99)]] = None
    treasures: Optional[Annotated[StrictInt, Field(ge=0, le=20)]] = None
    levels: Optional[Annotated[StrictInt, Field(ge=0, le=10)]] = None
    tags: list[Slug] = Field(default_factory=list, max_length=10)
    bad_stuff: Optional[BadStuff] = None
    fight_rules: list[FightRule] = Field(default_factory=list, max_length=5)


class Curse(_Card):
    kind: Literal["curse"]
    bonus: Optional[SmallInt] = None
    duration: CurseDuration = "once"
    lose_levels: Optional[Annotated[StrictInt, Field(ge=0, le=10)]] = None
    lose_slot: Optional[Annotated[LoseSlot, BeforeValidator(_word_in)]] = None
    change_sex: Optional[StrictBool] = None


class Enhancer(_Card):
    kind: Literal["enhancer"]
    bonus: Optional[SmallInt] = None
    treasures: Optional[Annotated[StrictInt, Field(ge=-10, le=10)]] = None
    mate: Optional[StrictBool] = None


class Item(_Card):
    kind: Literal["item"]
    bonus: Optional[SmallInt] = None
    slot: Optional[Annotated[SlotWord, BeforeValidator(_word_in)]] = None
    big: Optional[StrictBool] = None
    gold: Optional[Annotated[StrictInt, Field(ge=0, le=10000)]] = None
    requires: Optional[Requires] = None
    tags: list[Slug] = Field(default_factory=list, max_length=10)


class OneShot(_Card):
    kind: Literal["one-shot"]
    bonus: Optional[SmallInt] = None
    gold: Optional[Annotated[StrictInt, Field(ge=0, le=10000)]] = None
    # e.g. "fire" (Flaming Poison Potion); left out when it has none
    tags: Optional[list[Slug]] = Field(default=None, max_length=10)


class Race(_Card):
    kind: Literal["race"]
    slug: Optional[Slug] = None


class Class(_Card):
    kind: Literal["class"]
    slug: Optional[Slug] = None


class HalfBreed(_Card):
    kind: Literal["half-breed"]


class SuperMunchkin(_Card):
    kind: Literal["super-munchkin"]


class Ally(_Card):
    kind: Literal["ally"]
    bonus: Optional[SmallInt] = None


class GoUpALevel(_Card):
    kind: Literal["go-up-a-level"]
    levels: Optional[Annotated[StrictInt, Field(ge=1, le=10)]] = None


#: The actions an "other" card may be played through instead of ``play`` (``played_as``).
PlayedAs = Literal["add_monster"]


class Other(_Card):
    kind: Literal["other"]
    played_as: Optional[PlayedAs] = None


Card = Annotated[
    Union[Monster, Curse, Enhancer, Item, OneShot, Race, Class, HalfBreed, SuperMunchkin, Ally,
          GoUpALevel, Other],
    Field(discriminator="kind"),
]

MODELS: dict[str, type[_Card]] = {
    "monster": Monster, "curse": Curse, "enhancer": Enhancer, "item": Item, "one-shot": OneShot,
    "race": Race, "class": Class, "half-breed": HalfBreed, "super-munchkin": SuperMunchkin,
    "ally": Ally, "go-up-a-level": GoUpALevel, "other": Other,
}


class SetFile(_Strict):
    """One data file under ``cards/``: ``{"set", "name", "sources", "cards"}``."""

    set: CardSet
    name: Name
    sources: list[Text] = Field(default_factory=list)
    cards: list[Any]


# Defaults filled by normalize() when a key is absent and not listed in ``unknown``.
_DEFAULTS: dict[str, dict[str, Any]] = {
    "monster": {"levels": 1, "treasures": 1},
    "enhancer": {"bonus": 0, "treasures": 0},
    "item": {"bonus": 0, "big": False},
    "one-shot": {"bonus": 0},
    "ally": {"bonus": 0},
    "curse": {},
    "go-up-a-level": {"levels": 1},
}

# The order of keys in a normalized card (anything else follows in model order).
_ORDER = ("id", "set", "name", "kind", "slug", "summary", "level", "treasures", "levels", "tags",
          "bad_stuff", "fight_rules", "bonus", "slot", "big", "gold", "requires", "mate", "duration",
          "lose_levels", "lose_slot", "change_sex", "played_as", "effects", "aka", "copies", "unknown",
          "sources", "disagreement")

# Keys whose ``None`` is a fact (gold: No Value) rather than "absent".
_NULL_IS_FACT = {"gold"}


def _effect_dict(effect: Effect) -> dict:
    cond = effect.if_.model_dump(by_alias=True, exclude_none=True) if effect.if_ else {}
    out = {"stat": effect.stat, "value": effect.value, "if": cond, "per": effect.per,
           "drawback": effect.drawback}
    if effect.choice:  # only where the card gives a choice: other cards' dicts stay as they were
        out["choice"] = True
    if effect.printing:
        out["printing"] = effect.printing
    return out


def normalize(model: _Card, fields_set: set[str]) -> dict:
    """The plain card dict for a validated model, defaults filled, absent facts left out."""
    out: dict[str, Any] = {}
    raw = model.model_dump(by_alias=True)
    for key, value in raw.items():
        if key == "effects":
            out["effects"] = [_effect_dict(e) for e in model.effects]
        elif key == "fight_rules":
            if value:
                out["fight_rules"] = [r.model_dump(by_alias=True, exclude_none=True,
                                                   exclude_defaults=True) | {"rule": r.rule}
                                      for r in model.fight_rules]  # type: ignore[attr-defined]
        elif key == "bad_stuff":
            if model.bad_stuff is not None:  # type: ignore[attr-defined]
                out["bad_stuff"] = model.bad_stuff.model_dump(exclude_none=True, by_alias=True)  # type: ignore[attr-defined]
        elif key == "requires":
            if value:
                out["requires"] = {k: v for k, v in value.items() if v is not None}
        elif key in ("aka", "unknown", "sources") and not value:
            if key == "sources":
                out[key] = []
            continue
        elif value is None:
            if key in _NULL_IS_FACT and key in fields_set:
                out[key] = None
        else:
            out[key] = value
    kind = out["kind"]
    unknown = set(out.get("unknown", ()))
    for key, default in _DEFAULTS.get(kind, {}).items():
        if key not in out and key not in unknown:
            out[key] = default
    if kind == "monster" and "bad_stuff" in out:
        out["bad_stuff"].setdefault("levels", 0)
        out["bad_stuff"].setdefault("death", False)
    if kind == "monster":
        out.setdefault("tags", [])
    if kind == "enhancer":
        out["mate"] = bool(out.get("mate", False))
    if kind == "curse" and "change_sex" in out:
        out["change_sex"] = bool(out["change_sex"])
    ordered = {k: out[k] for k in _ORDER if k in out}
    ordered.update({k: v for k, v in out.items() if k not in ordered})
    return ordered


def error_field(err: dict) -> str:
    """The dotted field path of a pydantic error, without the union's kind tag."""
    parts = [str(p) for p in err.get("loc", ())]
    if parts and parts[0] in MODELS:
        parts = parts[1:]
    return ".".join(parts) or "card"


__all__ = [
    "BAD_STUFF_DOS", "FIGHT_RULES", "FLAG_STATS", "KINDS", "KIND_ALIASES", "LONE_SURROGATE",
    "LOSE_SLOTS", "LOSE_WHICH", "MODELS", "ROLES", "SETS", "SLOTS", "STATS",
    "Ally", "BadStuff", "BadStuffStep", "Card", "Class", "Condition", "Curse", "Effect", "Enhancer",
    "FightRule", "FightRuleWord", "GoUpALevel", "HalfBreed", "Item", "Monster", "OneShot", "Other",
    "Race", "Requires", "SetFile", "SuperMunchkin", "UnicodeText", "ValidationError",
    "error_field", "has_lone_surrogate", "normalize", "normalize_kind", "slugify",
]

assert tuple(MODELS) == KINDS, "one card model per kind of companion.engine.vocab"
