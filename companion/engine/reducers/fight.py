"""Fights (issue 5): starting, monsters and enhancers, one-shots, helping, resolving, running away."""

from __future__ import annotations

from typing import Any

from .. import deals
from ..core import Context, current_fight, in_fight, own, reducer, set_level
from ..errors import BadAction, Forbidden, RuleViolation
from ..state import bool_field, choice_field, combat_view, find_player, int_field
from ..vocab import SIDES
from .sheet import kill


@reducer("fight")
def _start_fight(state, action, actor, ctx):
    player = own(state, action, actor)
    if in_fight(state):
        raise RuleViolation("one-fight-at-a-time", "finish the current fight first")
    if state["turn"] != player["id"]:
        raise RuleViolation("fight-own-turn", f"it is not {player['name']}'s turn")
    if player["dead"]:
        raise RuleViolation("dead-cannot-help", f"{player['name']} is dead until the next turn")
    monster = monster_card(state, action.get("monster"), ctx, action.get("level"))
    state["combat"] = {
        "fighter": player["id"], "helper": None, "helper_forced": False,
        "monsters": [{"card": monster, "enhancers": [], "gone": False}],
        "one_shots": [], "stage": "fighting", "escapes": [], "offers": [], "deal": None,
        "result": None,
    }
    return f"{player['name']} fights {monster['name']} (level {monster['level']})"


def monster_card(state: dict, spec: Any, ctx: Context, level: Any = None) -> dict:
    """A monster for the fight; ``level`` overrides the printed level (a card whose level the
    catalog does not know, or a table using a different printing)."""
    card = ctx.card(state, spec)
    if card["kind"] != "monster":
        raise BadAction(f"{card['name']} is not a monster.")
    if level is not None:
        card["level"] = int_field({"level": level}, "level", 0, 99)
    if card.get("level") is None:
        raise BadAction(f"The catalog does not know {card['name']}'s level: "
                        "enter the level printed on your card.")
    return card


@reducer("add_monster")
def _add_monster(state, action, actor, ctx):
    fight = current_fight(state)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", "the fight is past the point where monsters join")
    monster = monster_card(state, action.get("monster"), ctx, action.get("level"))
    fight["monsters"].append({"card": monster, "enhancers": [], "gone": False})
    return f"{monster['name']} (level {monster['level']}) joins the fight"


def _monster_index(fight: dict, action: dict, field: str = "monster") -> int:
    return int_field(action, field, 0, len(fight["monsters"]) - 1, 0 if len(fight["monsters"]) == 1 else ...)


@reducer("enhance")
def _enhance(state, action, actor, ctx):
    fight = current_fight(state)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", "enhancers go in while the fight is on")
    index = _monster_index(fight, action)
    card = ctx.card(state, action.get("card"))
    if card["kind"] != "enhancer":
        raise BadAction(f"{card['name']} is not a monster enhancer.")
    fight["monsters"][index]["enhancers"].append(card)
    return f"{card['name']} on {fight['monsters'][index]['card']['name']}"


@reducer("remove_monster")
def _remove_monster(state, action, actor, ctx):
    """A monster leaves the fight without being killed (charmed, discarded by a card)."""
    fight = current_fight(state)
    index = _monster_index(fight, action)
    fight["monsters"][index]["gone"] = True
    name = fight["monsters"][index]["card"]["name"]
    return f"{name} is removed from the fight (no level for it, its treasures still count)"


@reducer("one_shot")
def _one_shot(state, action, actor, ctx):
    fight = current_fight(state)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", "one-shots go in while the fight is on")
    side = choice_field(action, "side", SIDES)
    card = ctx.card(state, action.get("card"))
    if card["kind"] not in ("one-shot", "ally", "other", "item"):
        raise BadAction(f"{card['name']} cannot be played as a one-shot.")
    fight["one_shots"].append({"side": side, "card": card, "by": actor.player})
    return f"{card['name']} for the {side} ({card.get('bonus', 0):+d})"


@reducer("help")
def _help(state, action, actor, ctx):
    fight = current_fight(state)
    player = own(state, action, actor)
    forced = bool_field(action, "forced", False)
    deals.check_join(state, fight, player, ctx.edition)
    fight["helper"] = player["id"]
    fight["helper_forced"] = forced
    return f"{player['name']} helps {find_player(state, fight['fighter'])['name']}" + (
        " (forced by a card)" if forced else "")


@reducer("stop_helping")
def _stop_helping(state, action, actor, ctx):
    fight = current_fight(state)
    if fight.get("helper") is None:
        raise BadAction("Nobody is helping in this fight.")
    helper = find_player(state, fight["helper"])
    if not actor.may_act_for(helper["id"]) and actor.player != fight["fighter"]:
        raise Forbidden("Only the helper, the fighter or the host can end the help.")
    deals.check_leave(state, fight, helper, ctx.edition)
    fight["helper"] = None
    fight["helper_forced"] = False
    fight["deal"] = None
    return f"{helper['name']} stops helping"


@reducer("resolve")
def _resolve(state, action, actor, ctx):
    fight = current_fight(state)
    if fight["stage"] != "fighting":
        raise BadAction("The fight has already been decided; run away or close it.")
    if not (actor.host or actor.player in (fight["fighter"], fight.get("helper"))):
        raise Forbidden("Only the fighter, the helper or the host can resolve the fight.")
    view = combat_view(state, helpers=False)
    fighter = find_player(state, fight["fighter"])
    if not view["winning"]:
        fight["stage"] = "running"
        return (f"{fighter['name']} cannot win ({view['players_strength']} against "
                f"{view['monsters_strength']}): run away")
    return _win(state, fight, view, fighter, ctx)


def _win(state: dict, fight: dict, view: dict, fighter: dict, ctx: Context) -> str:
    rewards = view["rewards"]
    old = fighter["level"]
    lines = [f"{fighter['name']} wins ({view['players_strength']} against {view['monsters_strength']})"]
    if rewards["fighter_levels"]:
        set_level(state, fighter, old + rewards["fighter_levels"], "kill")
        lines.append(f"level {old} to {fighter['level']}")
    helper = find_player(state, fight["helper"]) if fight.get("helper") is not None else None
    if helper is not None and rewards["helper_levels"]:
        hold = helper["level"]
        set_level(state, helper, hold + rewards["helper_levels"], "kill")
        lines.append(f"{helper['name']} level {hold} to {helper['level']}")
    if (helper is not None and fighter["id"] in state["winners"]
            and state.get("variants", {}).get("shared_victory")
            and helper["id"] not in state["winners"]):
        state["winners"].append(helper["id"])
        lines.append(f"{helper['name']} shares the victory")
    lines.append(f"{rewards['treasures']} treasures" + (" face up" if helper else " face down"))
    deal_line = deals.carry_out_deal(state, fight, rewards)
    if deal_line:
        lines.append(deal_line)
    use_up(state, fight)
    fight["stage"] = "over"
    fight["result"] = {"won": True, "text": "; ".join(lines), **rewards}
    return "; ".join(lines)


def use_up(state: dict, fight: dict) -> None:
    """One-shots were discarded when played; next-fight curses end with this fight."""
    for pid in (fight["fighter"], fight.get("helper")):
        if pid is None:
            continue
        player = find_player(state, pid)
        player["cards"] = [c for c in player["cards"]
                           if not (c["card"]["kind"] == "curse" and c["card"].get("duration") == "next_fight")]


@reducer("run_away")
def _run_away(state, action, actor, ctx):
    """Each fighter rolls separately against each monster (Mate copies included)."""
    fight = current_fight(state)
    if fight["stage"] != "running":
        raise RuleViolation("run-away-roll", "resolve the fight first: you run only from a fight you lose")
    player = own(state, action, actor)
    if player["id"] not in (fight["fighter"], fight.get("helper")):
        raise BadAction(f"{player['name']} is not in this fight.")
    view = combat_view(state, helpers=False)
    index = int_field(action, "monster", 0, len(view["monsters"]) - 1,
                      0 if len(view["monsters"]) == 1 else ...)
    monster_view = view["monsters"][index]
    if monster_view["gone"]:
        raise BadAction("That monster has left the fight.")
    if any(e["player"] == player["id"] and e["monster"] == index for e in fight["escapes"]):
        raise RuleViolation("flee-each-monster", f"{player['name']} already rolled against that monster")
    if player["dead"]:
        raise RuleViolation("flee-each-monster", f"{player['name']} is dead and runs from nothing more")
    roll = action.get("roll")
    if roll is None:
        roll = ctx.rng.randint(1, 6)
    roll = int_field({"roll": roll}, "roll", 1, 6)
    need = next(e for e in view["escape"] if e["player"] == player["id"] and e["monster"] == index)
    escaped = bool(need.get("auto")) or roll >= need["needs"]
    card = fight["monsters"][monster_view["source"]]["card"]
    fight["escapes"].append({"player": player["id"], "monster": index, "roll": roll, "escaped": escaped})
    line = f"{player['name']} rolls {roll} against {monster_view['name']} (needs {need['needs']}): "
    if escaped:
        line += "escapes"
    else:
        line += "caught! " + _bad_stuff(state, player, card, ctx)
    _maybe_finish_running(state, fight)
    return line


def _bad_stuff(state: dict, player: dict, monster: dict, ctx: Context) -> str:
    bad = monster.get("bad_stuff") or {}
    if bad.get("death"):
        return kill(state, player, ctx)
    parts = []
    if bad.get("levels"):
        old = player["level"]
        player["level"] = max(1, old - bad["levels"])
        parts.append(f"level {old} to {player['level']}")
    if bad.get("summary"):
        parts.append(bad["summary"])
    return "Bad Stuff: " + ("; ".join(parts) if parts else "as the card says")


def _pending_escapes(state: dict, fight: dict) -> list[tuple[int, int]]:
    """(player, monster index) pairs that still have to roll; the dead run from nothing."""
    view = combat_view(state, helpers=False)
    live = [m["index"] for m in view["monsters"] if not m["gone"]]
    runners = [pid for pid in (fight["fighter"], fight.get("helper"))
               if pid is not None and not find_player(state, pid)["dead"]]
    done = {(e["player"], e["monster"]) for e in fight["escapes"]}
    return [(pid, i) for pid in runners for i in live if (pid, i) not in done]


def _maybe_finish_running(state: dict, fight: dict) -> None:
    if not _pending_escapes(state, fight):
        fight["stage"] = "over"
        use_up(state, fight)
        fight["result"] = {"won": False, "text": "Everyone has run: the fight is over."}


@reducer("sacrifice_ally")
def _sacrifice_ally(state, action, actor, ctx):
    fight = current_fight(state)
    player = own(state, action, actor)
    if not ctx.edition.allies:
        raise RuleViolation("no-allies-in-edition", f"{ctx.edition.name} has no allies")
    if fight["stage"] != "running" or player["id"] not in (fight["fighter"], fight.get("helper")):
        raise RuleViolation("ally-sacrifice-escape", "an ally is sacrificed instead of a run-away roll")
    ally = next((c for c in player["cards"] if c["card"]["kind"] == "ally"), None)
    if ally is None:
        raise RuleViolation("ally-sacrifice-escape", f"{player['name']} has no ally")
    # The ally saves its owner; the fighter decides whether it saves the helper too.
    saved = {player["id"]}
    if action.get("helper_too") is True and player["id"] == fight["fighter"] and fight.get("helper") is not None:
        saved.add(fight["helper"])
    for pid, index in _pending_escapes(state, fight):
        if pid in saved:
            fight["escapes"].append({"player": pid, "monster": index, "roll": None, "escaped": True})
    player["cards"].remove(ally)
    _maybe_finish_running(state, fight)
    return f"{player['name']} sacrifices {ally['card']['name']} and escapes every monster"


@reducer("close_fight")
def _close_fight(state, action, actor, ctx):
    fight = state.get("combat")
    if not fight:
        raise RuleViolation("no-combat", "there is no fight to close")
    if fight["stage"] != "over" and not actor.host:
        raise RuleViolation("no-combat", "the fight is not over yet")
    state["combat"] = None
    return "The fight is cleared from the table"
