"""Monster conditions that act by themselves (docs/ENGINE.md, "Monster conditions").

- ``chase_away`` (with an ``if`` on a player facing it): a Cleric facing the Wannabe Vampire,
  a Human facing the Human Rights Activist, a female character facing the Amazon. The monster
  leaves the fight at once, marked ``gone`` like a charmed one: its treasures are won, no level
  (Munchkin (classic rules), Asking For Help and Treasure; Munchkin Tails, Asking For Help).
- ``no_pursuit`` (value N): the monster does not chase a player of level N or less. When the
  fight is lost, such a player escapes it without rolling and suffers nothing, not even its
  ``on_flee`` steps (the escape row says ``not_pursued``; combat.py computes it).

``after_action`` runs after every accepted action (``actions.apply``), so a helper who joins,
a race card played mid-fight or a level lost to another monster's Bad Stuff all count; what
it did rides on the action's event as extra parts.
"""

from __future__ import annotations

from . import character
from .core import Context
from .state import combat_view, find_player
from .words import N_, said


def _has(fight: dict, stat: str) -> bool:
    return any(e.get("stat") == stat for m in fight.get("monsters") or ()
               for e in m["card"].get("effects") or ())


def chase_away(state: dict, fight: dict, ctx: Context) -> list[dict]:
    """Monsters chased away by a player facing them: each is marked ``gone`` (a Mate's copy
    with it: the same card, the same condition). When none is left the fight ends where the
    rules end it then, as after any other monster leaves."""
    from .reducers.fight import end_if_no_monsters  # the reducers import this module

    facing = [find_player(state, pid) for pid in (fight["fighter"], fight.get("helper"))
              if pid is not None]
    out = []
    for monster in fight["monsters"]:
        if monster.get("gone"):
            continue
        for eff in monster["card"].get("effects") or ():
            if eff.get("stat") != "chase_away" or not eff.get("value", True):
                continue
            who = next((p for p in facing if character.meets(eff.get("if"), p, ctx.edition)), None)
            if who is None:
                continue
            monster["gone"] = True
            monster["chased_by"] = who["id"]
            out.append(said(N_("%(name)s chases %(monster)s away: its treasures count, "
                               "no level for it"), player=who["id"], name=who["name"],
                            monster=monster["card"].get("name") or said(N_("Monster"))))
            break
    ended = end_if_no_monsters(state, ctx) if out else None
    return out + [ended] if ended else out


def not_pursued(state: dict, fight: dict, ctx: Context) -> list[dict]:
    """Record an escape without a roll for every player a monster does not pursue."""
    from .reducers.fight import finish_if_nobody_runs  # the reducers import this module

    view = combat_view(state, helpers=False)
    done = {(e["player"], e["monster"]) for e in fight["escapes"]}
    names = {m["index"]: m["name"] for m in view["monsters"]}
    out = []
    for row in view["escape"]:
        key = (row["player"], row["monster"])
        if not row.get("not_pursued") or key in done or find_player(state, row["player"])["dead"]:
            continue
        fight["escapes"].append({"player": row["player"], "monster": row["monster"],
                                 "roll": None, "escaped": True, "not_pursued": True})
        player = find_player(state, row["player"])
        out.append(said(N_("%(monster)s does not pursue %(name)s: escaped without a roll"),
                        player=player["id"], name=player["name"], monster=names[row["monster"]]))
    if out:
        finish_if_nobody_runs(state, fight)
    return out


def after_action(state: dict, happened: dict, ctx: Context) -> dict:
    """Apply the conditions the action has just triggered; the event gains their words."""
    fight = state.get("combat")
    if not fight:
        return happened
    parts: list[dict] = []
    if fight["stage"] == "fighting" and _has(fight, "chase_away"):
        parts += chase_away(state, fight, ctx)
    if fight["stage"] == "running" and _has(fight, "no_pursuit"):
        parts += not_pursued(state, fight, ctx)
    if not parts:
        return happened
    return {**happened, "parts": list(happened.get("parts") or []) + parts}
