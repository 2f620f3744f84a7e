"""The table (issue 2): levels, gear, turns, hands, optional rules, names, seats."""

from __future__ import annotations

from .. import sheet
from ..core import begin_turn, in_fight, level_line, next_turn, own, reducer, set_level
from ..errors import BadAction, Forbidden, RuleViolation
from ..state import bool_field, choice_field, clean_name, clean_sex, find_player, int_field, name_taken
from ..vocab import LEVEL_SOURCES


@reducer("level")
def _level(state, action, actor, ctx):
    player = own(state, action, actor)
    delta = int_field(action, "delta", -9, 9)
    if delta == 0:
        raise BadAction("'delta' must not be 0.")
    source = choice_field(action, "source", LEVEL_SOURCES, "adjust")
    old = player["level"]
    set_level(state, player, old + delta, source)
    return level_line(player, old, source)


@reducer("gear")
def _gear(state, action, actor, ctx):
    player = own(state, action, actor)
    delta = int_field(action, "delta", -50, 50)
    old = player["gear_adjust"]
    if not -99 <= old + delta <= 99:
        raise BadAction("A gear adjustment stays between -99 and 99.")
    player["gear_adjust"] = old + delta
    return f"{player['name']}: gear bonus adjusted by {delta:+d}"


@reducer("set_sex")
def _set_sex(state, action, actor, ctx):
    player = own(state, action, actor)
    sex = clean_sex(action.get("sex"))
    player["sex"] = sex
    return f"{player['name']}: now {sex}"


@reducer("set_turn")
def _set_turn(state, action, actor, ctx):
    target = find_player(state, action.get("player"))
    if not actor.host and actor.player != state["turn"]:
        raise RuleViolation("turn-pass", "only the player whose turn it is, or the host, passes it on")
    if in_fight(state):
        raise RuleViolation("one-fight-at-a-time", "finish the fight before the turn moves on")
    begin_turn(state, target["id"])
    return f"Turn: {target['name']}"


@reducer("end_turn")
def _end_turn(state, action, actor, ctx):
    player = own(state, action, actor)
    if state["turn"] != player["id"]:
        raise RuleViolation("turn-pass", f"it is not {player['name']}'s turn")
    if in_fight(state):
        raise RuleViolation("one-fight-at-a-time", "finish the fight before ending the turn")
    lines = [f"{player['name']} ends the turn"]
    order = action.get("bigger_share")
    if order is not None and not (isinstance(order, list) and all(
            isinstance(pid, int) and not isinstance(pid, bool) for pid in order)):
        raise BadAction("'bigger_share' must be a list of player ids.")
    charity = sheet.charity(state, player, ctx.edition, order=order)
    if charity["excess"]:
        player["hand"] -= charity["excess"]
        for pid, count in charity["gifts"].items():
            find_player(state, pid)["hand"] += count
        lines.append(charity["text"])
    following = next_turn(state)
    if following is not None:
        begin_turn(state, following)
        lines.append(f"turn: {find_player(state, following)['name']}")
    return "; ".join(lines)


@reducer("set_hand")
def _set_hand(state, action, actor, ctx):
    player = own(state, action, actor)
    count = int_field(action, "count", 0, 60)
    if player["dead"] and count > player["hand"]:
        raise RuleViolation("dead-no-cards", f"{player['name']} is dead until the next turn")
    player["hand"] = count
    return f"{player['name']}: {count} cards in hand"


@reducer("set_variant")
def _set_variant(state, action, actor, ctx):
    if not actor.host:
        raise Forbidden("Only the host chooses the optional rules.")
    name = choice_field(action, "variant", ctx.edition.variants)
    on = bool_field(action, "on")
    state.setdefault("variants", {})[name] = on
    return f"Optional rule {name.replace('_', ' ')}: {'on' if on else 'off'}"


@reducer("rename")
def _rename(state, action, actor, ctx):
    player = own(state, action, actor)
    name = clean_name(action.get("name"))
    if name_taken(state, name, besides=player):
        raise BadAction(f"There is already a player called {name} (or a name that looks the same).")
    old, player["name"] = player["name"], name
    return f"{old} is now called {name}"


@reducer("remove_player")
def _remove_player(state, action, actor, ctx):
    """The host takes a seat away (a stranger who joined, a friend who went home): the
    player's token stops working at once and their cards leave the table with them."""
    if not actor.host:
        raise Forbidden("Only the host can remove a player from the table.")
    player = find_player(state, action.get("player"))
    following = next_turn(state) if state["turn"] == player["id"] else state["turn"]
    fight = state.get("combat")
    if fight and fight["fighter"] == player["id"]:
        state["combat"] = None
    elif fight:
        if fight.get("helper") == player["id"]:
            fight["helper"], fight["helper_forced"], fight["deal"] = None, False, None
        fight["offers"] = [o for o in fight.get("offers", []) if o["to"] != player["id"]]
    state["players"].remove(player)
    state["turn"] = following if state["players"] else None
    if following == player["id"]:  # they were the only player left
        state["turn"] = None
    return f"The host removes {player['name']} from the table"


@reducer("lock_table")
def _lock_table(state, action, actor, ctx):
    """A locked table takes no new joins (the host can still seat a phoneless player)."""
    if not actor.host:
        raise Forbidden("Only the host can lock or unlock the table.")
    locked = bool_field(action, "locked")
    state["locked"] = locked
    return "The host locks the table: nobody else can join" if locked else "The host unlocks the table"
