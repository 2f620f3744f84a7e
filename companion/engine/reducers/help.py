"""Help and bribes: offers, accepting and declining."""

from __future__ import annotations

from .. import deals
from ..core import checks, current_fight, own, reducer
from ..errors import BadAction, RuleViolation
from ..public import combat_view
from ..state import find_player
from .fight import fight_view
from ..words import N_, event, event_words

event_words("offer", N_("%(name)s offers %(to_name)s: %(terms)s"))


@checks("offer")
def _offer_check(state, action, actor, ctx):
    fight = current_fight(state)
    if not actor.may_act_for(fight["fighter"]):
        raise RuleViolation("bribe-fighter-only", N_("only the player in the fight offers a bribe"))
    deals.make_offer(state, fight, action, fight_view(state, ctx))  # refuses a bad one


@reducer("offer")
def _offer(state, action, actor, ctx):
    fight = state["combat"]
    fighter = find_player(state, fight["fighter"])
    offer = deals.make_offer(state, fight, action, combat_view(state, helpers=False))
    fight["offers"] = [o for o in fight["offers"] if o["to"] != offer["to"]] + [offer]
    return event("offer", player=fighter["id"], name=fighter["name"], sex=fighter.get("sex"), to=offer["to"],
                 to_name=find_player(state, offer["to"])["name"], terms=deals.offer_terms(offer))


# The helper is named twice: "Boris accepts and helps; deal Boris: 2 treasures ...".
event_words("accept_offer", N_("%(name)s accepts and helps; deal %(name)s: %(terms)s"))


@checks("accept_offer")
def _accept_offer_check(state, action, actor, ctx):
    fight = current_fight(state)
    player = own(state, action, actor)
    if not any(o["to"] == player["id"] for o in fight["offers"]):
        raise BadAction(N_("There is no offer for %(name)s."), name=player["name"], sex=player.get("sex"))
    deals.check_join(state, fight, player)


@reducer("accept_offer")
def _accept_offer(state, action, actor, ctx):
    fight = state["combat"]
    player = find_player(state, action.player)
    offer = next(o for o in fight["offers"] if o["to"] == player["id"])
    fight["helper"] = player["id"]
    fight["helper_forced"] = False
    fight["deal"] = offer
    fight["offers"] = []
    fight["volunteers"] = []  # one helper: the offers made from other phones lapse too
    return event("accept_offer", player=player["id"], name=player["name"], sex=player.get("sex"), to=fight["fighter"],
                 terms=deals.offer_terms(offer))


event_words("decline_offer", N_("%(name)s declines the offer"))


@checks("decline_offer")
def _decline_offer_check(state, action, actor, ctx):
    fight = current_fight(state)
    player = own(state, action, actor)
    if not any(o["to"] == player["id"] for o in fight["offers"]):
        raise BadAction(N_("There is no offer for %(name)s."), name=player["name"], sex=player.get("sex"))


@reducer("decline_offer")
def _decline_offer(state, action, actor, ctx):
    fight = state["combat"]
    player = find_player(state, action.player)
    fight["offers"] = [o for o in fight["offers"] if o["to"] != player["id"]]
    return event("decline_offer", player=player["id"], name=player["name"], sex=player.get("sex"), to=fight["fighter"])
