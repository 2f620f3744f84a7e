"""A player's death, whether chosen (the ``die`` action) or dealt by Bad Stuff.

It sits below both callers, ``reducers/sheet.py`` and ``bad_stuff.py``, so Bad Stuff need not
import a reducer. The event's words (``die``, ``die_bare``) are registered with the ``die``
reducer.
"""

from __future__ import annotations

from . import dice, looting, sheet
from .core import Context
from .hand import new_hand
from .state import find_player
from .words import N_, event, said, said_plural


def kill(state: dict, player: dict, ctx: Context) -> dict:
    """The player dies (the die action, or Bad Stuff): an event of kind ``die``/``die_bare``."""
    hand = player.get("hand")
    lost = sheet.death(player, ctx.edition)
    order = sheet.looting_order(state, player, dice.death_rng(state, ctx, player))
    # The hand and the cards lost in play are laid out as the body, looted in that order.
    looting.lay_out(state, player, lost, hand, order)
    player["dead"] = True
    fight = state.get("combat")
    if fight and fight["stage"] == "fighting" and fight.get("helper") == player["id"]:
        fight["helper"] = None
    looters = [find_player(state, pid)["name"] for pid in order]
    order_said = (said(N_("looting order %(players)s"), players=", ".join(looters), order=order)
                  if looters else said(N_("looting order nobody")))
    each = new_hand(ctx.rules)
    # The hand is gone (sheet.death); the new character's is drawn when the player's next turn
    # begins (core.begin_turn), from each deck (rule dead-redraw).
    player["redraw"] = 2 * each
    redraw = said_plural("draws %(n)s from each deck on their next turn", "draws %(n)s from each deck on their next turn",
                         each)
    return event("die" if lost else "die_bare", order_said, redraw, player=player["id"],
                 name=player["name"], sex=player.get("sex"), cards=", ".join(c["card"]["name"] for c in lost))
