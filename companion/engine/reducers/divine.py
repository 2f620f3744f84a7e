"""Divine Intervention (a classic Door card): every Cleric at the table goes up a level.

The classic rulebook names it beside a kill as a way to the winning level (Starting and
Finishing), and the newer rulebooks let a card that says so give a win without a kill
(Conflicts Between Cards and Rules; Starting and Finishing the Game): the card says it can
win the game, so here a Cleric may reach level 10 by it.
"""

from __future__ import annotations

from .. import character
from ..core import Context, set_level
from ..words import N_, event, event_words, said

event_words("divine_intervention", N_("%(card)s: every Cleric goes up a level: %(raised)s"))
event_words("divine_intervention_nobody", N_("%(card)s: nobody at the table is a Cleric, "
                                             "so nobody goes up a level"))


is_divine_intervention = character.is_divine_intervention  # the card this module plays


def play(state: dict, card: dict, ctx: Context) -> dict:
    """Every living Cleric goes up one level, whoever played the card; a dead one cannot go
    up (Death) and is named as passed over."""
    raised = []
    for player in state["players"]:
        if "cleric" not in character.classes(player, ctx.edition):
            continue
        if player["dead"]:
            raised.append(said(N_("%(name)s is dead and stays at level %(level)s"),
                               name=player["name"], level=player["level"], sex=player["sex"]))
            continue
        old = player["level"]
        # Only a kill may bring the winning level, except by a card that says so: this one.
        top = ctx.rules.winning_level
        set_level(state, player, old + 1, "kill" if old + 1 >= top else "card", ctx.rules)
        if player["level"] == top:
            raised.append(said(N_("%(name)s level %(old)s to %(new)s and wins the game"),
                               name=player["name"], sex=player.get("sex"), old=old, new=player["level"]))
        else:
            raised.append(said(N_("%(name)s level %(old)s to %(new)s"),
                               name=player["name"], sex=player.get("sex"), old=old, new=player["level"]))
    if not raised:
        return event("divine_intervention_nobody", card=card["name"])
    return event("divine_intervention", card=card["name"], raised=raised,
                 players=[p["id"] for p in state["players"]
                          if "cleric" in character.classes(p, ctx.edition)])
