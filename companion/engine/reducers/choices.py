"""A card's "may", offered to the player who may take it and never taken for them."""

from __future__ import annotations

from .. import monster_conditions
from ..core import checks, current_fight, own, reducer
from ..errors import RuleViolation
from ..state import find_player, monster_index
from ..words import N_, event, event_words

event_words("chase_away", N_("%(name)s chooses to chase a monster away"))


@checks("chase_away")
def _chase_away_check(state, action, actor, ctx):
    """The fighter or the helper chases the monster away where its card allows it (the
    monster's special abilities reach the helper too: classic, Asking For Help)."""
    fight = current_fight(state)
    player = own(state, action, actor)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", N_("the fight has already been decided"))
    if player["id"] not in (fight["fighter"], fight.get("helper")):
        raise RuleViolation("monster-effects-helper", N_("%(name)s is not in the fight"),
                            name=player["name"], sex=player.get("sex"))
    index = monster_index(action.monster, len(fight["monsters"]))
    monster_conditions.check_chase_away(fight, player, index, ctx)


@reducer("chase_away")
def _chase_away(state, action, actor, ctx):
    fight = state["combat"]
    player = find_player(state, action.player)
    parts = monster_conditions.chase_away_choice(
        state, fight, player, monster_index(action.monster, len(fight["monsters"])), ctx)
    return event("chase_away", *parts, player=player["id"], name=player["name"], sex=player.get("sex"))
