"""Rules that change what lies in front of a player: curses, discards, selling, death, Charity.

``character`` computes what a sheet adds up to; this module holds the few rules that move
cards and numbers, so the reducers in ``actions`` stay one screen each.
"""

from __future__ import annotations

import random

from . import character
from .editions import Edition
from .errors import BadAction, RuleViolation
from .words import N_, said, said_plural

GOLD_PER_LEVEL = 1000
# why a curse that takes an item does nothing: the victim has no item of that kind
NO_ITEM = {"headgear": N_("%(name)s has no headgear item"),
           "armor": N_("%(name)s has no armor item"),
           "footgear": N_("%(name)s has no footgear item"),
           "1-hand": N_("%(name)s has no 1 hand item"),
           "2-hands": N_("%(name)s has no 2 hands item"),
           "hand": N_("%(name)s has no hand item"),
           "big": N_("%(name)s has no big item"),
           "other": N_("%(name)s has no other item"),
           "any": N_("%(name)s has no item")}


def can_equip_now(player: dict, card: dict, edition: Edition) -> bool:
    """A newly played item is equipped when a slot is free, else it is only carried."""
    probe = dict(player, cards=player["cards"] + [{"iid": -1, "card": card, "equipped": False}])
    try:
        character.check_equip(probe, -1, edition)
    except RuleViolation:
        return False
    return True


def apply_curse(player: dict, card: dict, edition: Edition) -> dict:
    """What a curse does to its victim; a curse on something the victim lacks does nothing
    (``nothing`` is then why, a said)."""
    duration = card.get("duration", "once")
    outcome = {"levels": 0, "change_sex": bool(card.get("change_sex")),
               "keep": duration in ("next_fight", "lasting"), "candidates": [], "nothing": None}
    wanted = card.get("lose_levels", 0)
    if wanted:
        outcome["levels"] = min(wanted, player["level"] - 1)
        if not outcome["levels"] and not outcome["keep"]:
            outcome["nothing"] = said(N_("%(name)s is already level 1"), name=player["name"])
    slot = card.get("lose_slot")
    if slot:
        items = [c for c in player["cards"] if c["card"]["kind"] == "item"]
        if slot == "big":
            outcome["candidates"] = [c for c in items if c["card"].get("big")]
        elif slot == "any":
            outcome["candidates"] = items
        else:
            outcome["candidates"] = [c for c in items if c["card"].get("slot") == slot]
        if not outcome["candidates"]:
            outcome["nothing"] = said(NO_ITEM.get(slot, NO_ITEM["any"]), name=player["name"])
    return outcome


def discard(player: dict, iid: int, edition: Edition) -> list[dict]:
    """Remove a card and whatever falls with it (Half-Breed without a race, ...)."""
    entry = next(c for c in player["cards"] if c["iid"] == iid)
    player["cards"].remove(entry)
    dropped = [entry]
    falling = set(character.discard_cleanup(player, edition, removed=entry["card"]))
    for other in [c for c in player["cards"] if c["iid"] in falling]:
        player["cards"].remove(other)
        dropped.append(other)
    return dropped


def sale(player: dict, entries: list[dict], edition: Edition, *, hand_gold: int = 0) -> dict:
    """Gold from selling items: a level per whole thousand, no change given."""
    gold = hand_gold
    for entry in entries:
        card = entry["card"]
        if card["kind"] != "item":
            raise BadAction(N_("%(card)s is not an item; only items are sold."), card=card["name"])
        if "gold" not in card:
            raise BadAction(N_("The catalog does not know what %(card)s is worth: discard it and "
                               "enter the gold printed on your card as gold sold from the hand."),
                            card=card["name"])
        if card["gold"] is None:
            raise RuleViolation("sell-no-value", N_("%(card)s has no gold value"), card=card["name"])
        gold += card["gold"]
    if gold < GOLD_PER_LEVEL:
        raise RuleViolation("sell-no-change", N_("%(gold)s gold is not enough for a level"),
                            gold=gold)
    return {"gold": gold, "levels": gold // GOLD_PER_LEVEL, "wasted": gold % GOLD_PER_LEVEL}


def death(player: dict, edition: Edition) -> list[dict]:
    """A dead player loses items, allies and the hand; keeps level, races, classes, curses."""
    lost = [c for c in player["cards"] if c["card"]["kind"] in ("item", "ally")]
    player["cards"] = [c for c in player["cards"] if c not in lost]
    player["hand"] = 0
    player["gear_adjust"] = 0
    return lost


def looting_order(state: dict, corpse: dict, rng: random.Random) -> list[int]:
    """Highest level loots first; players tied on level are ordered by a die."""
    others = [p for p in state["players"] if p["id"] != corpse["id"] and not p["dead"]]
    rolls = {p["id"]: rng.randint(1, 6) for p in others}
    return [p["id"] for p in sorted(others, key=lambda p: (-p["level"], -rolls[p["id"]]))]


def charity(state: dict, giver: dict, edition: Edition, *, order: list | None = None) -> dict:
    """Where the cards over the hand limit go at the end of a turn.

    The lowest-level living player(s) share them as evenly as possible (the giver chooses who
    gets the bigger shares: ``order``, else seat order); a giver who is lowest or tied for
    lowest discards them. In Russia each Oligarch first takes one card of the excess.
    ``text`` says what happens (a said; None when the hand is within the limit).
    """
    limit = character.sheet(giver, edition)["hand_limit"]
    excess = max(0, giver["hand"] - limit)
    result = {"excess": excess, "gifts": {}, "discarded": 0, "text": None, "limit": limit}
    if not excess:
        return result
    others = [p for p in state["players"] if p["id"] != giver["id"] and not p["dead"]]
    lowest = min((p["level"] for p in others), default=None)
    if lowest is None or giver["level"] <= lowest:
        result["discarded"] = excess
        result["text"] = said_plural("Charity: %(name)s is the lowest level, so the %(n)s extra card is discarded", "Charity: %(name)s is the lowest level, so the %(n)s extra cards are discarded",
            excess, name=giver["name"])
        return result
    pool = excess
    gifts: dict[int, int] = {}
    if edition.charity_oligarchs_first:
        for p in others:
            if pool and "oligarch" in character.classes(p, edition):
                gifts[p["id"]] = gifts.get(p["id"], 0) + 1
                pool -= 1
    receivers = [p for p in others if p["level"] == lowest]
    if order:
        rank = {pid: i for i, pid in enumerate(order)}
        receivers.sort(key=lambda p: rank.get(p["id"], len(rank)))
    share, extra = divmod(pool, len(receivers))
    for i, p in enumerate(receivers):
        count = share + (1 if i < extra else 0)
        if count:
            gifts[p["id"]] = gifts.get(p["id"], 0) + count
    by_id = {p["id"]: p["name"] for p in others}
    result["gifts"] = gifts
    result["text"] = said(N_("Charity: %(gifts)s"), gifts=[
        said_plural("%(n)s card to %(to_name)s", "%(n)s cards to %(to_name)s", n,
                    to=pid, to_name=by_id[pid])
        for pid, n in gifts.items()])
    return result
