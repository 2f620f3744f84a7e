"""The character sheet (issue 3): playing cards in front of you, curses, equipping, selling, giving, death."""

from __future__ import annotations

from .. import character, sheet
from ..core import Context, in_fight, level_line, own, reducer, set_level
from ..errors import BadAction, Forbidden, RuleViolation
from ..state import bool_field, find_card, find_player, int_field, next_id


@reducer("play")
def _play(state, action, actor, ctx):
    target = find_player(state, action.get("player"))
    card = ctx.card(state, action.get("card"))
    kind = card["kind"]
    # A curse or a Go Up a Level may be played on anyone; everything else goes in front of
    # its owner, so only that player (or the host) may put it there.
    if kind not in ("curse", "go-up-a-level") and not actor.may_act_for(target["id"]):
        raise Forbidden(f"Only {target['name']} or the host can put cards in front of {target['name']}.")
    if kind == "go-up-a-level":
        old = target["level"]
        set_level(state, target, old + card.get("levels", 1), "card")
        return level_line(target, old, "card").replace("Go Up a Level card", card["name"])
    if kind == "curse":
        return _curse(state, target, card, ctx)
    if kind in ("monster", "enhancer", "one-shot"):
        raise BadAction(f"{card['name']} is a {kind}: play it into a fight instead.")
    if target["dead"]:
        raise RuleViolation("dead-no-cards", f"{target['name']} is dead until the next turn")
    if kind == "item" and in_fight(state) and state["combat"]["fighter"] == target["id"]:
        raise RuleViolation("no-equip-in-combat", "items cannot be brought into a fight already on")
    character.check_play(target, card, ctx.edition)
    entry = {"iid": next_id(state), "card": card}
    if kind == "item":
        entry["equipped"] = sheet.can_equip_now(target, card, ctx.edition)
    target["cards"].append(entry)
    where = " (equipped)" if entry.get("equipped") else (" (carried)" if kind == "item" else "")
    return f"{target['name']} plays {card['name']}{where}"


def _curse(state: dict, target: dict, card: dict, ctx: Context) -> str:
    outcome = sheet.apply_curse(target, card, ctx.edition)
    lines = [f"{target['name']} is cursed: {card['name']}"]
    if outcome["levels"]:
        old = target["level"]
        target["level"] = max(1, old - outcome["levels"])
        lines.append(f"level {old} to {target['level']}")
    if outcome["change_sex"]:
        target["sex"] = "female" if target["sex"] == "male" else "male"
        lines.append(f"now {target['sex']}")
    if outcome["keep"]:
        target["cards"].append({"iid": next_id(state), "card": card})
        lines.append("it stays in front of them")
    if outcome["candidates"]:
        names = ", ".join(c["card"]["name"] for c in outcome["candidates"])
        lines.append(f"they discard one of: {names} (the victim picks)")
    if outcome["nothing"]:
        lines.append(f"nothing to affect, so it does nothing ({outcome['nothing']})")
    return "; ".join(lines)


@reducer("discard")
def _discard(state, action, actor, ctx):
    player = own(state, action, actor)
    entry = find_card(player, action.get("instance"))
    # Races and classes may be discarded at any time, even in a fight; items leave by being
    # sold, given, or lost to a curse or Bad Stuff, which a phone records as a discard too.
    dropped = sheet.discard(player, entry["iid"], ctx.edition)
    names = ", ".join(d["card"]["name"] for d in dropped)
    return f"{player['name']} discards {names}"


@reducer("equip")
def _equip(state, action, actor, ctx):
    player = own(state, action, actor)
    entry = find_card(player, action.get("instance"))
    equipped = bool_field(action, "equipped")
    if entry["card"]["kind"] != "item":
        raise BadAction(f"{entry['card']['name']} is not an item.")
    if in_fight(state) and player["id"] in (state["combat"]["fighter"], state["combat"].get("helper")):
        raise RuleViolation("no-equip-in-combat", f"{player['name']} is in a fight")
    if equipped:
        character.check_equip(player, entry["iid"], ctx.edition)
    entry["equipped"] = equipped
    return f"{player['name']} {'equips' if equipped else 'unequips'} {entry['card']['name']}"


@reducer("sell")
def _sell(state, action, actor, ctx):
    player = own(state, action, actor)
    iids = action.get("instances", [])
    if not isinstance(iids, list) or len(set(map(str, iids))) != len(iids):
        raise BadAction("'instances' must be a list of distinct card instance ids.")
    entries = [find_card(player, iid, "instances") for iid in iids]
    hand_gold = int_field(action, "hand_gold", 0, 100000, 0)  # items sold straight from the hand
    if not entries and not hand_gold:
        raise BadAction("Pick the items to sell, or enter the gold of items sold from your hand.")
    if state["turn"] != player["id"]:
        raise RuleViolation("sell-own-turn", f"it is not {player['name']}'s turn")
    if in_fight(state):
        raise RuleViolation("sell-not-in-combat", "a fight is going on")
    sale = sheet.sale(player, entries, ctx.edition, hand_gold=hand_gold)
    old = player["level"]
    if sale["levels"]:
        set_level(state, player, old + sale["levels"], "sell")
    sold = {e["iid"] for e in entries}
    player["cards"] = [c for c in player["cards"] if c["iid"] not in sold]
    names = ", ".join([e["card"]["name"] for e in entries] + (["cards from the hand"] if hand_gold else []))
    line = f"{player['name']} sells {names} for {sale['gold']} gold"
    if sale["levels"]:
        line += f": level {old} to {player['level']}"
    if sale["wasted"]:
        line += f" ({sale['wasted']} gold lost: no change is given)"
    return line


@reducer("give")
def _give(state, action, actor, ctx):
    player = own(state, action, actor)
    entry = find_card(player, action.get("instance"))
    receiver = find_player(state, action.get("to"), "to")
    if receiver["id"] == player["id"]:
        raise BadAction("Give it to another player.")
    if entry["card"]["kind"] != "item":
        raise RuleViolation("give-items-only", f"{entry['card']['name']} is not an item")
    fight = state.get("combat")
    if in_fight(state) and {player["id"], receiver["id"]} & {fight["fighter"], fight.get("helper")}:
        raise RuleViolation("no-trade-in-combat", "one of you is in a fight")
    if receiver["dead"]:
        raise RuleViolation("dead-no-cards", f"{receiver['name']} is dead until the next turn")
    character.check_play(receiver, entry["card"], ctx.edition)
    player["cards"].remove(entry)
    receiver["cards"].append({"iid": entry["iid"], "card": entry["card"], "equipped": False})
    return f"{player['name']} gives {entry['card']['name']} to {receiver['name']}"


@reducer("die")
def _die(state, action, actor, ctx):
    player = own(state, action, actor)
    return kill(state, player, ctx)


def kill(state: dict, player: dict, ctx: Context) -> str:
    lost = sheet.death(player, ctx.edition)
    order = sheet.looting_order(state, player, ctx.rng)
    player["dead"] = True
    fight = state.get("combat")
    if fight and fight["stage"] == "fighting" and fight.get("helper") == player["id"]:
        fight["helper"] = None
    names = ", ".join(c["card"]["name"] for c in lost) or "nothing in play"
    looters = ", ".join(find_player(state, pid)["name"] for pid in order) or "nobody"
    return (f"{player['name']} dies: loses {names} and the hand; looting order {looters}; "
            f"draws {ctx.edition.dead_redraw} from each deck on their next turn")
