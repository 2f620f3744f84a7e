"""How a fight ends: a won fight's rewards, a lost fight over once nobody is left to run, a
fight emptied of monsters. Below the fight's reducers and the monsters' conditions, which both
end fights (``reducers/fight.py``, ``monster_conditions.py``), so neither imports the other."""

from __future__ import annotations

from . import combat, deals
from .core import Context, set_level
from .hand import add_to_hand
from .public import combat_view
from .state import find_player
from .vocab import SHARED_VICTORY
from .words import N_, said, said_plural


EMPTIED_WORDS = N_("Every monster has left the fight, so it is over; %(details)s")


def end_if_no_monsters(state: dict, ctx: Context) -> dict | None:
    """After a monster has left the fight (by any card or condition): when none is left,
    the fight ends where the rules say so (Russia and Tails, Combat; every edition under the
    official updates), as a win without a kill. Returns the said of its end, or None."""
    fight = state.get("combat")
    if not fight or fight["stage"] not in ("fighting", "running"):
        return None
    view = combat_view(state, helpers=False)
    if any(not m["gone"] for m in view["monsters"]):
        return None
    if fight["stage"] == "running":  # nobody is left to run from
        finish_if_nobody_runs(state, fight)
        return None
    if not ctx.rules.edition.fight_ends_without_monsters:
        return None
    details = rewards(state, fight, view, find_player(state, fight["fighter"]), ctx)
    fight["ended"] = "no_monsters"
    fight["decided"] = combat.decided(view, won=True)
    over = said(EMPTIED_WORDS, details=details)
    fight["result"] = {"won": True, "text": over, **view["rewards"]}
    return over


def rewards(state: dict, fight: dict, view: dict, fighter: dict, ctx: Context) -> list[dict]:
    """Carry out a won fight (levels, a shared victory, the deal) and end it; what it brought,
    as saids. A helper made to help in a fight for the win, where that does not count, is
    not part of the win (Tails, Asking For Help)."""
    rewards = view["rewards"]
    old = fighter["level"]
    details = []
    if rewards["fighter_levels"]:
        set_level(state, fighter, old + rewards["fighter_levels"], "kill", ctx.rules)
        details.append(said(N_("level %(old)s to %(new)s"), old=old, new=fighter["level"]))
    helper = (find_player(state, fight["helper"])
              if fight.get("helper") is not None and view["helper_counts"] else None)
    if helper is not None and rewards["helper_levels"]:
        hold = helper["level"]
        set_level(state, helper, hold + rewards["helper_levels"], "kill", ctx.rules)
        details.append(said(N_("%(name)s level %(old)s to %(new)s"), name=helper["name"], sex=helper.get("sex"),
                            old=hold, new=helper["level"]))
    if (helper is not None and fighter["id"] in state["winners"]
            and ctx.rules.has(SHARED_VICTORY)
            and helper["id"] not in state["winners"]):
        state["winners"].append(helper["id"])
        details.append(said(N_("%(name)s shares the victory"), name=helper["name"], sex=helper.get("sex")))
    if helper:
        details.append(said_plural("%(n)s treasure face up", "%(n)s treasures face up",
                                   rewards["treasures"]))
    else:
        details.append(said_plural("%(n)s treasure face down", "%(n)s treasures face down",
                                   rewards["treasures"]))
    deal_said = deals.carry_out_deal(state, fight, rewards)
    if deal_said:
        details.append(deal_said)
    # The treasures go into hands (a hand is only a count): the helper's share as the deal
    # kept says, the rest to the fighter, who draws them all (rulings treasure-face-up-with-help,
    # helper-treasure-draw). A card played from them later leaves the hand again.
    share = 0
    if deal_said:
        kept = state["ledger"][-1]
        share = kept["treasures"]
        add_to_hand(find_player(state, kept["helper"]), share)
    add_to_hand(fighter, rewards["treasures"] - share)
    use_up(state, fight)
    fight["stage"] = "over"
    return details


def use_up(state: dict, fight: dict) -> None:
    """One-shots were discarded when played; next-fight curses end with this fight."""
    for pid in (fight["fighter"], fight.get("helper")):
        if pid is None:
            continue
        player = find_player(state, pid)
        player["cards"] = [c for c in player["cards"]
                           if not (c["card"]["kind"] == "curse" and c["card"].get("duration") == "next_fight")]


def runners(state: dict, fight: dict, view: dict) -> list[int]:
    """Who runs from a lost fight: the fighter, and the helper when their help counts (a
    helper made to help in a fight for the win is not in it where that does not count)."""
    return [pid for pid in (fight["fighter"], fight.get("helper") if view["helper_counts"] else None)
            if pid is not None]


def pending_escapes(state: dict, fight: dict) -> list[tuple[int, int]]:
    """(player, monster index) pairs that still have to roll; the dead run from nothing."""
    view = combat_view(state, helpers=False)
    live = [m["index"] for m in view["monsters"] if not m["gone"]]
    alive = [pid for pid in runners(state, fight, view) if not find_player(state, pid)["dead"]]
    done = {(e["player"], e["monster"]) for e in fight["escapes"] if not e.get("second_try")}
    return [(pid, i) for pid in alive for i in live if (pid, i) not in done]


def finish_if_nobody_runs(state: dict, fight: dict) -> None:
    """A lost fight is over once nobody has a roll left to make (also when a monster stops
    pursuing: ``monster_conditions``)."""
    if not pending_escapes(state, fight):
        fight["stage"] = "over"
        use_up(state, fight)
        fight["result"] = {"won": False, "text": run_result(state, fight)}


def _listed(names: list) -> str | list:
    """Card names (facts) in one line; a nameless monster's said keeps them a list."""
    return ", ".join(names) if all(isinstance(n, str) for n in names) else names


def run_result(state: dict, fight: dict) -> dict:
    """How a lost fight ended for each player in it: got away, caught (by which monsters),
    or died."""
    view = combat_view(state, helpers=False)
    names = {m["index"]: m["name"] for m in view["monsters"]}
    outcomes = []
    for pid in runners(state, fight, view):
        player = find_player(state, pid)
        caught = _listed([names[e["monster"]] for e in fight["escapes"]
                          if e["player"] == pid and not e["escaped"] and e["monster"] in names])
        sex = player["sex"]
        if player["dead"] and caught:
            outcomes.append(said(N_("%(name)s was caught by %(cards)s and died"),
                                 name=player["name"], cards=caught, sex=sex))
        elif player["dead"]:
            outcomes.append(said(N_("%(name)s died"), name=player["name"], sex=sex))
        elif caught:
            outcomes.append(said(N_("%(name)s was caught by %(cards)s"),
                                 name=player["name"], cards=caught, sex=sex))
        else:
            outcomes.append(said(N_("%(name)s got away"), name=player["name"], sex=sex))
    return said(N_("The fight is over: %(outcomes)s."), outcomes=outcomes)
