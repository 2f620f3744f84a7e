"""Help and bribes (issue 6): offers, accepting and declining."""

from __future__ import annotations

from .. import deals
from ..core import current_fight, own, reducer
from ..errors import BadAction, RuleViolation
from ..state import combat_view, find_player


@reducer("offer")
def _offer(state, action, actor, ctx):
    fight = current_fight(state)
    fighter = find_player(state, fight["fighter"])
    if not actor.may_act_for(fighter["id"]):
        raise RuleViolation("bribe-fighter-only", "only the player in the fight offers a bribe")
    offer = deals.make_offer(state, fight, action, ctx.edition, combat_view(state, helpers=False))
    fight["offers"] = [o for o in fight["offers"] if o["to"] != offer["to"]] + [offer]
    return deals.describe_offer(state, offer, f"{fighter['name']} offers")


@reducer("accept_offer")
def _accept_offer(state, action, actor, ctx):
    fight = current_fight(state)
    player = own(state, action, actor)
    offer = next((o for o in fight["offers"] if o["to"] == player["id"]), None)
    if offer is None:
        raise BadAction(f"There is no offer for {player['name']}.")
    deals.check_join(state, fight, player, ctx.edition)
    fight["helper"] = player["id"]
    fight["helper_forced"] = False
    fight["deal"] = offer
    fight["offers"] = []
    return deals.describe_offer(state, offer, f"{player['name']} accepts and helps; deal")


@reducer("decline_offer")
def _decline_offer(state, action, actor, ctx):
    fight = current_fight(state)
    player = own(state, action, actor)
    before = len(fight["offers"])
    fight["offers"] = [o for o in fight["offers"] if o["to"] != player["id"]]
    if len(fight["offers"]) == before:
        raise BadAction(f"There is no offer for {player['name']}.")
    return f"{player['name']} declines the offer"
