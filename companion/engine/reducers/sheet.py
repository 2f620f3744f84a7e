"""The character sheet: playing cards in front of you, curses, equipping, selling, giving, death."""

from __future__ import annotations

from .. import character, looting, sheet
from . import divine
from ..core import Context, check_level, checks, in_fight, level_event, own, reducer, set_level
from ..errors import BadAction, Forbidden, RuleViolation
from ..death import kill
from ..hand import add_to_hand, card_source, take_from_hand
from ..action_models import OneShotAction
from ..state import check_not_dead, find_card, find_player, next_id
from ..words import N_, event, event_words, said, said_plural

event_words("play", N_("%(name)s plays %(card)s"))
event_words("play_equipped", N_("%(name)s plays %(card)s (equipped)"))
event_words("play_carried", N_("%(name)s plays %(card)s (carried)"))


def playing_seat(state: dict, actor) -> dict | None:
    """The player whose hand a card played by ``actor`` leaves: the seat that sends it. The
    host's phone plays for everyone and is no seat, so its cards leave no hand."""
    return next((p for p in state["players"] if p["id"] == actor.player), None)


def door_opened(state: dict) -> None:
    """A card came from the door deck this turn: the door has been kicked open (the phone's
    "Kick open the door" goes; ``turn_count`` tells this turn from the next)."""
    state["door_opened"] = state.get("turn_count", 0)


def check_card_leaves(state: dict, action, card: dict, holder: dict | None, default: str) -> str:
    """Whether the played ``card`` may leave where the action says it came from (read only;
    ``card_leaves`` carries it out): a body's card is a pick of that body's looting."""
    source = card_source(action, default)
    if source == "body":
        if holder is None:
            raise BadAction(N_("A card from a body is taken by a player: play it from that player's phone."))
        body = looting.find_body(state, getattr(action, "body", None))
        looting.check_take(state, body, holder, card_id=card.get("id") if card.get("set") != "house" else None,
                           unseen=True)
    return source


def card_leaves(state: dict, action, card: dict, holder: dict | None, default: str) -> str:
    """The played ``card`` leaves where it came from (``hand.card_source``, answered):
    ``holder``'s hand, the door (nothing to count), or a dead player's body, where it spends
    ``holder``'s pick of the looting (engine/looting.py)."""
    source = check_card_leaves(state, action, card, holder, default)
    if source == "door":
        door_opened(state)
    if source == "hand":
        take_from_hand(holder)
    elif source == "body":
        body = looting.find_body(state, getattr(action, "body", None))
        looting.take(state, body, holder, card_id=card.get("id") if card.get("set") != "house" else None,
                     unseen=True)
        _end_looting_if_done(state, body)
    return source


def _end_looting_if_done(state: dict, body: dict) -> None:
    if looting.done(body):
        looting.close(state, body)


@checks("play")
def _play_check(state, action, actor, ctx):
    target = find_player(state, action.player)
    card = ctx.card(state, action.card)
    _check_put(state, target, card, actor, ctx)
    check_card_leaves(state, action, card, *_leaves(state, action, card, target, actor))


@reducer("play")
def _play(state, action, actor, ctx):
    target = find_player(state, action.player)
    card = ctx.card(state, action.card)
    happened = _put(state, target, card, actor, ctx)
    card_leaves(state, action, card, *_leaves(state, action, card, target, actor))
    return happened


def _leaves(state: dict, action, card: dict, target: dict, actor) -> tuple[dict | None, str]:
    """(whose hand or pick the played card leaves, where it comes from unless said). What a
    table mostly means: a card comes from the hand, but for a curse on oneself (the door just
    kicked open: ruling curse-from-door) and Divine Intervention (played as soon as it is
    drawn), which come from the door."""
    from_door = (divine.is_divine_intervention(card)
                 or (card["kind"] == "curse" and actor.player == target["id"]))
    holder = target if card_source(action, "door") == "body" else _hand_of(state, card, target, actor)
    return holder, "door" if from_door else "hand"


def _hand_of(state: dict, card: dict, target: dict, actor) -> dict | None:
    """Whose hand a played card leaves. A curse: the caster's, the seat that plays it (the
    host's phone is no seat: nobody's). A Go Up a Level: the seat's that plays it, from the
    host's phone the player's it raises (mostly played on oneself). Anything else goes in
    front of its owner from the owner's hand, whoever taps it in for them."""
    seat = playing_seat(state, actor)
    if card["kind"] == "curse" or (card["kind"] == "go-up-a-level" and seat is not None):
        return seat
    return target


def _check_put(state: dict, target: dict, card: dict, actor, ctx: Context) -> None:
    """Whether the card may go where its kind goes (read only)."""
    kind = card["kind"]
    # A curse or a Go Up a Level may be played on anyone; everything else goes in front of
    # its owner, so only that player (or the host) may put it there.
    if kind not in ("curse", "go-up-a-level") and not actor.may_act_for(target["id"]):
        raise Forbidden(N_("Only %(name)s or the host can put cards in front of %(name)s."),
                        name=target["name"], sex=target["sex"])
    if kind == "go-up-a-level":
        check_level(state, target, target["level"] + card.get("levels", 1), "card", ctx.rules)
        return
    if kind == "curse":  # a card played on them: the dead receive none (the official FAQ's reading)
        check_not_dead(target)
        return
    if divine.is_divine_intervention(card):
        return
    fighting = in_fight(state) and state["combat"]["fighter"] == target["id"]
    # A one-shot may lie on the table in front of its owner, to be sold or played later
    # (Tails, One-Shot Treasures); in the owner's own fight it goes straight into the fight.
    if kind in ("monster", "enhancer") or (kind == "one-shot" and fighting):
        raise BadAction(PLAY_IN_FIGHT[kind], card=card["name"])
    check_not_dead(target)
    in_the_fight = in_fight(state) and target["id"] in (state["combat"]["fighter"], state["combat"].get("helper"))
    if kind == "item" and in_the_fight:  # the fighter and the helper alike (Oz, Tails: Combat)
        raise RuleViolation("no-equip-in-combat", N_("items cannot be brought into a fight already on"))
    if kind in RACE_AND_CLASS and in_fight(state) and state["turn"] != target["id"]:
        on_turn = find_player(state, state["turn"])
        raise RuleViolation("play-class-timing", N_("during a fight only %(turn)s, whose turn it is, "
                                                    "may play a new race or class"),
                            turn=on_turn["name"], sex=on_turn["sex"])
    character.check_play(target, card, ctx.edition)


def _put(state: dict, target: dict, card: dict, actor, ctx: Context) -> dict:
    """The card goes where its kind goes (``_check_put`` said it may); the event says what it did."""
    kind = card["kind"]
    if kind == "go-up-a-level":
        old = target["level"]
        set_level(state, target, old + card.get("levels", 1), "card", ctx.rules)
        return level_event(target, old, "card", card["name"])  # the card names itself
    if kind == "curse":
        return _curse(state, target, card, ctx)
    if divine.is_divine_intervention(card):
        return divine.play(state, card, ctx)
    entry = {"iid": next_id(state), "card": card}
    if kind in ("item", "one-shot"):
        # While a curse's pick waits, worn items stay as they are (rule curse-no-swap): a new
        # item is carried, and may be put on once the victim has picked.
        entry["equipped"] = (kind == "item" and not target.get("pending_losses")
                             and sheet.can_equip_now(target, card, ctx.edition))
    target["cards"].append(entry)
    how = ("play_equipped" if entry.get("equipped")
           else "play_carried" if kind in ("item", "one-shot") else "play")
    return event(how, player=target["id"], name=target["name"], sex=target.get("sex"), card=card["name"], iid=entry["iid"])


# Played in a fight only on one's own turn (classic, Classes and Races; the newer rulebooks,
# When You May Take Actions): a helper cannot turn into a Dog halfway through.
RACE_AND_CLASS = ("race", "class", "half-breed", "super-munchkin")

PLAY_IN_FIGHT = {"monster": N_("%(card)s is a monster: play it into a fight instead."),
                 "enhancer": N_("%(card)s is an enhancer: play it into a fight instead."),
                 "one-shot": N_("%(card)s is a one-shot: play it into a fight instead.")}

def one_shot_card(state: dict, action: OneShotAction, actor, ctx: Context) -> dict:
    """The card a ``one_shot`` action plays (``find_one_shot``); one lying on the table
    leaves it as it is played (Tails, One-Shot Treasures: from the hand or from the table)."""
    card = find_one_shot(state, action, actor, ctx)
    if action.instance is not None:
        owner = find_player(state, action.player)
        owner["cards"].remove(find_card(owner, action.instance))
    return card


def find_one_shot(state: dict, action: OneShotAction, actor, ctx: Context) -> dict:
    """The card a ``one_shot`` action names, read only: ``card`` (from the hand), or
    ``player`` and ``instance``, a one-shot lying on the table in front of that player."""
    if action.instance is None:
        if action.player is not None:
            raise BadAction(N_("Name the one-shot on the table ('instance') or the card played ('card')."))
        return ctx.card(state, action.card)
    if action.card is not None:
        raise BadAction(N_("Name the one-shot on the table ('instance') or the card played ('card'), not both."))
    owner = own(state, action, actor)
    entry = find_card(owner, action.instance)
    if entry["card"]["kind"] != "one-shot":
        raise BadAction(N_("%(card)s is not a one-shot."), card=entry["card"]["name"])
    return entry["card"]


event_words("curse", N_("%(name)s is cursed: %(card)s"))


def _curse(state: dict, target: dict, card: dict, ctx: Context) -> dict:
    sex = target["sex"]  # who was cursed ("maudite"), before a Change Sex changes it
    outcome = sheet.apply_curse(target, card, ctx.edition)
    parts = []
    if outcome["levels"]:
        old = target["level"]
        target["level"] = max(1, old - outcome["levels"])
        parts.append(said(N_("level %(old)s to %(new)s"), old=old, new=target["level"]))
    if outcome["change_sex"]:
        target["sex"] = "female" if target["sex"] == "male" else "male"
        parts.append(said(N_("now female") if target["sex"] == "female" else N_("now male")))
    if outcome["keep"]:
        target["cards"].append({"iid": next_id(state), "card": card})
        parts.append(said(N_("it stays in front of them")))
    if outcome["take"] is not None:
        # The only item it can take goes at once, mid-fight too (classic, Curses).
        sheet.discard(target, outcome["take"]["iid"], ctx.edition)
        parts.append(said(N_("%(card)s is discarded"), card=outcome["take"]["card"]["name"]))
    elif outcome["candidates"]:
        sheet.owe_loss(target, card, outcome["candidates"])
        names = ", ".join(c["card"]["name"] for c in outcome["candidates"])
        parts.append(said(N_("they discard one of: %(cards)s (the victim picks)"), cards=names))
    if outcome["nothing"]:
        parts.append(said(N_("nothing to affect, so it does nothing (%(why)s)"),
                          why=outcome["nothing"]))
    if outcome["by_hand"]:  # the log, and the victim's phone, say so: not that nothing happened
        parts.append(said(N_("the table does what the card says by hand")))
    return event("curse", *parts, player=target["id"], name=target["name"], card=card["name"], sex=sex)



event_words("discard", N_("%(name)s discards %(cards)s"))


@checks("discard")
def _discard_check(state, action, actor, ctx):
    find_card(own(state, action, actor), action.instance)


@reducer("discard")
def _discard(state, action, actor, ctx):
    player = find_player(state, action.player)
    entry = find_card(player, action.instance)
    # Races and classes may be discarded at any time, even in a fight; items leave by being
    # sold, given, or lost to a curse or Bad Stuff, which a phone records as a discard too.
    # Discarding an item a curse is taking is the victim's pick: that loss is settled.
    settled = [said(N_("the item %(curse)s takes"), curse=c)
               for c in sheet.settle_losses(player, {entry["iid"]})]
    dropped = sheet.discard(player, entry["iid"], ctx.edition)
    names = ", ".join(d["card"]["name"] for d in dropped)
    return event("discard", *settled, player=player["id"], name=player["name"], sex=player.get("sex"), cards=names)


event_words("equip", N_("%(name)s equips %(card)s"))
event_words("unequip", N_("%(name)s unequips %(card)s"))


@checks("equip")
def _equip_check(state, action, actor, ctx):
    player = own(state, action, actor)
    entry = find_card(player, action.instance)
    if entry["card"]["kind"] != "item":
        raise BadAction(N_("%(card)s is not an item."), card=entry["card"]["name"])
    if in_fight(state) and player["id"] in (state["combat"]["fighter"], state["combat"].get("helper")):
        raise RuleViolation("no-equip-in-combat", N_("%(name)s is in a fight"), name=player["name"], sex=player.get("sex"))
    # No swapping worn items while a curse is resolved (its pick waits on the victim).
    sheet.check_no_pick_waiting(player)
    if action.equipped:
        character.check_equip(player, entry["iid"], ctx.edition)


@reducer("equip")
def _equip(state, action, actor, ctx):
    player = find_player(state, action.player)
    entry = find_card(player, action.instance)
    equipped = action.equipped
    entry["equipped"] = equipped
    return event("equip" if equipped else "unequip", player=player["id"], name=player["name"], sex=player.get("sex"),
                 card=entry["card"]["name"], iid=entry["iid"])


event_words("sell", N_("%(name)s sells %(cards)s for %(gold)s gold: level %(old)s to %(new)s"))
event_words("sell_hand", N_("%(name)s sells cards from the hand for %(gold)s gold: "
                            "level %(old)s to %(new)s"))
event_words("sell_with_hand", N_("%(name)s sells %(cards)s and cards from the hand for %(gold)s gold: "
                                 "level %(old)s to %(new)s"))


@checks("sell")
def _sell_check(state, action, actor, ctx):
    player = own(state, action, actor)
    iids = action.instances
    if len(set(iids)) != len(iids):
        raise BadAction(N_("'instances' must be a list of distinct card instance ids."))
    entries = [find_card(player, iid, "instances") for iid in iids]
    hand_gold = action.hand_gold  # items sold straight from the hand
    if not entries and not hand_gold:
        raise BadAction(N_("Pick the items to sell, or enter the gold of items sold from your hand."))
    if state["turn"] != player["id"]:
        raise RuleViolation("sell-own-turn", N_("it is not %(name)s's turn"), name=player["name"], sex=player.get("sex"))
    if in_fight(state):
        raise RuleViolation("sell-not-in-combat", N_("a fight is going on"))
    sheet.check_not_owed(player, iids)
    doubled = action.doubled
    if doubled is not None:
        if doubled not in iids:
            raise BadAction(N_("The item sold at double price must be one of the items sold."))
        sheet.check_double_sale(state, player, find_card(player, doubled, "doubled"), ctx.edition)
    sale = sheet.sale(player, entries, ctx.edition, hand_gold=hand_gold, doubled=doubled)
    # A sale always buys a level (less than a level's gold is refused) and never the winning one.
    check_level(state, player, player["level"] + sale["levels"], "sell", ctx.rules)


@reducer("sell")
def _sell(state, action, actor, ctx):
    player = find_player(state, action.player)
    iids, hand_gold, doubled = action.instances, action.hand_gold, action.doubled
    entries = [find_card(player, iid, "instances") for iid in iids]
    if doubled is not None:
        player["doubled_sale_turn"] = state.get("turn_count", 0)
    sale = sheet.sale(player, entries, ctx.edition, hand_gold=hand_gold, doubled=doubled)
    # The cards sold from the hand leave it: as many as from_hand says, else one (the gold
    # came from one card at least; the sheet's - corrects the count when it was more).
    sold_from_hand = action.from_hand
    take_from_hand(player, (1 if hand_gold else 0) if sold_from_hand is None else sold_from_hand)
    old = player["level"]
    set_level(state, player, old + sale["levels"], "sell", ctx.rules)
    sold = {e["iid"] for e in entries}
    player["cards"] = [c for c in player["cards"] if c["iid"] not in sold]
    names = ", ".join(e["card"]["name"] for e in entries)
    kind = ("sell_with_hand" if hand_gold else "sell") if entries else "sell_hand"
    wasted = said(N_("%(gold)s gold lost: no change is given"),
                  gold=sale["wasted"]) if sale["wasted"] else None
    notes = [said(N_("%(card)s at double price (Halfling)"), card=find_card_name(entries, doubled))
             ] if doubled is not None else []
    notes += [said(N_("%(card)s has No Value and counts as 0 gold"), card=n) for n in sale["no_value"]]
    return event(kind, wasted, *notes, player=player["id"], name=player["name"], sex=player.get("sex"), cards=names,
                 gold=sale["gold"], old=old, new=player["level"])


def find_card_name(entries: list[dict], iid: int) -> str:
    return next(e["card"]["name"] for e in entries if e["iid"] == iid)


event_words("give", N_("%(name)s gives %(card)s to %(to_name)s"))


@checks("give")
def _give_check(state, action, actor, ctx):
    player = own(state, action, actor)
    entry = find_card(player, action.instance)
    receiver = find_player(state, action.to, "to")
    if receiver["id"] == player["id"]:
        raise BadAction(N_("Give it to another player."))
    if entry["card"]["kind"] != "item":
        raise RuleViolation("give-items-only", N_("%(card)s is not an item"), card=entry["card"]["name"])
    fight = state.get("combat")
    if in_fight(state) and {player["id"], receiver["id"]} & {fight["fighter"], fight.get("helper")}:
        raise RuleViolation("no-trade-in-combat", N_("one of you is in a fight"))
    check_not_dead(receiver)
    sheet.check_not_owed(player, [entry["iid"]])
    character.check_play(receiver, entry["card"], ctx.edition)
    sheet.check_big_extra_receiver(state, player, entry, receiver, ctx.edition)


@reducer("give")
def _give(state, action, actor, ctx):
    player = find_player(state, action.player)
    entry = find_card(player, action.instance)
    receiver = find_player(state, action.to, "to")
    player["cards"].remove(entry)
    receiver["cards"].append({"iid": entry["iid"], "card": entry["card"], "equipped": False})
    return event("give", player=player["id"], name=player["name"], sex=player.get("sex"), card=entry["card"]["name"],
                 to=receiver["id"], to_name=receiver["name"], iid=entry["iid"])


@checks("die")
def _die_check(state, action, actor, ctx):
    player = own(state, action, actor)
    if player["dead"]:
        raise BadAction(N_("%(name)s is already dead; a new character appears when the next "
                           "player's turn begins."), name=player["name"], sex=player["sex"])


@reducer("die")
def _die(state, action, actor, ctx):
    return kill(state, find_player(state, action.player), ctx)


event_words("die", N_("%(name)s dies: loses %(cards)s and the hand"))
event_words("die_bare", N_("%(name)s dies: loses nothing in play and the hand"))


event_words("draw", N_("%(name)s draws a card face down"))
event_words("draw_door", N_("%(name)s draws a door card face down"))
event_words("draw_treasure", N_("%(name)s draws a treasure face down"))
event_words("draw_several", N_("%(name)s draws cards face down: %(n)s"))


@checks("draw")
def _draw_check(state, action, actor, ctx):
    """A dead character receives no cards (rule dead-no-cards)."""
    player = own(state, action, actor)
    check_not_dead(player)


@reducer("draw")
def _draw(state, action, actor, ctx):
    """Cards into the hand the app cannot see drawn otherwise (looting the room, a door card
    kept): the count follows them."""
    player = find_player(state, action.player)
    add_to_hand(player, action.count)
    if action.deck == "door" and state.get("turn") == player["id"]:
        door_opened(state)  # a door card kept (or the room looted) on one's own turn
    kind = ("draw_several" if action.count > 1 else
            {"door": "draw_door", "treasure": "draw_treasure"}.get(action.deck or "", "draw"))
    return event(kind, player=player["id"], name=player["name"], sex=player["sex"], n=action.count)


event_words("loot", N_("%(name)s takes %(card)s from the body of %(body_name)s"))
event_words("loot_hand", N_("%(name)s takes a card from the hand of %(body_name)s"))
event_words("end_looting", N_("Looting the body of %(body_name)s ends"))


@checks("loot")
def _loot_check(state, action, actor, ctx):
    looter = own(state, action, actor)
    body = looting.find_body(state, action.body)
    if (action.instance is None) == (not action.from_hand):
        raise BadAction(N_("Name the card taken: 'instance' (a card the body had in play) or "
                           "'from_hand': true (an unseen card of its hand)."))
    looting.check_take(state, body, looter, instance=action.instance, unseen=bool(action.from_hand))


@reducer("loot")
def _loot(state, action, actor, ctx):
    """One card from a body into the looter's hand (engine/looting.py; every edition's Death)."""
    looter = find_player(state, action.player)
    body = looting.find_body(state, action.body)
    taken = looting.take(state, body, looter, instance=action.instance, unseen=bool(action.from_hand))
    looting.into_hand(looter)
    ended = _leftovers(state, body) if looting.done(body) else []
    if taken is None:
        return event("loot_hand", *ended, player=looter["id"], name=looter["name"], sex=looter["sex"],
                     body=body["player"], body_name=body["name"])
    return event("loot", *ended, player=looter["id"], name=looter["name"], sex=looter["sex"],
                 body=body["player"], body_name=body["name"], card=taken["card"]["name"],
                 iid=taken["iid"])


@checks("end_looting")
def _end_looting_check(state, action, actor, ctx):
    """Anyone at the table may end the looting (a looter who passes, a phone gone quiet)."""
    if not actor.seated:
        raise Forbidden(N_("Only a player or the host can do that."))
    looting.find_body(state, action.body)


@reducer("end_looting")
def _end_looting(state, action, actor, ctx):
    body = looting.find_body(state, action.body)
    return event("end_looting", *_leftovers(state, body), body=body["player"], body_name=body["name"])


def _leftovers(state: dict, body: dict) -> list[dict]:
    """The body leaves the table: saids of what is discarded (the body is empty: says so)."""
    left = looting.close(state, body)
    parts = []
    if left["cards"]:
        parts.append(said(N_("discarded: %(cards)s"), cards=", ".join(left["cards"])))
    if left["hand"]:
        parts.append(said_plural("%(n)s card of the hand discarded", "%(n)s cards of the hand discarded",
                                 left["hand"]))
    return parts or [said(N_("looting is over"))]
