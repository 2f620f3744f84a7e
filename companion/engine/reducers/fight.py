"""Fights: starting, monsters and enhancers, one-shots, helping, resolving, running away."""

from __future__ import annotations

from typing import Any

from .. import character, combat, deals, dice, powers
from ..core import Context, checks, current_fight, in_fight, own, reducer
from .. import bad_stuff  # a monster's Bad Stuff as data
from ..action_models import RunAwayAction
from ..errors import BadAction, Forbidden, RuleViolation
from ..hand import take_from_hand
from ..public import combat_view
from ..state import find_player, monster_index
from ..fight_end import (end_if_no_monsters, finish_if_nobody_runs, pending_escapes, rewards,
                         runners)
from ..words import N_, event, event_words, said
from .sheet import card_leaves, check_card_leaves, find_one_shot, one_shot_card, playing_seat


event_words("fight", N_("%(name)s fights %(monster)s (level %(level)s)"))


def fight_view(state: dict, ctx: Context) -> dict:
    """The computed fight (``combat_view`` without the helper finder), worked out once for
    all the checks sharing ``ctx.memo`` (one unchanging state), else afresh."""
    if ctx.memo is None:
        return combat_view(state, helpers=False)
    found = ctx.memo.get("fight")
    if found is None or found[0] is not state:
        found = ctx.memo["fight"] = (state, combat_view(state, helpers=False))
    return found[1]


@checks("fight")
def _start_fight_check(state, action, actor, ctx):
    player = own(state, action, actor)
    if in_fight(state):
        raise RuleViolation("one-fight-at-a-time", N_("finish the current fight first"))
    if state["turn"] != player["id"]:
        raise RuleViolation("fight-own-turn", N_("it is not %(name)s's turn"), name=player["name"], sex=player.get("sex"))
    if player["dead"]:
        raise RuleViolation("dead-cannot-help", N_("%(name)s is dead until the next turn"),
                            name=player["name"], sex=player["sex"])
    check_card_leaves(state, action, monster_card(state, action.monster, ctx, action.level), player, "door")


@reducer("fight")
def _start_fight(state, action, actor, ctx):
    player = find_player(state, action.player)
    monster = monster_card(state, action.monster, ctx, action.level)
    state["combat"] = {
        "fighter": player["id"], "helper": None, "helper_forced": False,
        "monsters": [{"card": monster, "enhancers": [], "gone": False}],
        "one_shots": [], "stage": "fighting", "escapes": [], "offers": [], "deal": None,
        "result": None,
        "seed": dice.fight_seed(state, ctx),  # the fight's dice (engine/dice.py): an undo does not buy a new roll
    }
    # The monster is mostly the door just kicked open, face up; one from the hand (looking for
    # trouble) says so with source (or from_hand).
    card_leaves(state, action, monster, player, "door")
    return event("fight", player=player["id"], name=player["name"], sex=player.get("sex"), monster=monster["name"],
                 level=monster["level"])


def monster_card(state: dict, spec: Any, ctx: Context, level: int | None = None) -> dict:
    """A monster for the fight; ``level`` overrides the printed level (a card whose level the
    catalog does not know, or a table using a different printing)."""
    card = ctx.card(state, spec)
    if card["kind"] != "monster":
        raise BadAction(N_("%(card)s is not a monster."), card=card["name"])
    if level is not None:
        card["level"] = level
    if card.get("level") is None:
        raise BadAction(N_("The catalog does not know %(card)s's level: "
                           "enter the level printed on your card."), card=card["name"])
    return card


event_words("add_monster", N_("%(monster)s (level %(level)s) joins the fight"))


def open_fight(state: dict, ctx: Context) -> dict:
    """The fight a card is played into; a fight whose last monster has left is over and takes
    nothing more (Russia and Tails, Combat; every edition under the official updates)."""
    fight = state.get("combat")
    if fight and fight.get("ended") == "no_monsters":
        # Printed in Russia and Tails; the ruling's official part covers the other boxes.
        raise RuleViolation("fight-ends-last-monster-removed",
                            N_("every monster has left, so the fight is over"))
    return current_fight(state)


@checks("add_monster")
def _add_monster_check(state, action, actor, ctx):
    fight = open_fight(state, ctx)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", N_("the fight is past the point where monsters join"))
    monster = monster_card(state, action.monster, ctx, action.level)
    check_card_leaves(state, action, monster, playing_seat(state, actor), "hand")


@reducer("add_monster")
def _add_monster(state, action, actor, ctx):
    fight = state["combat"]
    monster = monster_card(state, action.monster, ctx, action.level)
    fight["monsters"].append({"card": monster, "enhancers": [], "gone": False})
    # A monster joins mostly from the hand of the seat that adds it, brought by a Wandering
    # Monster from the same hand: two cards (classic, Combat). From the door or a body: the
    # monster leaves no hand, but a Wandering Monster said to bring it still does.
    seat = playing_seat(state, actor)
    from_hand = card_leaves(state, action, monster, seat, "hand") == "hand"
    wandering = action.wandering if action.wandering is not None else from_hand
    if wandering:
        take_from_hand(seat)
    brought = said(N_("brought by a Wandering Monster")) if wandering else None
    return event("add_monster", brought, monster=monster["name"], level=monster["level"])


event_words("enhance", N_("%(card)s on %(monster)s"))


@checks("enhance")
def _enhance_check(state, action, actor, ctx):
    fight = open_fight(state, ctx)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", N_("enhancers go in while the fight is on"))
    index = monster_index(action.monster, len(fight["monsters"]))
    if fight["monsters"][index].get("gone"):
        raise BadAction(N_("That monster has left the fight."))
    card = ctx.card(state, action.card)
    if card["kind"] != "enhancer":
        raise BadAction(N_("%(card)s is not a monster enhancer."), card=card["name"])
    check_card_leaves(state, action, card, playing_seat(state, actor), "hand")


@reducer("enhance")
def _enhance(state, action, actor, ctx):
    fight = state["combat"]
    index = monster_index(action.monster, len(fight["monsters"]))  # the only one when left out
    card = ctx.card(state, action.card)
    fight["monsters"][index]["enhancers"].append(card)
    # An enhancer is played from the hand of the seat that plays it, unless its source says not.
    card_leaves(state, action, card, playing_seat(state, actor), "hand")
    return event("enhance", card=card["name"], monster=fight["monsters"][index]["card"]["name"])


event_words("remove_monster", N_("%(monster)s is removed from the fight "
                                 "(no level for it, its treasures still count)"))


@checks("remove_monster")
def _remove_monster_check(state, action, actor, ctx):
    """``monster`` is an index of the computed fight (a Mate's copy is one), still in it."""
    open_fight(state, ctx)
    view = fight_view(state, ctx)
    index = monster_index(action.monster, len(view["monsters"]))
    if view["monsters"][index]["gone"]:
        raise BadAction(N_("That monster has left the fight."))


@reducer("remove_monster")
def _remove_monster(state, action, actor, ctx):
    """A monster leaves the fight without being killed (charmed, discarded by a card).

    A Mate's copy leaves on its own: the other one is still fought (classic, Combat). Where
    the rules say so, the fight is over as soon as its last monster has left.
    """
    fight = state["combat"]
    view = combat_view(state, helpers=False)
    index = monster_index(action.monster, len(view["monsters"]))  # the only one when left out
    leaving = view["monsters"][index]
    stored = fight["monsters"][leaving["source"]]
    if leaving["mate"]:
        number = sum(1 for m in view["monsters"][:index] if m["mate"] and m["source"] == leaving["source"])
        flags = list(stored.get("mates_gone") or [])
        flags += [False] * (number + 1 - len(flags))
        flags[number] = True
        stored["mates_gone"] = flags
    else:
        stored["gone"] = True
    return event("remove_monster", end_if_no_monsters(state, ctx), monster=leaving["name"])


# The bonus is an int; ``signed`` is the same number written with its sign ("+2", "-3").
ONE_SHOT_WORDS = {"players": event_words("one_shot_players", N_("%(card)s for the players (%(signed)s)")),
                  "monsters": event_words("one_shot_monsters", N_("%(card)s for the monsters (%(signed)s)"))}


@checks("one_shot")
def _one_shot_check(state, action, actor, ctx):
    fight = open_fight(state, ctx)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", N_("one-shots go in while the fight is on"))
    card = find_one_shot(state, action, actor, ctx)  # from the hand, or from the table
    if card["kind"] not in ("one-shot", "ally", "other", "item"):
        raise BadAction(N_("%(card)s cannot be played as a one-shot."), card=card["name"])
    if action.instance is None:
        check_card_leaves(state, action, card, playing_seat(state, actor), "hand")


@reducer("one_shot")
def _one_shot(state, action, actor, ctx):
    fight = state["combat"]
    side = action.side
    card = one_shot_card(state, action, actor, ctx)
    fight["one_shots"].append({"side": side, "card": card, "by": actor.player})
    # A card named by ``card`` leaves where it came from (mostly the hand of the seat that
    # plays it); one named by ``instance`` came off the table, not from a hand.
    if action.instance is None:
        card_leaves(state, action, card, playing_seat(state, actor), "hand")
    bonus = card.get("bonus", 0)
    return event(ONE_SHOT_WORDS[side], card=card["name"], side=side, bonus=bonus,
                 signed="%+d" % bonus)


event_words("help", N_("%(name)s helps %(fighter)s"))
event_words("help_forced", N_("%(name)s helps %(fighter)s (forced by a card)"))
event_words("help_offered", N_("%(name)s offers to help %(fighter)s"))
event_words("accept_help", N_("%(fighter)s accepts the help of %(name)s"))
event_words("decline_help", N_("%(fighter)s turns down the help of %(name)s"))
event_words("withdraw_help", N_("%(name)s takes back the offer to help"))


@checks("help")
def _help_check(state, action, actor, ctx):
    fight = current_fight(state)
    player = find_player(state, action.player)
    if not (actor.may_act_for(player["id"]) or actor.may_act_for(fight["fighter"])):
        raise Forbidden(N_("Only %(name)s, the fighter or the host can do that."), name=player["name"], sex=player.get("sex"))
    forced = action.forced
    deals.check_join(state, fight, player)
    if fight.get("helper") == player["id"] and (forced or not fight.get("helper_forced")):
        # Already helping: nothing to join (a forced helper may still say it stays by choice).
        raise RuleViolation("helper-limit", N_("%(name)s is already helping"), name=player["name"], sex=player.get("sex"))
    fighter = find_player(state, fight["fighter"])
    if forced:
        deals.check_forced(state, fight, player, ctx.rules, fight_view(state, ctx)["for_the_win"])
    elif not actor.may_act_for(fighter["id"]):
        # Offered from the helper's own phone: the fighter decides whether to take it
        # (every edition, Asking For Help; ruling help-needs-fighter).
        if player["id"] in (fight.get("volunteers") or ()):
            raise RuleViolation("help-needs-fighter", N_("%(name)s has already offered to help"),
                                name=player["name"], sex=player.get("sex"))


@reducer("help")
def _help(state, action, actor, ctx):
    fight = state["combat"]
    player = find_player(state, action.player)
    forced = action.forced
    fighter = find_player(state, fight["fighter"])
    own_offer = actor.player == player["id"] != fighter["id"]  # from the helper's own seat (a host's too)
    if not forced and (own_offer or not actor.may_act_for(fighter["id"])):
        # Offered from the helper's own phone: the fighter decides whether to take it.
        fight["volunteers"] = list(fight.get("volunteers") or ()) + [player["id"]]
        return event("help_offered", player=player["id"], name=player["name"], sex=player.get("sex"), to=fighter["id"],
                     fighter=fighter["name"])
    _join_as_helper(fight, player, forced)
    gendered = {"sex": player["sex"]} if forced else {}  # "(forcée par une carte)"
    return event("help_forced" if forced else "help", player=player["id"], name=player["name"],
                 to=fight["fighter"], fighter=fighter["name"], **gendered)


def _join_as_helper(fight: dict, player: dict, forced: bool) -> None:
    fight["helper"] = player["id"]
    fight["helper_forced"] = forced
    fight["volunteers"] = []  # one helper: the other offers lapse,
    fight["offers"] = []  # and the fighter's bribes offered to others


def _volunteer(state: dict, fight: dict, pid: int) -> dict:
    if pid not in (fight.get("volunteers") or ()):
        raise BadAction(N_("%(name)s has not offered to help."), name=find_player(state, pid)["name"], sex=find_player(state, pid).get("sex"))
    return find_player(state, pid)


@checks("accept_help")
def _accept_help_check(state, action, actor, ctx):
    """The fighter takes the help a player offered (every edition, Asking For Help)."""
    fight = current_fight(state)
    fighter = find_player(state, fight["fighter"])
    if not actor.may_act_for(fighter["id"]):
        raise RuleViolation("help-needs-fighter", N_("only %(name)s, the one fighting, accepts help"),
                            name=fighter["name"], sex=fighter.get("sex"))
    deals.check_join(state, fight, _volunteer(state, fight, action.player))


@reducer("accept_help")
def _accept_help(state, action, actor, ctx):
    fight = state["combat"]
    fighter = find_player(state, fight["fighter"])
    helper = find_player(state, action.player)
    _join_as_helper(fight, helper, False)
    return event("accept_help", player=helper["id"], name=helper["name"], sex=helper.get("sex"), to=fighter["id"],
                 fighter=fighter["name"])


@checks("decline_help")
def _decline_help_check(state, action, actor, ctx):
    """The fighter turns an offer of help down; the volunteer may also take it back."""
    fight = current_fight(state)
    fighter = find_player(state, fight["fighter"])
    helper = _volunteer(state, fight, action.player)
    if not (actor.may_act_for(fighter["id"]) or actor.may_act_for(helper["id"])):
        raise RuleViolation("help-needs-fighter", N_("only %(name)s, the one fighting, turns help down"),
                            name=fighter["name"], sex=fighter.get("sex"))


@reducer("decline_help")
def _decline_help(state, action, actor, ctx):
    fight = state["combat"]
    fighter = find_player(state, fight["fighter"])
    helper = find_player(state, action.player)
    fight["volunteers"] = [pid for pid in fight["volunteers"] if pid != helper["id"]]
    if actor.player == helper["id"] != fighter["id"]:  # taken back from the helper's own seat
        return event("withdraw_help", player=helper["id"], name=helper["name"], sex=helper.get("sex"), to=fighter["id"])
    return event("decline_help", player=helper["id"], name=helper["name"], sex=helper.get("sex"), to=fighter["id"],
                 fighter=fighter["name"])


event_words("stop_helping", N_("%(name)s stops helping"))


@checks("stop_helping")
def _stop_helping_check(state, action, actor, ctx):
    fight = current_fight(state)
    if fight.get("helper") is None:
        raise BadAction(N_("Nobody is helping in this fight."))
    helper = find_player(state, fight["helper"])
    if not actor.may_act_for(helper["id"]) and actor.player != fight["fighter"]:
        raise Forbidden(N_("Only the helper, the fighter or the host can end the help."))
    deals.check_leave(state, fight, helper, ctx.rules, fight_view(state, ctx)["for_the_win"])


@reducer("stop_helping")
def _stop_helping(state, action, actor, ctx):
    fight = state["combat"]
    helper = find_player(state, fight["helper"])
    fight["helper"] = None
    fight["helper_forced"] = False
    fight["deal"] = None
    return event("stop_helping", player=helper["id"], name=helper["name"], sex=helper.get("sex"))


event_words("fight_lost", N_("%(name)s cannot win (%(players)s against %(monsters)s): run away"))
# A won fight: who won by how much, then what it brought (levels, treasures, the deal kept).
# The same words are the fight's ``result``, shown until the fight is cleared.
WIN_WORDS = N_("%(name)s wins (%(players)s against %(monsters)s); %(details)s")
event_words("fight_won", WIN_WORDS)


@checks("resolve")
def _resolve_check(state, action, actor, ctx):
    """Who may decide the fight, and when: the fight itself is computed only when it is."""
    fight = current_fight(state)
    if fight["stage"] != "fighting":
        raise BadAction(N_("The fight has already been decided; run away or close it."))
    if not (actor.host or actor.player in (fight["fighter"], fight.get("helper"))):
        raise Forbidden(N_("Only the fighter, the helper or the host can resolve the fight."))


@reducer("resolve")
def _resolve(state, action, actor, ctx):
    fight = state["combat"]
    view = combat_view(state, helpers=False)
    fighter = find_player(state, fight["fighter"])
    # The numbers the fight is decided on stay what it shows, whatever the result moves.
    fight["decided"] = combat.decided(view, won=view["winning"])
    if not view["winning"]:
        fight["stage"] = "running"
        happened = event("fight_lost", player=fighter["id"], name=fighter["name"], sex=fighter.get("sex"),
                         players=view["players_strength"], monsters=view["monsters_strength"])
        finish_if_nobody_runs(state, fight)  # nobody left to run (every runner dead)
        return happened
    return _win(state, fight, view, fighter, ctx)


def _win(state: dict, fight: dict, view: dict, fighter: dict, ctx: Context) -> dict:
    details = rewards(state, fight, view, fighter, ctx)
    words = {"name": fighter["name"], "players": view["players_strength"],
             "monsters": view["monsters_strength"], "details": details}
    fight["result"] = {"won": True, "text": said(WIN_WORDS, **words), **view["rewards"]}
    return event("fight_won", player=fighter["id"], **words)


@checks("run_away")
def _run_away_check(state, action, actor, ctx):
    check_run_away(state, action, actor, ctx)


@reducer("run_away")
def _run_away(state, action, actor, ctx):
    """Each fighter rolls separately against each monster (Mate copies included)."""
    return run_away(state, action, actor, ctx)


def check_run_away(state: dict, action: RunAwayAction, actor, ctx: Context) -> tuple[dict, dict, int, dict | None]:
    """Whether ``action.player`` may roll against that monster now (read only): (the runner,
    the computed fight, the monster's index, the failed roll waiting for a second try)."""
    fight = current_fight(state)
    player, view, index = _runner_and_monster(state, fight, action, actor, ctx)
    waiting = next((e for e in fight["escapes"] if e["player"] == player["id"] and e["monster"] == index
                    and e.get("second_try")), None)
    if waiting is not None:
        if action.roll is not None:
            raise RuleViolation("power-running", N_("%(name)s already rolled %(roll)s against that monster: "
                                                    "that roll stands, or a second try rolls again"),
                                name=player["name"], sex=player.get("sex"), roll=waiting["roll"])
        return player, view, index, waiting
    if any(e["player"] == player["id"] and e["monster"] == index for e in fight["escapes"]):
        raise RuleViolation("flee-each-monster", N_("%(name)s already rolled against that monster"),
                            name=player["name"], sex=player["sex"])
    if player["dead"]:
        raise RuleViolation("flee-each-monster", N_("%(name)s is dead and runs from nothing more"),
                            name=player["name"], sex=player["sex"])
    return player, view, index, None


def run_away(state: dict, action: RunAwayAction, actor, ctx: Context, *, second_try: bool = False) -> dict:
    """``action.player``'s roll to escape one monster (``check_run_away`` says whether it
    may). ``second_try``: a power rolls a failed roll again (reducers/powers.py), so no second
    try waits after it and the monster's on_flee steps, paid with the first roll, are not
    paid again."""
    fight = state["combat"]
    player, view, index, waiting = check_run_away(state, action, actor, ctx)
    # The app's dice for this roll are the fight's (rule undo-keeps-rolls): undone and made
    # again, the same roll, and the same Bad Stuff die after it.
    which = ("run_away", player["id"], index, 2 if second_try else 1)
    ctx = dice.context(state, ctx, *which)
    if waiting is not None:
        return _no_second_try(state, fight, view, player, index, waiting, action, ctx)
    roll = action.roll if action.roll is not None else dice.die(state, ctx, *which)
    return _escape_roll(state, fight, view, player, index, roll, action, ctx, second_try)


def _runner_and_monster(state: dict, fight: dict, action: RunAwayAction, actor,
                        ctx: Context) -> tuple[dict, dict, int]:
    """(the player who runs, the computed fight, the monster's index): a runner of a lost
    fight, from a monster still in it."""
    if fight["stage"] != "running":
        raise RuleViolation("run-away-roll",
                            N_("resolve the fight first: you run only from a fight you lose"))
    player = own(state, action, actor)
    if player["id"] not in (fight["fighter"], fight.get("helper")):
        raise BadAction(N_("%(name)s is not in this fight."), name=player["name"], sex=player.get("sex"))
    view = fight_view(state, ctx)
    if player["id"] not in runners(state, fight, view):
        raise RuleViolation(deals.FORCED_HELP_RULE,
                            N_("%(name)s was made to help in a fight for the win, which does not "
                               "count, so runs from nothing"), name=player["name"], sex=player["sex"])
    index = monster_index(action.monster, len(view["monsters"]))
    if view["monsters"][index]["gone"]:
        raise BadAction(N_("That monster has left the fight."))
    return player, view, index


def _escape_roll(state: dict, fight: dict, view: dict, player: dict, index: int, roll: int,
                 action: RunAwayAction, ctx: Context, second_try: bool) -> dict:
    """The roll is made: escaped, caught (its Bad Stuff), or caught unless a second try rolls
    again (the fight waits for that choice)."""
    monster_view = view["monsters"][index]
    need = next(e for e in view["escape"] if e["player"] == player["id"] and e["monster"] == index)
    escaped = bool(need.get("auto")) or roll >= need["needs"]
    card = fight["monsters"][monster_view["source"]]["card"]
    fight["escapes"].append({"player": player["id"], "monster": index, "roll": roll, "escaped": escaped})
    words = {"player": player["id"], "name": player["name"], "roll": roll,
             "monster": monster_view["name"], "needs": need["needs"]}
    # A monster's on_flee steps cost the players it pursues, escaped or not (bad_stuff.py).
    # (once per monster: not again for a second try's roll)
    flee = None if second_try else bad_stuff.fled(state, player, card, ctx)
    if escaped:
        happened = event("escape", flee, **words)
    elif not second_try and not player["dead"] and second_try_open(state, fight, player, index, ctx):
        # A power rolls a failed roll again (the Halfling's second try): the catch waits for
        # the player's choice, the power or the Bad Stuff (run_away again on that monster).
        fight["escapes"][-1]["second_try"] = True
        return event("caught_waits", flee, sex=player["sex"], **words)
    elif player["dead"]:  # the on_flee steps killed them: nothing is left to catch
        happened = event("caught", bad_stuff=flee, sex=player["sex"], **words)
    else:
        happened = event("caught", flee, bad_stuff=bad_stuff.caught(
            state, player, card, ctx, action.bad_stuff_roll), sex=player["sex"], **words)
    finish_if_nobody_runs(state, fight)
    return happened


event_words("escape", N_("%(name)s rolls %(roll)s against %(monster)s (needs %(needs)s): escapes"))
event_words("caught_waits", N_("%(name)s rolls %(roll)s against %(monster)s (needs %(needs)s): caught, "
                               "unless a second try rolls again"))


def second_try_open(state: dict, fight: dict, player: dict, index: int, ctx: Context) -> bool:
    """Whether a failed roll against monster ``index`` waits for a power that rolls it again
    (rule power-running): the player holds one (the Halfling's second try), has not used it
    for that roll, and has a card to discard for it (a hand, or another card in play)."""
    for power in powers.for_edition(ctx.edition.id).values():
        if power.effect != "second_try" or not character.printing_holds(power, ctx.edition):
            continue
        if not any(e["card"].get("kind") == power.kind and character.card_slug(e["card"]) == power.holder
                   for e in player["cards"]):
            continue
        if any(u["power"] == power.id and u["player"] == player["id"] and u.get("monster") == index
               for u in fight.get("powers") or ()):
            continue
        hand = player.get("hand")
        if hand is None or hand > 0 or len(player["cards"]) > 1:
            return True
    return False


def _no_second_try(state, fight, view, player, index, waiting, action, ctx):
    """The player lets a failed roll stand (no second try): the monster's Bad Stuff now."""
    del waiting["second_try"]
    monster_view = view["monsters"][index]
    card = fight["monsters"][monster_view["source"]]["card"]
    need = next(e for e in view["escape"] if e["player"] == player["id"] and e["monster"] == index)
    words = {"player": player["id"], "name": player["name"], "roll": waiting["roll"],
             "monster": monster_view["name"], "needs": need["needs"]}
    happened = event("caught", bad_stuff=bad_stuff.caught(
        state, player, card, ctx, action.bad_stuff_roll), sex=player["sex"], **words)
    finish_if_nobody_runs(state, fight)
    return happened


event_words("caught", N_("%(name)s rolls %(roll)s against %(monster)s (needs %(needs)s): "
                         "caught! %(bad_stuff)s"))


event_words("sacrifice_ally", N_("%(name)s sacrifices %(card)s and escapes every monster"))


@checks("sacrifice_ally")
def _sacrifice_ally_check(state, action, actor, ctx):
    fight = current_fight(state)
    player = own(state, action, actor)
    if not ctx.edition.allies:
        raise RuleViolation("no-allies-in-edition", N_("%(edition)s has no allies"),
                            edition=ctx.edition.name)
    if fight["stage"] != "running" or player["id"] not in runners(state, fight, fight_view(state, ctx)):
        raise RuleViolation("ally-sacrifice-escape", N_("an ally is sacrificed instead of a run-away roll"))
    ally = next((c for c in player["cards"] if c["card"]["kind"] == "ally"), None)
    if ally is None:
        raise RuleViolation("ally-sacrifice-escape", N_("%(name)s has no ally"), name=player["name"], sex=player.get("sex"))


@reducer("sacrifice_ally")
def _sacrifice_ally(state, action, actor, ctx):
    fight = state["combat"]
    player = find_player(state, action.player)
    ally = next(c for c in player["cards"] if c["card"]["kind"] == "ally")
    # The ally saves its owner; the fighter decides whether it saves the helper too.
    saved = {player["id"]}
    if action.helper_too and player["id"] == fight["fighter"] and fight.get("helper") is not None:
        saved.add(fight["helper"])
    for pid, index in pending_escapes(state, fight):
        if pid in saved:
            fight["escapes"].append({"player": pid, "monster": index, "roll": None, "escaped": True})
    player["cards"].remove(ally)
    finish_if_nobody_runs(state, fight)
    return event("sacrifice_ally", player=player["id"], name=player["name"], sex=player.get("sex"), card=ally["card"]["name"])


event_words("close_fight", N_("The fight is cleared from the table"))
event_words("close_fight_undecided", N_("The host clears an undecided fight from the table: "
                                        "nobody won it, nobody ran from it, no Bad Stuff"))


@checks("close_fight")
def _close_fight_check(state, action, actor, ctx):
    fight = state.get("combat")
    if not fight:
        raise RuleViolation("no-combat", N_("there is no fight to close"))
    if fight["stage"] != "over" and not actor.host:
        raise RuleViolation("no-combat", N_("the fight is not over yet"))


@reducer("close_fight")
def _close_fight(state, action, actor, ctx):
    fight = state["combat"]
    state["combat"] = None
    if fight["stage"] != "over":  # recorded for what it is: the host ended it undecided
        return event("close_fight_undecided", stage=fight["stage"])
    return event("close_fight")
