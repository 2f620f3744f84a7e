"""The words of the game: one ``Literal`` per kind of word, and its tuple of values.

The card schema (``card_schema``), the action models (``action_models``), the
reducers and the forms all name these words; each is written once, here. A tuple is derived
from its ``Literal`` with ``typing.get_args``, so the two can never disagree.

Plain Python with no dependency.
"""

from __future__ import annotations

from typing import Literal, get_args

# --- people --------------------------------------------------------------------------------

Sex = Literal["male", "female"]
SEXES: tuple[str, ...] = get_args(Sex)

# --- editions and their optional rules -----------------------------------------------------

EditionId = Literal["classic", "oz", "spell-skool", "russia", "tails"]
EDITION_IDS: tuple[str, ...] = get_args(EditionId)

# Every optional rule any edition offers (an edition lists the ones its rulebook prints).
# "official_updates": the publisher's later official rulings instead of the box's printed rules
# (every edition offers it; see editions.EVERY_EDITION_VARIANTS).
Variant = Literal["listen_at_the_door", "shared_victory", "faster_play", "official_updates"]
VARIANTS: tuple[str, ...] = get_args(Variant)
# Each optional rule by name, for the code that asks about one (spelled once, above).
LISTEN_AT_THE_DOOR, SHARED_VICTORY, FASTER_PLAY, OFFICIAL_UPDATES = VARIANTS

# --- cards ---------------------------------------------------------------------------------

# A card's set: an edition's cards, or a table's own house cards.
CardSet = Literal["classic", "oz", "spell-skool", "russia", "tails", "house"]
SETS: tuple[str, ...] = get_args(CardSet)

CardKind = Literal[
    "monster", "curse", "enhancer", "item", "one-shot", "race", "class", "half-breed",
    "super-munchkin", "ally", "go-up-a-level", "other",
]
KINDS: tuple[str, ...] = get_args(CardKind)

Slot = Literal["headgear", "armor", "footgear", "1-hand", "2-hands", "other"]
SLOTS: tuple[str, ...] = get_args(Slot)

# What a curse can take: an item of a slot, a Big item, a small (not Big) item, or any item.
LoseSlot = Literal[Slot, "big", "small", "any"]
LOSE_SLOTS: tuple[str, ...] = get_args(LoseSlot)

CurseDuration = Literal["once", "next_fight", "lasting"]
DURATIONS: tuple[str, ...] = get_args(CurseDuration)

# --- effects (docs/ENGINE.md "Effects") ----------------------------------------------------

Stat = Literal[
    "strength", "run_away", "hand_limit", "big_items", "wins_ties", "helper_levels",
    "level_only", "auto_escape", "treasures", "levels",
    # monster conditions (docs/ENGINE.md "Monster conditions")
    "no_pursuit", "chase_away", "no_escape",
]
STATS: tuple[str, ...] = get_args(Stat)

FlagStat = Literal["wins_ties", "helper_levels", "level_only", "auto_escape", "chase_away",
                   "no_escape"]
FLAG_STATS: frozenset[str] = frozenset(get_args(FlagStat))

Role = Literal["fighting", "helping", "helped"]
ROLES: tuple[str, ...] = get_args(Role)

Per = Literal["empty_hand"]
PERS: tuple[str, ...] = get_args(Per)

# --- Bad Stuff (docs/ENGINE.md "Bad Stuff") ------------------------------------------------

# One step of a monster's Bad Stuff, as the engine carries it out on a caught player.
BadStuffDo = Literal[
    "lose_levels", "roll_levels", "level_to_lowest", "lose_items", "lose_race", "lose_class",
    "lose_hand", "death", "manual",
]
BAD_STUFF_DOS: tuple[str, ...] = get_args(BadStuffDo)

# Which items a ``lose_items`` step takes: the equipped ones of a slot, every Big one, every
# item, or the one that gives the most.
LoseWhich = Literal[Slot, "big", "all", "best"]
LOSE_WHICH: tuple[str, ...] = get_args(LoseWhich)

# --- levels and fights ---------------------------------------------------------------------

# Where a level comes from: only a kill may bring the winning level.
LevelSource = Literal["kill", "card", "sell", "adjust"]
LEVEL_SOURCES: tuple[str, ...] = get_args(LevelSource)

# The two sides a one-shot can be played for.
Side = Literal["players", "monsters"]
SIDES: tuple[str, ...] = get_args(Side)

# A stored fight's stage: fighting, then running (lost) or over.
Stage = Literal["fighting", "running", "over"]
STAGES: tuple[str, ...] = get_args(Stage)
# The stages in which a fight is still on the table's mind.
LIVE_STAGES: tuple[str, ...] = ("fighting", "running")

__all__ = [
    "BAD_STUFF_DOS", "BadStuffDo", "LOSE_WHICH", "LoseWhich",
    "CardKind", "CardSet", "CurseDuration", "DURATIONS", "EDITION_IDS", "EditionId", "FLAG_STATS",
    "FASTER_PLAY", "FlagStat", "KINDS", "LEVEL_SOURCES", "LISTEN_AT_THE_DOOR", "LIVE_STAGES",
    "LOSE_SLOTS", "LevelSource", "LoseSlot", "OFFICIAL_UPDATES", "PERS", "Per", "ROLES", "Role",
    "SETS", "SEXES", "SHARED_VICTORY", "SIDES", "SLOTS", "STAGES", "STATS", "Sex", "Side", "Slot",
    "Stage", "Stat", "VARIANTS", "Variant",
]
