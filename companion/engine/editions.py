"""The five supported rulebooks as data.

A game's edition decides which rules apply. Each fact here was read from the rulebook in
``shared/seeds`` named by ``rulebook``; the rules base (``companion/rulebase``) carries the
sentences and section citations. A table mixing sets picks the edition whose rules it follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .vocab import FASTER_PLAY, LISTEN_AT_THE_DOOR, OFFICIAL_UPDATES, SHARED_VICTORY
from .words import N_


@dataclass(frozen=True)
class Edition:
    id: str
    name: str  # a msgid (N_): shown as ``said(edition.name)``, in the reader's language
    rulebook: str  # how citations name the rulebook
    races: tuple[str, ...]
    classes: tuple[str, ...]
    half_breed: bool
    super_munchkin: bool
    allies: bool = False
    min_players: int = 3
    max_players: int = 6
    hand_limit: int = 5
    dead_redraw: int = 4  # cards drawn from each deck on the turn after death
    elf_helper_levels: bool = False  # classic: an Elf helper gains a level per monster slain
    forced_help_never_wins: bool = False  # tails: forced help never counts in a winning fight
    # russia, tails: once the last monster has left (charmed, sent away) the fight is over
    fight_ends_without_monsters: bool = False
    # classic: no card takes a monster below level 1 (When To Play Cards); the newer rulebooks
    # let a monster's combat strength fall below 1
    monsters_never_below_level_one: bool = False
    charity_oligarchs_first: bool = False  # russia: each Oligarch takes one card of the excess
    grouping_tags: tuple[str, ...] = ()  # monster groups the rulebook names
    variants: tuple[str, ...] = (LISTEN_AT_THE_DOOR, SHARED_VICTORY)
    default_race: str | None = "human"  # what a player without a race card is
    big_item_limit: bool = True  # Tails and Spell Skool print no limit on Big items
    # Oz, Russia, Tails: one class + Super Munchkin keeps the advantages and sheds the
    # drawbacks (their rulebooks). Classic's Super Munchkin needs two classes.
    lone_card_sheds_drawbacks: bool = True
    # One race + Half-Breed keeps the race's advantages and sheds its drawbacks: Tails by its
    # rulebook, classic by its Half-Breed card (the ruling ``half_breed_rule`` names says so);
    # classic's rulebook also makes such a player half human (``half_breed_half_human``).
    lone_race_sheds_drawbacks: bool = True
    half_breed_half_human: bool = False
    half_breed_rule: str = "single-race-no-drawbacks"
    # classic: Super Munchkin goes as soon as either class card goes; later rulebooks allow
    # Super Munchkin on a single class, so it only goes with the last class card.
    super_munchkin_lost_with_either_class: bool = False
    class_word: str = "class"  # Spell Skool calls its classes clubs
    # The Wizard's Flight Spell: the older card text has its cards discarded while running
    # away (the app adds them to the roll about to be made); the current card discards them
    # after a failed roll, nothing when the roll escapes (official updates; ruling
    # ``wizard-flight-timing``).
    flight_after_failed_roll: bool = False
    # Which printing of a card its effects follow where printings differ (``Effect.printing``,
    # a power's ``printing``): the box's (False) or the publisher's current card (True,
    # official updates). The classic Halfling: -1 to run away in the box's rulebook; a second
    # try after a failed roll on the later card (ruling ``halfling-printing``).
    current_printings: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def choosable_variants(self) -> tuple[str, ...]:
        """The optional rules a table of this edition may switch on: its rulebook's own, then
        the ones every edition offers."""
        return self.variants + EVERY_EDITION_VARIANTS


# Offered whatever the box: a table may follow the publisher's later official rulings (FAQ and
# rule updates) where they differ from the rulebook printed in its box.
EVERY_EDITION_VARIANTS: tuple[str, ...] = (OFFICIAL_UPDATES,)


EDITIONS: dict[str, Edition] = {
    e.id: e
    for e in (
        Edition(
            id="classic", name=N_("Munchkin (classic)"), rulebook="Munchkin (classic rules)",
            races=("elf", "dwarf", "halfling"), classes=("warrior", "wizard", "thief", "cleric"),
            half_breed=True, super_munchkin=True, dead_redraw=2, elf_helper_levels=True,
            variants=(FASTER_PLAY,), lone_card_sheds_drawbacks=False,
            half_breed_half_human=True, half_breed_rule="half-breed-single-race-classic",
            super_munchkin_lost_with_either_class=True,
            monsters_never_below_level_one=True,
            notes=("older text: a dead player draws two from each deck",),
        ),
        Edition(
            id="oz", name=N_("Munchkin Oz"), rulebook="Munchkin Oz",
            races=(), classes=("professor", "wizard", "royalty", "soldier"),
            half_breed=False, super_munchkin=True, allies=True, default_race=None,
        ),
        Edition(
            id="spell-skool", big_item_limit=False, name=N_("Munchkin Spell Skool"), rulebook="Munchkin Spell Skool",
            races=(), classes=("chess-club", "forbidden-magic-club", "potions-club", "sports-club"),
            # its rulebook has no Super Munchkin section and no optional rules
            half_breed=False, super_munchkin=False, min_players=3, max_players=4,
            grouping_tags=("undead",), default_race=None, class_word="club", variants=(),
        ),
        Edition(
            id="russia", name=N_("Munchkin Russia"), rulebook="Munchkin Russia",
            races=(), classes=("cossack", "oligarch", "athlete", "hacker"),
            half_breed=False, super_munchkin=True, charity_oligarchs_first=True,
            grouping_tags=("babushka", "wolf", "undead", "dragon"), default_race=None,
            fight_ends_without_monsters=True,
        ),
        Edition(
            id="tails", big_item_limit=False, name=N_("Munchkin Tails"), rulebook="Munchkin Tails",
            races=("human", "dog", "fox", "mouse", "pony"),
            classes=("warrior", "wizard", "thief", "cleric"),
            half_breed=True, super_munchkin=True, forced_help_never_wins=True,
            fight_ends_without_monsters=True,
            # its faster-play section is exactly these two
            variants=(LISTEN_AT_THE_DOOR, SHARED_VICTORY),
        ),
    )
}


def get(edition_id: str) -> Edition:
    return EDITIONS[edition_id]


# The publisher's later rulings that change a printed rule, for a table that chose them
# (variant ``official_updates``): Steve Jackson Games' 2018 rules update ends a fight as soon as
# its last monster is gone and lets nobody be made to help in a fight for the win, in every
# edition (the rulings: companion/rulebase/rulings/official.json); the current Wizard card
# discards Flight's cards after a failed run-away roll (rulings/powers.json).
OFFICIAL_CHANGES = {"fight_ends_without_monsters": True, "forced_help_never_wins": True,
                    "flight_after_failed_roll": True, "current_printings": True}


def in_play(edition: Edition, official_updates: bool) -> Edition:
    """The rules a table follows: its edition's printed rules, with the official updates
    laid over them when the table chose them (``rules.TableRules`` asks)."""
    if not official_updates:
        return edition
    return replace(edition, **OFFICIAL_CHANGES)

