"""Monster conditions that act by themselves (docs/ENGINE.md, "Monster conditions").

- ``chase_away`` (with an ``if`` on a player facing it): a Cleric facing the Wannabe Vampire,
  a Human facing the Human Rights Activist, a female character facing the Amazon. The monster
  leaves the fight at once, marked ``gone`` like a charmed one: its treasures are won, no level
  (Munchkin (classic rules), Asking For Help and Treasure; Munchkin Tails, Asking For Help).
- ``no_pursuit`` (value N): the monster does not chase a player of level N or less. When the
  fight is lost, such a player escapes it without rolling and suffers nothing, not even its
  ``on_flee`` steps (the escape row says ``not_pursued``; combat.py computes it).

Fight rules (a monster card's ``fight_rules``, ``card_schema.FightRule``), each
with its ruling in ``rulings/monsters.json``:

- ``no_help`` (Gazebo, ``monster-no-help``): while it is in the fight, joining as a helper is
  refused; a helper already in when it arrives (a Wandering Monster) drops out.
- ``discard_item_first`` (Tongue Demon, ``monster-discard-item-first``): when it enters the
  fight the fighter owes the discard of one item in play (their pick, ``pending_losses`` as
  a curse's; the only one goes at once), and the fight is not decided until it is paid.
- ``drop_to_escape`` (Pit Bull, ``monster-drop-to-escape``): a player running from it who
  discards an item with one of its tags gets away from it without a roll.
- ``level_ignored`` and ``extra_levels`` change the sums and rewards (combat.py).

``after_action`` runs after every accepted action (``actions.apply``), so a helper who joins,
a race card played mid-fight or a level lost to another monster's Bad Stuff all count; what
it did rides on the action's event as extra parts.
"""

from __future__ import annotations

from . import character, sheet
from .combat import fight_rules
from .core import Context
from .errors import BadAction, RuleViolation
from .fight_end import end_if_no_monsters, finish_if_nobody_runs
from .public import combat_view
from .state import find_player
from .words import N_, said

# the events of a player joining a fight as its helper
JOINED = frozenset({"help", "help_forced", "accept_offer", "accept_help"})
# the events of a fight being decided
DECIDED = frozenset({"fight_won", "fight_lost"})


def _auto_escape_possible(state: dict, fight: dict) -> bool:
    """A monster or a runner's card gives an escape without a roll (Potted Plant): cheap
    first look before the escape rows are worked out."""
    if _has(fight, "auto_escape"):
        return True
    runners = [p for p in state["players"] if p["id"] in (fight["fighter"], fight.get("helper"))]
    return any(e.get("stat") == "auto_escape" for p in runners for c in p["cards"]
               for e in c["card"].get("effects") or ())


def check_chase_away(fight: dict, player: dict, index: int, ctx: Context) -> None:
    """Whether ``player`` may chase the monster at stored ``index`` away by its card's option
    (a Cleric and the Wannabe Vampire): it is still in the fight and its card offers it."""
    monster = fight["monsters"][index]
    offered = [e for e in monster["card"].get("effects") or ()
               if e.get("stat") == "chase_away" and e.get("choice")
               and character.meets(e.get("if"), player, ctx.edition)]
    if monster.get("gone") or not offered:
        raise BadAction(N_("%(name)s cannot chase %(monster)s away."), name=player["name"], sex=player.get("sex"),
                        monster=monster["card"].get("name") or said(N_("Monster")))


def chase_away_choice(state: dict, fight: dict, player: dict, index: int, ctx: Context) -> list[dict]:
    """``player`` takes the card's option to chase the monster at stored ``index`` away
    (``check_chase_away`` said it may): marked gone, its treasures count, no level for it."""
    monster = fight["monsters"][index]
    monster["gone"] = True
    monster["chased_by"] = player["id"]
    out = [said(N_("%(name)s chases %(monster)s away: its treasures count, no level for it"),
                player=player["id"], name=player["name"], sex=player.get("sex"),
                monster=monster["card"].get("name") or said(N_("Monster")))]
    ended = end_if_no_monsters(state, ctx)
    return out + [ended] if ended else out


def _has(fight: dict, stat: str) -> bool:
    return any(e.get("stat") == stat for m in fight.get("monsters") or ()
               for e in m["card"].get("effects") or ())


def chase_away(state: dict, fight: dict, ctx: Context) -> list[dict]:
    """Monsters chased away by a player facing them: each is marked ``gone`` (a Mate's copy
    with it: the same card, the same condition). When none is left the fight ends where the
    rules end it then, as after any other monster leaves."""
    facing = [find_player(state, pid) for pid in (fight["fighter"], fight.get("helper"))
              if pid is not None]
    out = []
    for monster in fight["monsters"]:
        if monster.get("gone"):
            continue
        for eff in monster["card"].get("effects") or ():
            if eff.get("stat") != "chase_away" or not eff.get("value", True) or eff.get("choice"):
                continue  # a card's "may" is the player's choice: the chase_away action
            who = next((p for p in facing if character.meets(eff.get("if"), p, ctx.edition)), None)
            if who is None:
                continue
            monster["gone"] = True
            monster["chased_by"] = who["id"]
            out.append(said(N_("%(name)s chases %(monster)s away: its treasures count, "
                               "no level for it"), player=who["id"], name=who["name"], sex=who.get("sex"),
                            monster=monster["card"].get("name") or said(N_("Monster"))))
            break
    ended = end_if_no_monsters(state, ctx) if out else None
    return out + [ended] if ended else out


NO_ROLL_WORDS = {"not_pursued": N_("%(monster)s does not pursue %(name)s: escaped without a roll"),
                 "auto": N_("%(name)s escapes %(monster)s automatically, without a roll")}


def not_pursued(state: dict, fight: dict, ctx: Context) -> list[dict]:
    """Record an escape without a roll for every player a monster does not pursue, or who
    escapes it automatically (Potted Plant): no die is offered, none is rolled."""
    view = combat_view(state, helpers=False)
    done = {(e["player"], e["monster"]) for e in fight["escapes"]}
    names = {m["index"]: m["name"] for m in view["monsters"]}
    out = []
    for row in view["escape"]:
        key = (row["player"], row["monster"])
        if not (row.get("not_pursued") or row.get("auto")) or key in done \
                or find_player(state, row["player"])["dead"]:
            continue
        player = find_player(state, row["player"])
        why = "not_pursued" if row.get("not_pursued") else "auto"
        fight["escapes"].append({"player": row["player"], "monster": row["monster"],
                                 "roll": None, "escaped": True, why: True})
        out.append(said(NO_ROLL_WORDS[why], player=player["id"], name=player["name"], sex=player.get("sex"),
                        monster=names[row["monster"]]))
    if out:
        finish_if_nobody_runs(state, fight)
    return out


def _live_with(fight: dict, rule: str) -> list[dict]:
    return [m for m in fight.get("monsters") or () if not m.get("gone") and fight_rules(m, rule)]


def no_help(state: dict, fight: dict, happened: dict) -> list[dict]:
    """Nobody helps against a ``no_help`` monster: a helper joining is refused; one who was
    already in when it arrived drops out, and the deal made for the help with them."""
    lone = _live_with(fight, "no_help")
    if not lone or fight.get("helper") is None:
        return []
    name = lone[0]["card"].get("name") or said(N_("Monster"))
    if happened.get("kind") in JOINED:
        raise RuleViolation("monster-no-help", N_("nobody may help against %(monster)s"),
                            monster=name)
    helper = find_player(state, fight["helper"])
    fight["helper"], fight["helper_forced"], fight["deal"] = None, False, None
    return [said(N_("%(name)s stops helping: nobody may help against %(monster)s"),
                 player=helper["id"], name=helper["name"], sex=helper.get("sex"), monster=name)]


def discard_item_first(state: dict, fight: dict, ctx: Context, happened: dict) -> list[dict]:
    """The fighter owes an item for each ``discard_item_first`` monster as it enters the fight
    (marked ``item_owed`` so it is asked once); deciding the fight waits until it is paid."""
    fighter = find_player(state, fight["fighter"])
    out = []
    for monster in _live_with(fight, "discard_item_first"):
        if monster.get("item_owed"):
            continue
        monster["item_owed"] = True
        items = sheet.curse_candidates(fighter, "any")
        if len(items) == 1:  # nothing to pick: the only item goes at once
            sheet.discard(fighter, items[0]["iid"], ctx.edition)
            out.append(said(N_("%(monster)s: %(name)s discards %(card)s before the fight"),
                            player=fighter["id"], name=fighter["name"], sex=fighter.get("sex"),
                            monster=monster["card"]["name"], card=items[0]["card"]["name"]))
        elif items:
            sheet.owe_loss(fighter, monster["card"], items)
    if happened.get("kind") in DECIDED:
        owed = {m["card"].get("name") for m in _live_with(fight, "discard_item_first")}
        if any(loss["card"] in owed for loss in fighter.get("pending_losses") or ()):
            raise RuleViolation("monster-discard-item-first",
                                N_("%(name)s must first discard an item for %(monster)s"),
                                name=fighter["name"], monster=sorted(owed)[0], sex=fighter["sex"])
    return out


def drop_to_escape(state: dict, fight: dict, happened: dict) -> list[dict]:
    """A runner who has just discarded an item with a tag the monster names gets away from it
    without a roll. The items each runner could drop are noted when the running starts
    (``droppable``), so the discard is recognised after the card has left the sheet."""
    view = combat_view(state, helpers=False)
    rows = [r for r in view["escape"] if r.get("drop_to_escape") and r.get("escaped") is None]
    droppable = fight.setdefault("droppable", {})
    for row in rows:
        player = find_player(state, row["player"])
        key = f"{row['player']}:{row['monster']}"
        if key not in droppable:
            droppable[key] = [c["iid"] for c in player["cards"]
                              if set(c["card"].get("tags") or ()) & set(row["drop_to_escape"])]
    if happened.get("kind") != "discard":
        return []
    out = []
    names = {m["index"]: m["name"] for m in view["monsters"]}
    for row in rows:
        player = find_player(state, row["player"])
        if player["id"] != happened.get("player") or player["dead"]:
            continue
        present = {c["iid"] for c in player["cards"]}
        if not any(i not in present for i in droppable.get(f"{row['player']}:{row['monster']}", ())):
            continue
        fight["escapes"].append({"player": row["player"], "monster": row["monster"],
                                 "roll": None, "escaped": True, "dropped": True})
        out.append(said(N_("%(name)s drops %(card)s and gets away from %(monster)s"),
                        player=player["id"], name=player["name"], sex=player.get("sex"), card=happened.get("cards"),
                        monster=names[row["monster"]]))
    if out:
        finish_if_nobody_runs(state, fight)
    return out


def after_action(state: dict, happened: dict, ctx: Context) -> dict:
    """Apply the conditions the action has just triggered; the event gains their words."""
    fight = state.get("combat")
    if not fight:
        return happened
    parts: list[dict] = []
    if fight["stage"] == "fighting" and _live_with(fight, "no_help"):
        parts += no_help(state, fight, happened)
    if fight["stage"] == "fighting" or happened.get("kind") in DECIDED:
        parts += discard_item_first(state, fight, ctx, happened)
    if fight["stage"] == "fighting" and _has(fight, "chase_away"):
        parts += chase_away(state, fight, ctx)
    if fight["stage"] == "running" and (_has(fight, "no_pursuit") or _auto_escape_possible(state, fight)):
        parts += not_pursued(state, fight, ctx)
    if fight["stage"] == "running" and any(fight_rules(m, "drop_to_escape") for m in fight["monsters"]):
        parts += drop_to_escape(state, fight, happened)
    if not parts:
        return happened
    return {**happened, "parts": list(happened.get("parts") or []) + parts}
