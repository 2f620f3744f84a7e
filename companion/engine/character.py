"""What the cards in front of a player add up to, and what the rules let them put there.

Pure functions over the player dict of docs/ENGINE.md (``level``, ``sex``, ``gear_adjust``,
``cards`` of ``{"iid", "card", "equipped"}``) and an ``editions.Edition``. Nothing here knows
about a game, a fight or a database: ``combat.py`` asks this module for a player's effects
and items and adds the monster side itself.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterable

from .editions import Edition
from .errors import BadAction, RuleViolation
from .words import N_, said, said_plural

Card = dict[str, Any]
Player = dict[str, Any]
Effect = dict[str, Any]

HAND_SLOTS = {"1-hand": 1, "2-hands": 2}
SINGLE_SLOTS = ("headgear", "armor", "footgear")
# why an equipped item does not count: its slot is taken (one sentence per slot, for translators)
SLOT_TAKEN = {"headgear": N_("another headgear is already equipped"),
              "armor": N_("another armor is already equipped"),
              "footgear": N_("another footgear is already equipped")}
# why an item cannot be equipped: the player already wears another in its slot
SLOT_WORN = {"headgear": N_("%(name)s already wears %(card)s as headgear"),
             "armor": N_("%(name)s already wears %(card)s as armor"),
             "footgear": N_("%(name)s already wears %(card)s as footgear")}
# kinds whose effects belong to the player while the card lies in front of them
CHARACTER_KINDS = ("race", "class", "ally", "curse")


# ---------------------------------------------------------------- small helpers


def slugify(text: str) -> str:
    """``"Chess Club"`` -> ``"chess-club"``."""
    return _slug(text if type(text) is str else str(text))


def is_divine_intervention(card: dict) -> bool:
    """The classic Door card whose every Cleric goes up a level (reducers/divine.py plays it)."""
    return card.get("kind") == "other" and slugify(card.get("name", "")) == "divine-intervention"


@functools.lru_cache(maxsize=4096)  # a sheet names its races and classes dozens of times
def _slug(text: str) -> str:
    return _NOT_SLUG.sub("-", text.lower()).strip("-")


_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def card_slug(card: Card) -> str:
    """A race or class card is named by its ``slug``, else by the slug of its printed name."""
    return card.get("slug") or slugify(card.get("name", ""))


def title(slug: str) -> str:
    """``"chess-club"`` -> ``"Chess Club"``: a race or class named in a sentence (a card's
    name, a fact: never translated)."""
    return " ".join(w.capitalize() for w in slug.split("-"))


def a_or_an(word: str, with_a: str, with_an: str) -> str:
    """The msgid of the two whose English article fits ``word`` ("a Wizard", "an Elf"); both
    are whole sentences, so a language without articles translates them alike."""
    return with_an if word[:1].lower() in "aeiou" else with_a


def as_list(value: Any) -> list:
    """Effect and requirement values may be one slug or a list of slugs (any of them)."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple, set)) else [value]


def player_name(player: Player) -> str | dict:
    """The player's name, or (a nameless test player) a said naming them by id."""
    return player.get("name") or said(N_("Player %(id)s"), id=player.get("id", "?"))


def cards_of(player: Player, *kinds: str) -> list[dict]:
    """The ``{"iid", "card", "equipped"}`` entries in front of a player, of the given kinds."""
    return [e for e in player.get("cards", []) if e["card"].get("kind") in kinds]


# ---------------------------------------------------------------- races and classes


def race_cards(player: Player) -> list[Card]:
    return [e["card"] for e in cards_of(player, "race")]


def class_cards(player: Player) -> list[Card]:
    return [e["card"] for e in cards_of(player, "class")]


def has_half_breed(player: Player) -> bool:
    return bool(cards_of(player, "half-breed"))


def has_super_munchkin(player: Player) -> bool:
    return bool(cards_of(player, "super-munchkin"))


def half_human(player: Player, edition: Edition) -> bool:
    """Classic: Half-Breed on a single race makes the player half that race and half human,
    so effects and conditions on Humans apply too (its rulebook, Half-Breed and Super
    Munchkin); the lone race still sheds its drawbacks, as the card says (``free_race``).
    Tails has no half-human rule."""
    return (edition.half_breed and edition.half_breed_half_human
            and edition.default_race is not None and has_half_breed(player)
            and len(race_cards(player)) == 1)


def races(player: Player, edition: Edition) -> list[str]:
    """Race slugs; a player with no race card is the edition's default race (human), if any,
    and a classic Half-Breed with one race card is that race and human (``half_human``)."""
    found = [card_slug(c) for c in race_cards(player)]
    if not found and edition.default_race:
        return [edition.default_race]
    if half_human(player, edition) and edition.default_race not in found:
        return found + [edition.default_race]
    return found


def classes(player: Player, edition: Edition) -> list[str]:
    """Class (Spell Skool: club) slugs; no class card means no class."""
    return [card_slug(c) for c in class_cards(player)]


def free_race(player: Player, edition: Edition) -> str | None:
    """The race whose drawbacks the player sheds: a lone race card plus Half-Breed (rule
    ``edition.half_breed_rule``: classic by its Half-Breed card, Tails by its rulebook)."""
    if edition.lone_race_sheds_drawbacks and has_half_breed(player):
        cards = race_cards(player)
        if len(cards) == 1:
            return card_slug(cards[0])
    return None


def free_class(player: Player, edition: Edition) -> str | None:
    """The class whose drawbacks the player sheds: a lone class card plus Super Munchkin."""
    if edition.lone_card_sheds_drawbacks and has_super_munchkin(player):
        cards = class_cards(player)
        if len(cards) == 1:
            return card_slug(cards[0])
    return None


# ---------------------------------------------------------------- items


def usable(item: Card, player: Player, edition: Edition) -> dict | None:
    """None when the player may use the item now, else the reason as a said (a short clause).

    A lone race with Half-Breed (class with Super Munchkin) keeps the right to class-only
    items and loses the ban on forbidden ones, in the editions that say so.
    """
    req = item.get("requires") or {}
    my_races, my_classes = races(player, edition), classes(player, edition)
    for key, value in req.items():
        wanted = as_list(value)
        if key == "race" and not set(wanted) & set(my_races):
            return _only(wanted)
        if key == "class" and not set(wanted) & set(my_classes):
            return _only(wanted)
        if key == "sex" and player.get("sex") not in wanted:
            if wanted == ["female"]:
                return said(N_("only a female character can use it"))
            if wanted == ["male"]:
                return said(N_("only a male character can use it"))
            return said(N_("this character cannot use it"))
        if key == "not_sex" and player.get("sex") in wanted:
            if wanted == ["female"]:
                return said(N_("a female character cannot use it"))
            if wanted == ["male"]:
                return said(N_("a male character cannot use it"))
            return said(N_("this character cannot use it"))
        if key == "not_race":
            banned = (set(wanted) & set(my_races)) - {free_race(player, edition)}
            if banned:
                return _banned(title(sorted(banned)[0]))
        if key == "not_class":
            banned = (set(wanted) & set(my_classes)) - {free_class(player, edition)}
            if banned:
                return _banned(title(sorted(banned)[0]))
    return None


def _only(wanted: list) -> dict:
    """Only the race(s) or class(es) ``wanted`` (slugs) can use the item."""
    if len(wanted) == 1:
        who = title(wanted[0])
        return said(a_or_an(who, N_("only a %(who)s can use it"), N_("only an %(who)s can use it")),
                    who=who)
    return said(N_("only one of these can use it: %(who)s"),
                who=", ".join(title(w) for w in wanted))


def _banned(who: str) -> dict:
    return said(a_or_an(who, N_("a %(who)s cannot use it"), N_("an %(who)s cannot use it")), who=who)


def item_rows(player: Player, edition: Edition) -> list[dict]:
    """Every item in front of the player with whether it counts now and, if not, why.

    An equipped item counts when its user restriction holds and its slot still has room;
    the slot check only matters for a state the equip check would have refused. Big items
    past what the player may carry (a Dwarf who stopped being one) count for nothing until
    the extras are sold or given away: equipped ones are kept first, then in the order played.
    """
    rows = []
    used = {s: 0 for s in SINGLE_SLOTS}
    hands = 0
    over_big = _big_items_over(player, edition)
    for entry in cards_of(player, "item"):
        card = entry["card"]
        slot = card.get("slot") or "other"
        why = None
        if entry["iid"] in over_big:
            why = over_big[entry["iid"]]
        elif not entry.get("equipped"):
            why = said(N_("carried, not equipped"))
        else:
            why = usable(card, player, edition)
            if why is None:
                if slot in used:
                    if used[slot] >= 1:
                        why = said(SLOT_TAKEN[slot])
                    else:
                        used[slot] += 1
                elif slot in HAND_SLOTS:
                    if hands + HAND_SLOTS[slot] > 2:
                        why = said(N_("no free hand for it"))
                    else:
                        hands += HAND_SLOTS[slot]
        rows.append({
            "iid": entry["iid"], "name": card.get("name", "?"), "kind": "item", "slot": slot,
            "big": bool(card.get("big")), "bonus": card.get("bonus") or 0,
            "gold": card.get("gold"), "gold_known": "gold" in card,  # null gold is No Value
            "equipped": bool(entry.get("equipped")), "over_big_limit": entry["iid"] in over_big,
            "counts": why is None, "why_not": why, "card": card,
        })
    return rows


def one_shot_rows(player: Player) -> list[dict]:
    """One-shots laid on the table in front of the player (Tails, One-Shot Treasures: played
    from the hand or from the table): carried, never counting on the sheet, sellable when
    they show a gold value. The same row shape as ``item_rows``."""
    rows = []
    for entry in cards_of(player, "one-shot"):
        card = entry["card"]
        rows.append({
            "iid": entry["iid"], "name": card.get("name", "?"), "kind": "one-shot",
            "slot": "other", "big": False, "bonus": card.get("bonus") or 0,
            "gold": card.get("gold"), "gold_known": "gold" in card,
            "equipped": False, "over_big_limit": False, "counts": False,
            "why_not": said(N_("a one-shot: it counts only when played into a fight")),
            "card": card,
        })
    return rows


def _big_items_over(player: Player, edition: Edition) -> dict[Any, dict]:
    """The Big items past the player's limit (iid -> why it does not count). Classic, Items:
    someone who stops being a Dwarf keeps one Big item and must get rid of the rest at once
    (sell them on their own turn, else give them to the lowest-level player who can carry them).
    """
    big = [e for e in cards_of(player, "item") if e["card"].get("big")]
    allowance = _big_allowance(player, edition)
    if len(big) <= allowance:
        return {}
    kept = {e["iid"] for e in sorted(big, key=lambda e: not e.get("equipped"))[:allowance]}
    why = said_plural("%(name)s may carry only %(n)s Big item: sell this one on your turn or "
                      "give it to the lowest-level player who can carry it",
                      "%(name)s may carry only %(n)s Big items: sell this one on your turn or "
                      "give it to the lowest-level player who can carry it",
                      allowance, name=player_name(player), sex=player.get("sex"))
    return {e["iid"]: why for e in big if e["iid"] not in kept}


def empty_hands(player: Player, edition: Edition) -> int:
    """Hands not filled by an equipped usable hand item (each player has two)."""
    used = sum(HAND_SLOTS.get(r["slot"], 0) for r in item_rows(player, edition) if r["counts"])
    return max(0, 2 - used)


# ---------------------------------------------------------------- effects


def _tagged(effect: Effect, card: Card, iid: Any, **extra: Any) -> Effect:
    out = dict(effect)
    out.setdefault("source", card.get("name", "?"))
    out["card_kind"] = card.get("kind")
    out["iid"] = iid
    out.update(extra)
    return out


def active_effects(player: Player, edition: Edition) -> list[Effect]:
    """The effects a player carries: race, class, ally, staying curses, counting items.

    Each effect is a copy with ``source`` (card name), ``card_kind`` and ``iid`` added; the
    plain ``bonus`` of an item, ally or curse appears as an unconditional strength effect
    (``plain: true``), so a caller adds strength from one list. Drawbacks of a lone race with
    Half-Breed or a lone class with Super Munchkin are left out where the edition says so.
    """
    out = _character_effects(player, edition)
    for row in item_rows(player, edition):
        if not row["counts"]:
            continue
        card = row["card"]
        if card.get("bonus"):
            out.append(_tagged({"stat": "strength", "value": card["bonus"]}, card,
                               row["iid"], plain=True))
        for eff in card.get("effects") or []:
            out.append(_tagged(eff, card, row["iid"]))
    return out


def _character_effects(player: Player, edition: Edition) -> list[Effect]:
    """The effects of the race, class, ally and staying curse cards (items left out)."""
    out: list[Effect] = []
    shed = {("race", free_race(player, edition)), ("class", free_class(player, edition))}
    for entry in player.get("cards", []):
        card = entry["card"]
        kind = card.get("kind")
        if kind not in CHARACTER_KINDS:
            continue
        if kind == "curse" and card.get("duration", "lasting") == "once":
            continue  # a once-only curse has acted already and is not kept
        if card.get("bonus"):
            out.append(_tagged({"stat": "strength", "value": card["bonus"]}, card,
                               entry["iid"], plain=True))
        for eff in card.get("effects") or []:
            if eff.get("drawback") and (kind, card_slug(card)) in shed:
                continue
            if not printing_holds(eff, edition):
                continue
            out.append(_tagged(eff, card, entry["iid"]))
    return out


def printing_holds(thing: dict, edition: Edition) -> bool:
    """Whether an effect (or power) of one printing of a card holds at this table: "box" under
    the printed rules, "current" under the publisher's current card (official updates)."""
    printing = thing.get("printing") if isinstance(thing, dict) else getattr(thing, "printing", None)
    return printing is None or (printing == "current") == edition.current_printings


def meets(cond: dict | None, player: Player, edition: Edition, *,
          roles: Iterable[str] | None = None, tags: Iterable[str] | None = None,
          skip: Iterable[str] = (), without_free: bool = False) -> bool:
    """Whether ``player`` meets every key of a condition: the one matcher of the rule
    vocabulary (an effect's ``if`` on a player's own card or on a monster, an item's keys).

    ``roles``/``tags`` are the fight's context; None means outside a fight, where a key that
    needs a role or a tag does not hold. ``skip`` names keys judged elsewhere (a monster's own
    tags). ``without_free`` leaves out the race or class a Half-Breed or Super Munchkin holds
    free of drawbacks, for a condition that would hurt the player. An unknown key never holds:
    a condition we cannot judge never silently applies.
    """
    my_races, my_classes = set(races(player, edition)), set(classes(player, edition))
    counted_races = my_races - {free_race(player, edition)} if without_free else my_races
    counted_classes = my_classes - {free_class(player, edition)} if without_free else my_classes
    for key, value in (cond or {}).items():
        if key in skip:
            continue
        wanted = set(as_list(value))
        if key == "race":
            ok = bool(wanted & counted_races)
        elif key == "class":
            ok = bool(wanted & counted_classes)
        elif key == "sex":
            ok = player.get("sex") in wanted
        elif key == "not_sex":
            ok = player.get("sex") not in wanted
        elif key == "not_race":
            ok = not wanted & my_races
        elif key == "not_class":
            ok = not wanted & my_classes
        elif key == "role":
            ok = roles is not None and bool(wanted & set(roles))
        elif key == "tag":
            ok = tags is not None and bool(wanted & set(tags))
        else:
            ok = False
        if not ok:
            return False
    return True


def effect_value(effect: Effect, player: Player, edition: Edition) -> int:
    """The effect's value, multiplied out when it counts the holder's empty hands."""
    value = effect.get("value", 0)
    if isinstance(value, bool):
        value = int(value)
    if effect.get("per") == "empty_hand":
        return value * empty_hands(player, edition)
    return value


def _stat_values(player: Player, edition: Edition, stat: str) -> list[int]:
    return [effect_value(e, player, edition) for e in active_effects(player, edition)
            if e.get("stat") == stat and meets(e.get("if"), player, edition)]


def hand_limit(player: Player, edition: Edition) -> int:
    """The edition's limit, or the largest ``hand_limit`` effect above it (a classic Dwarf)."""
    return max([edition.hand_limit, *_stat_values(player, edition, "hand_limit")])


def big_allowed(player: Player, edition: Edition) -> int:
    """How many Big items the player may carry: one unless an effect allows more (and any
    number in editions whose rulebook sets no limit)."""
    return _big_allowance(player, edition)


def _big_allowance(player: Player, edition: Edition) -> int:
    # From the race, class, ally and curse cards only: which items count depends on it, so
    # an item cannot raise it (no card in the catalogs does).
    if not edition.big_item_limit:
        return 99
    return max([1, *(effect_value(e, player, edition) for e in _character_effects(player, edition)
                     if e.get("stat") == "big_items" and meets(e.get("if"), player, edition))])


# ---------------------------------------------------------------- the sheet


def sheet(player: Player, edition: Edition) -> dict:
    """The derived character sheet shown with a player (see docs/ENGINE.md, public state).

    Only effects that hold outside a fight count here; role- and monster-dependent ones
    wait for ``combat.compute``.
    """
    rows = item_rows(player, edition)
    effects = active_effects(player, edition)
    steady = [e for e in effects if meets(e.get("if"), player, edition)]

    def total(stat: str, items: bool) -> int:
        return sum(effect_value(e, player, edition) for e in steady
                   if e.get("stat") == stat and (e["card_kind"] == "item") == items)

    gear = total("strength", True) + (player.get("gear_adjust") or 0)
    return {
        "races": races(player, edition),
        "classes": classes(player, edition),
        "half_breed": has_half_breed(player),
        "super_munchkin": has_super_munchkin(player),
        "items": [{k: v for k, v in r.items() if k != "card"} for r in rows + one_shot_rows(player)],
        "gear_bonus": gear,
        "combat_strength": (player.get("level") or 1) + gear + total("strength", False),
        "hand_limit": hand_limit(player, edition),
        "big_allowed": big_allowed(player, edition),
        "big_carried": sum(1 for r in rows if r["big"]),
        "big_over": sum(1 for r in rows if r["over_big_limit"]),
        "run_away": sum(effect_value(e, player, edition) for e in steady
                        if e.get("stat") == "run_away"),
        "wins_ties": any(e.get("stat") == "wins_ties" and e.get("value", True) for e in steady),
        "allies": [{"iid": e["iid"], "name": e["card"].get("name")}
                   for e in cards_of(player, "ally")],
        "curses": [{"iid": e["iid"], "name": e["card"].get("name"),
                    "duration": e["card"].get("duration", "lasting")}
                   for e in cards_of(player, "curse")],
        "empty_hands": empty_hands(player, edition),
        "death": death_view(player, edition),
        "drawbacks_shed": drawbacks_shed(player, edition),
    }


# The ruling behind a lone class with Super Munchkin shedding its drawbacks (Oz, Russia, Tails).
LONE_CLASS_RULE = "single-race-no-drawbacks"


def drawbacks_shed(player: Player, edition: Edition) -> list[dict]:
    """The race or class card whose drawbacks the player sheds (a lone race with Half-Breed, a
    lone class with Super Munchkin), each with the rule id that says so (for the sheet)."""
    out = []
    race = free_race(player, edition)
    if race is not None:
        out.append({"kind": "race", "slug": race, "rule": edition.half_breed_rule})
    klass = free_class(player, edition)
    if klass is not None:
        out.append({"kind": "class", "slug": klass, "rule": LONE_CLASS_RULE})
    return out


def death_view(player: Player, edition: Edition) -> dict | None:
    """What a dead player's sheet says (None while alive): that they are dead, what the rules
    refuse them until their new character appears, each with the rule id the engine refuses
    with, and what they draw on their next turn. (Oz, Tails: Death.)"""
    if not player.get("dead"):
        return None
    return {
        "dead": True,
        "text": said(N_("%(name)s is dead: a new character appears when the next player's "
                        "turn begins."), name=player_name(player), sex=player.get("sex")),
        "may_not": [
            {"rule": "dead-no-cards",
             "text": said(N_("receive cards: none played in front of them, no gifts, no Charity"),
                          sex=player.get("sex"))},
            {"rule": "dead-no-cards", "text": said(N_("go up a level or win the game"))},
            {"rule": "dead-cannot-help", "text": said(N_("fight or help in a fight"))},
        ],
        # the new hand their death left owed (death.kill: the table's variants count)
        "next_turn": said_plural("on their next turn they draw %(n)s card from each deck",
                                 "on their next turn they draw %(n)s cards from each deck",
                                 (player.get("redraw") or 2 * edition.dead_redraw) // 2,
                                 sex=player.get("sex")),
    }


# ---------------------------------------------------------------- checks


def check_play(player: Player, card: Card, edition: Edition) -> None:
    """Refuse (RuleViolation) a card the rules do not let this player put in front of them."""
    check = _PLAY_CHECKS.get(card.get("kind"))
    if check is not None:
        check(player, card, edition, player_name(player))


def _check_race(player: Player, card: Card, edition: Edition, who: str | dict) -> None:
    """A race the edition has, not one already held, a second one only with Half-Breed."""
    if not edition.races:
        raise RuleViolation("no-races-in-edition", N_("%(edition)s has no races"),
                            edition=said(edition.name))
    slug = card_slug(card)
    mine = [card_slug(c) for c in race_cards(player)]
    if slug in mine:
        race = title(slug)
        raise RuleViolation("no-duplicate-card", a_or_an(
            race, N_("%(name)s is already a %(race)s"), N_("%(name)s is already an %(race)s")),
            name=who, sex=player.get("sex"), race=race)
    if len(mine) >= 2:
        raise RuleViolation("race-limit", N_("%(name)s already has two races"), name=who, sex=player.get("sex"))
    if len(mine) == 1 and not has_half_breed(player):
        race = title(mine[0])
        raise RuleViolation("race-limit", a_or_an(
            race, N_("%(name)s is already a %(race)s and has no Half-Breed"),
            N_("%(name)s is already an %(race)s and has no Half-Breed")), name=who, sex=player.get("sex"), race=race)


def _check_class(player: Player, card: Card, edition: Edition, who: str | dict) -> None:
    """A class not already held, a second one only with Super Munchkin."""
    slug = card_slug(card)
    mine = [card_slug(c) for c in class_cards(player)]
    if slug in mine:
        raise RuleViolation("no-duplicate-card", N_("%(name)s already has %(card)s"),
                            name=who, sex=player.get("sex"), card=title(slug))
    if len(mine) >= 2:
        raise RuleViolation("class-limit", N_("%(name)s already has two classes")
                            if edition.class_word == "class"
                            else N_("%(name)s already has two clubs"), name=who, sex=player.get("sex"))
    if len(mine) == 1 and not has_super_munchkin(player):
        raise RuleViolation("class-limit", N_("%(name)s already has %(card)s and no Super Munchkin"),
                            name=who, sex=player.get("sex"), card=title(mine[0]))


def _check_half_breed(player: Player, card: Card, edition: Edition, who: str | dict) -> None:
    if not edition.half_breed:
        raise RuleViolation("no-half-breed-in-edition", N_("%(edition)s has no Half-Breed"),
                            edition=said(edition.name))
    if has_half_breed(player):
        raise RuleViolation("no-duplicate-card", N_("%(name)s already has Half-Breed"), name=who, sex=player.get("sex"))
    if not race_cards(player):
        raise RuleViolation("half-breed-needs-race", N_("%(name)s has no race card"), name=who, sex=player.get("sex"))


def _check_super_munchkin(player: Player, card: Card, edition: Edition, who: str | dict) -> None:
    if not edition.super_munchkin:
        raise RuleViolation("no-super-munchkin-in-edition",
                            N_("%(edition)s has no Super Munchkin"), edition=said(edition.name))
    if has_super_munchkin(player):
        raise RuleViolation("no-duplicate-card", N_("%(name)s already has Super Munchkin"),
                            name=who, sex=player.get("sex"))
    if not class_cards(player):
        raise RuleViolation("super-munchkin-needs-class", N_("%(name)s has no class card")
                            if edition.class_word == "class"
                            else N_("%(name)s has no club card"), name=who, sex=player.get("sex"))


def _check_ally(player: Player, card: Card, edition: Edition, who: str | dict) -> None:
    if not edition.allies:
        raise RuleViolation("no-allies-in-edition", N_("%(edition)s has no allies"),
                            edition=said(edition.name))
    ally = cards_of(player, "ally")
    if ally:
        if ally[0]["card"].get("name"):
            raise RuleViolation("ally-limit", N_("%(name)s already has %(card)s"),
                                name=who, sex=player.get("sex"), card=ally[0]["card"]["name"])
        raise RuleViolation("ally-limit", N_("%(name)s already has an ally"), name=who, sex=player.get("sex"))


def _check_item(player: Player, card: Card, edition: Edition, who: str | dict) -> None:
    """A Big item only while the player may carry one more."""
    if not card.get("big"):
        return
    carried = sum(1 for e in cards_of(player, "item") if e["card"].get("big"))
    allowed = big_allowed(player, edition)
    if carried + 1 > allowed:
        raise RuleViolation("big-item-limit", said_plural("%(name)s already carries %(n)s Big item; %(card)s would be one too many", "%(name)s already carries %(n)s Big items; %(card)s would be one too many",
            carried, name=who, sex=player.get("sex"), card=card.get("name", "?")))


# What each kind of card must satisfy to be put in front of a player (other kinds: nothing).
_PLAY_CHECKS = {"race": _check_race, "class": _check_class, "half-breed": _check_half_breed,
                "super-munchkin": _check_super_munchkin, "ally": _check_ally, "item": _check_item}


def _find(player: Player, iid: Any) -> dict:
    for entry in player.get("cards", []):
        if entry["iid"] == iid:
            return entry
    raise BadAction(N_("%(name)s has no card %(iid)s"), name=player_name(player), sex=player.get("sex"), iid=iid)


def _equip_args(equipped: Any, edition: Edition | None) -> tuple[bool, Edition]:
    # Both check_equip(player, iid, equipped, edition) and check_equip(player, iid, edition)
    # (meaning "equip it") are accepted, as the reducers call the short form.
    if edition is None:
        if not isinstance(equipped, Edition):
            raise TypeError("check_equip needs an edition")
        return True, equipped
    return bool(equipped), edition


def check_equip(player: Player, iid: Any, equipped: Any = True,
                edition: Edition | None = None) -> None:
    """Refuse equipping an item when its slot is already full (unequipping is always fine)."""
    equipped, edition = _equip_args(equipped, edition)
    entry = _find(player, iid)
    card = entry["card"]
    if card.get("kind") != "item":
        if card.get("name"):
            raise BadAction(N_("%(card)s is not an item"), card=card["name"])
        raise BadAction(N_("That card is not an item"))
    if not equipped:
        return
    slot = card.get("slot") or "other"
    others = [e["card"] for e in cards_of(player, "item") if e.get("equipped") and e["iid"] != iid]
    who = player_name(player)
    if slot in SINGLE_SLOTS:
        same = [c for c in others if c.get("slot") == slot]
        if same:
            raise RuleViolation("equip-slot-limit", SLOT_WORN[slot], name=who, sex=player.get("sex"),
                                card=same[0].get("name", "?"))
    elif slot in HAND_SLOTS:
        hands = sum(HAND_SLOTS.get(c.get("slot"), 0) for c in others)
        if hands + HAND_SLOTS[slot] > 2:
            held = ", ".join(c.get("name", "?") for c in others if c.get("slot") in HAND_SLOTS)
            raise RuleViolation("equip-slot-limit", N_("%(name)s's hands are full (%(cards)s)"),
                                name=who, sex=player.get("sex"), cards=held)


def warnings_for_equip(player: Player, iid: Any, equipped: Any = True,
                       edition: Edition | None = None) -> list[dict]:
    """Things to tell the player before equipping: an item it cannot use gives no bonus.

    Returns ``[{"rule": "item-user-restriction", "detail": ...}]`` (empty when all is well);
    the item can still be equipped, it just counts for nothing until the restriction holds.
    """
    equipped, edition = _equip_args(equipped, edition)
    entry = _find(player, iid)
    if not equipped or entry["card"].get("kind") != "item":
        return []
    why = usable(entry["card"], player, edition)
    if why is None:
        return []
    return [{"rule": "item-user-restriction",
             "detail": said(N_("%(card)s: %(why)s, so it gives %(name)s no bonus"),
                            card=entry["card"].get("name", "?"), why=why,
                            name=player_name(player), sex=player.get("sex"))}]


def discard_cleanup(player: Player, edition: Edition, removed: Card | None = None) -> list[Any]:
    """After a race or class card has left ``player``, the iids that must go with it.

    Half-Breed goes when no race card is left; Super Munchkin when no class card is left,
    or in classic as soon as either class card goes (pass the card that left as
    ``removed``).
    """
    drop = []
    if has_half_breed(player) and not race_cards(player):
        drop += [e["iid"] for e in cards_of(player, "half-breed")]
    if has_super_munchkin(player):
        lost_one = (edition.super_munchkin_lost_with_either_class and removed is not None
                    and removed.get("kind") == "class")
        if lost_one or not class_cards(player):
            drop += [e["iid"] for e in cards_of(player, "super-munchkin")]
    return drop
