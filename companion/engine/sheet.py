"""Rules that change what lies in front of a player: curses, discards, selling, death, Charity.

``character`` computes what a sheet adds up to; this module holds the few rules that move
cards and numbers, so the reducers in ``actions`` stay one screen each.
"""

from __future__ import annotations

import random
from typing import Any

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
           "small": N_("%(name)s has no small item"),
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


# The facts of a curse card the engine carries out: here, and a kept curse's effects and bonus.
CURSE_FACTS = ("lose_levels", "change_sex", "lose_slot", "effects", "bonus")


def apply_curse(player: dict, card: dict, edition: Edition) -> dict:
    """What a curse does to its victim; a curse on something the victim lacks does nothing
    (``nothing`` is then why, a said); ``by_hand``: no fact of the card says what it does
    (Lose Your Race, Income Tax), so the table does it.

    ``candidates`` are the items the curse may take (classic, Curses: the victim picks when
    there are several); ``take`` is the one it takes at once when there is only one. A curse
    on headgear, armor or footgear takes the one worn (equipped); a "small item" curse never
    takes a Big one.
    """
    duration = card.get("duration", "once")
    outcome = {"levels": 0, "change_sex": bool(card.get("change_sex")),
               "keep": duration in ("next_fight", "lasting"), "candidates": [], "take": None,
               "nothing": None, "by_hand": not any(card.get(k) for k in CURSE_FACTS)}
    wanted = card.get("lose_levels", 0)
    if wanted:
        outcome["levels"] = min(wanted, player["level"] - 1)
        if not outcome["levels"] and not outcome["keep"]:
            outcome["nothing"] = said(N_("%(name)s is already level 1"), name=player["name"], sex=player.get("sex"))
    slot = card.get("lose_slot")
    if slot:
        outcome["candidates"] = curse_candidates(player, slot)
        if len(outcome["candidates"]) == 1:
            outcome["take"] = outcome["candidates"][0]
        if not outcome["candidates"]:
            outcome["nothing"] = said(NO_ITEM.get(slot, NO_ITEM["any"]), name=player["name"], sex=player.get("sex"))
    return outcome


def curse_candidates(player: dict, slot: str) -> list[dict]:
    """The items in front of ``player`` a curse taking ``slot`` could take."""
    items = [c for c in player["cards"] if c["card"]["kind"] == "item"]
    if slot == "big":
        return [c for c in items if c["card"].get("big")]
    if slot == "small":
        return [c for c in items if not c["card"].get("big")]
    if slot == "any":
        return items
    if slot in character.SINGLE_SLOTS:
        return [c for c in items if c["card"].get("slot") == slot and c.get("equipped")]
    return [c for c in items if (c["card"].get("slot") or "other") == slot]


# --- an item a curse takes, when the victim has to pick it ----------------------------------
# Stored on the victim as ``pending_losses``: [{"card": curse name, "candidates": [iid, ...]}].
# The victim settles one by discarding one of its candidates; until then those items may not
# be sold or given away (rule ``curse-pick-first``), and no item may be equipped or unequipped
# (rule ``curse-no-swap``).


def owe_loss(player: dict, curse: dict, candidates: list[dict]) -> None:
    player.setdefault("pending_losses", []).append(
        {"card": curse.get("name", "?"), "candidates": [c["iid"] for c in candidates]})


def settle_losses(player: dict, gone: set) -> list[str]:
    """The victim discards the cards ``gone`` (iids; call it before they leave): each pending
    loss one of them is a candidate of is settled (one loss per card). Candidates no longer in
    front of the player are dropped, and a loss with none left lapses. Returns the names of
    the curses settled."""
    if not player.get("pending_losses"):
        return []
    gone = set(gone)
    settled, kept = [], []
    present = {c["iid"] for c in player["cards"]}
    for loss in player.get("pending_losses") or []:
        hit = next((i for i in loss["candidates"] if i in gone), None)
        if hit is not None:
            gone.discard(hit)
            settled.append(loss["card"])
            continue
        left = [i for i in loss["candidates"] if i in present]
        if left:
            kept.append({"card": loss["card"], "candidates": left})
    if kept:
        player["pending_losses"] = kept
    else:
        player.pop("pending_losses", None)
    return settled


def check_not_owed(player: dict, iids: list) -> None:
    """Refuse selling or giving away an item a curse may still take (the victim picks first)."""
    for loss in player.get("pending_losses") or []:
        owed = [c["card"]["name"] for c in player["cards"]
                if c["iid"] in loss["candidates"] and c["iid"] in iids]
        if owed:
            raise RuleViolation("curse-pick-first", N_("%(name)s must first pick the item %(curse)s "
                                                       "takes (%(card)s is one it may take)"),
                                name=player["name"], sex=player.get("sex"), curse=loss["card"], card=owed[0])


def check_no_pick_waiting(player: dict) -> None:
    """Refuse changing which items are worn while a curse's pick is still waiting on
    ``player`` (rule ``curse-no-swap``): the curse takes what was worn when it was played, and
    the worn items stay as they are until the victim has picked. Only the flag is read."""
    losses = player.get("pending_losses")
    if losses:
        raise RuleViolation("curse-no-swap", N_("%(name)s must first pick the item %(curse)s takes: "
                                                "worn items stay as they are until then"),
                            name=player["name"], sex=player.get("sex"), curse=losses[0]["card"])


def pending_losses_view(player: dict) -> list[dict]:
    """The losses a victim still has to pick, for the sheet: the curse, the items, a said."""
    names = {c["iid"]: c["card"].get("name", "?") for c in player["cards"]}
    out = []
    for loss in player.get("pending_losses") or []:
        cards = [{"iid": i, "name": names[i]} for i in loss["candidates"] if i in names]
        out.append({"card": loss["card"], "candidates": cards,
                    "text": said(N_("%(curse)s: %(name)s discards one of %(cards)s (their pick)"),
                                 curse=loss["card"], name=player["name"], sex=player.get("sex"),
                                 cards=", ".join(c["name"] for c in cards))})
    return out


def check_big_extra_receiver(state: dict, giver: dict, entry: dict, receiver: dict,
                             edition: Edition) -> None:
    """A Big item past the giver's limit (an ex-Dwarf's) goes to the lowest-level player who
    can carry it (classic, Items; Oz, Russia: Big Items)."""
    if not entry["card"].get("big"):
        return  # only a Big item can be over the limit (and this runs for every give allowed() tries)
    over = {r["iid"] for r in character.item_rows(giver, edition) if r["over_big_limit"]}
    if entry["iid"] not in over:
        return
    able = []
    for other in state["players"]:
        if other["id"] == giver["id"] or other["dead"]:
            continue
        try:
            character.check_play(other, entry["card"], edition)
        except RuleViolation:
            continue
        able.append(other)
    lowest = min((p["level"] for p in able), default=receiver["level"])
    if receiver["level"] > lowest:
        raise RuleViolation("lose-big-item-ability",
                            N_("%(card)s must go to the lowest-level player who can carry it: "
                               "%(names)s"), card=entry["card"]["name"],
                            names=", ".join(p["name"] for p in able if p["level"] == lowest))


def discard(player: dict, iid: int, edition: Edition) -> list[dict]:
    """Remove a card and whatever falls with it (Half-Breed without a race, ...)."""
    entry = next(c for c in player["cards"] if c["iid"] == iid)
    player["cards"].remove(entry)
    dropped = [entry]
    falling = set(character.discard_cleanup(player, edition, removed=entry["card"]))
    for other in [c for c in player["cards"] if c["iid"] in falling]:
        player["cards"].remove(other)
        dropped.append(other)
    settle_losses(player, set())  # a curse's pick no longer offers what is gone (Bad Stuff, ...)
    return dropped


SELLABLE = ("item", "one-shot")  # one-shots with a gold value sell like items (Oz, Tails)
DOUBLE_SALE_RACE = "halfling"  # classic: one item a turn sold at double its price


def sale(player: dict, entries: list[dict], edition: Edition, *, hand_gold: int = 0,
         doubled: Any = None) -> dict:
    """Gold from selling items: a level per whole thousand, no change given.

    A No Value item counts as zero gold (Oz, Tails: Selling Items for Levels). ``doubled`` is
    the instance id of the one item a Halfling sells at double its price (checked by
    ``check_double_sale``).
    """
    gold = hand_gold
    no_value = []
    for entry in entries:
        card = entry["card"]
        if card["kind"] not in SELLABLE:
            raise BadAction(N_("%(card)s is not an item; only items are sold."), card=card["name"])
        if "gold" not in card:
            raise BadAction(N_("The catalog does not know what %(card)s is worth: discard it and "
                               "enter the gold printed on your card as gold sold from the hand."),
                            card=card["name"])
        if card["gold"] is None:
            no_value.append(card["name"])
            continue
        gold += card["gold"] * (2 if doubled is not None and entry["iid"] == doubled else 1)
    if gold < GOLD_PER_LEVEL:
        raise RuleViolation("sell-no-change", N_("%(gold)s gold is not enough for a level"),
                            gold=gold)
    return {"gold": gold, "levels": gold // GOLD_PER_LEVEL, "wasted": gold % GOLD_PER_LEVEL,
            "no_value": no_value}


def check_double_sale(state: dict, player: dict, entry: dict, edition: Edition) -> None:
    """A Halfling may sell one item a turn at double its price (classic, Items; the Halfling
    card): refuse a doubled item from anyone else, a second one in the same turn, and one
    worth nothing (No Value doubles to zero)."""
    if DOUBLE_SALE_RACE not in character.races(player, edition):
        raise RuleViolation("halfling-double-sale", N_("%(name)s is not a Halfling"),
                            name=player["name"], sex=player.get("sex"))
    if double_sale_used(state, player):
        raise RuleViolation("halfling-double-sale",
                            N_("%(name)s already sold an item at double price this turn"),
                            name=player["name"], sex=player["sex"])
    if not entry["card"].get("gold"):
        raise BadAction(N_("%(card)s is worth no gold, so doubling it gains nothing."),
                        card=entry["card"]["name"])


def double_sale_used(state: dict, player: dict) -> bool:
    """Whether ``player`` already doubled a sale in the current turn (turns are counted by
    ``core.begin_turn``)."""
    return player.get("doubled_sale_turn") == state.get("turn_count", 0)


def double_sale_open(state: dict, player: dict, edition: Edition) -> bool:
    """Whether a sale by ``player`` may now mark one item doubled (for the sheet)."""
    return (DOUBLE_SALE_RACE in character.races(player, edition) and state["turn"] == player["id"]
            and not player["dead"] and not double_sale_used(state, player))


def death(player: dict, edition: Edition) -> list[dict]:
    """A dead player loses items (one-shots on the table too), allies and the hand; keeps
    level, races, classes, curses."""
    lost = [c for c in player["cards"] if c["card"]["kind"] in ("item", "one-shot", "ally")]
    player["cards"] = [c for c in player["cards"] if c not in lost]
    player["hand"] = 0
    player["gear_adjust"] = 0
    player.pop("pending_losses", None)  # the items a curse could take are gone with the rest
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
    limit = character.hand_limit(giver, edition)  # what the sheet shows, without the rest of it
    excess = max(0, (giver.get("hand") or 0) - limit)  # a hand not counted (None): nothing known over it
    result = {"excess": excess, "gifts": {}, "discarded": 0, "text": None, "limit": limit}
    if not excess:
        return result
    others = [p for p in state["players"] if p["id"] != giver["id"] and not p["dead"]]
    lowest = min((p["level"] for p in others), default=None)
    if lowest is None or giver["level"] <= lowest:
        result["discarded"] = excess
        result["text"] = said_plural("Charity: %(name)s is the lowest level, so the %(n)s extra card is discarded", "Charity: %(name)s is the lowest level, so the %(n)s extra cards are discarded",
            excess, name=giver["name"], sex=giver.get("sex"))
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
