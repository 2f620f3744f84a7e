"""The action vocabulary: one reducer per action ``type``.

``apply(state, action, actor)`` is the only way a game changes. It works on a copy, so a
refused action (BadAction, Forbidden, RuleViolation) leaves the caller's state untouched.
Each reducer changes the copy in place and returns one line for the history, written the
way a player would say it ("Ann: level 4 to 5, killed a monster").
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable

from . import character, deals, editions, rulebook, sheet
from .errors import BadAction, Forbidden, RuleViolation, TooLarge
from .state import (
    bool_field, choice_field, clean_sex, combat_view, find_card, find_player, int_field,
    next_id, seat_order,
)
from .vocab import LEVEL_SOURCES, LIVE_STAGES, SIDES

MAX_LEVEL = 10
SOURCE_WORDS = {"kill": "killed a monster", "card": "Go Up a Level card", "sell": "sold items",
                "adjust": "adjusted"}


@dataclass(frozen=True)
class Actor:
    """Who sends an action: the host (may act for anyone) or one seated player."""

    player: int | None = None
    host: bool = False

    def may_act_for(self, pid: int) -> bool:
        return self.host or self.player == pid

    @property
    def seated(self) -> bool:
        return self.host or self.player is not None


# Card resolution is injected by the web layer (the catalog lives outside the engine, so the
# engine stays free of files and I/O). It maps a CARD (catalog id or inline dict) to a card dict.
CardResolver = Callable[[Any, list], dict]


def _default_resolver(spec: Any, house_cards: list) -> dict:
    from companion.catalog import resolve_card  # local import: the engine has no hard dependency

    return resolve_card(spec, house_cards=house_cards)


Reducer = Callable[[dict, dict, Actor, "Context"], str]
REDUCERS: dict[str, Reducer] = {}
# Actions that may still be taken once somebody has won (the history stays honest).
AFTER_WIN = {"set_sex", "set_hand", "remove_player", "lock_table"}


@dataclass
class Context:
    edition: editions.Edition
    resolve: CardResolver
    rng: random.Random

    def card(self, state: dict, spec: Any) -> dict:
        if spec is None:
            raise BadAction("'card' is required: a catalog id or a card.")
        return self.resolve(spec, state.get("house_cards", []))


def reducer(name: str):
    def register(fn: Reducer) -> Reducer:
        REDUCERS[name] = fn
        return fn
    return register


def apply(state: dict, action: Any, actor: Actor, *, resolve: CardResolver | None = None,
          rng: random.Random | None = None) -> tuple[dict, str]:
    """Apply one action to a copy of ``state``; return (new state, history line).

    ``action`` is a dict (JSON from the API, or what a form becomes) or an action model; it
    is parsed first (``action_models.parse_action``), so a malformed one is a ``BadAction``
    naming the field, and the reducer gets the validated data under the same field names.
    """
    # Imported here: the models use the catalog's card schema, which imports this package.
    from .action_models import parse_action

    action = parse_action(action).data()
    kind = action["type"]
    if kind not in REDUCERS:
        raise BadAction(f"Unknown action type {kind!r}.")
    if not actor.seated:
        raise Forbidden("Join the game first: only seated players and the host can act.")
    edition = editions.get(state["edition"])
    ctx = Context(edition=edition, resolve=resolve or _default_resolver, rng=rng or random.Random())
    new = copy.deepcopy(state)
    try:
        if new["winners"] and kind not in AFTER_WIN:
            names = ", ".join(find_player(new, w)["name"] for w in new["winners"])
            raise RuleViolation("game-over", f"{names} already won")
        text = REDUCERS[kind](new, action, actor, ctx)
    except RuleViolation as violation:
        raise rulebook.fill(violation, edition.id)
    return new, text


def check(state: dict, action: Any, actor: Actor, **kwargs) -> dict:
    """The verdict ``apply`` would give, without changing anything (the arbiter's check)."""
    try:
        apply(state, action, actor, **kwargs)
    except RuleViolation as v:
        return {"allowed": False, **v.as_dict()}
    return {"allowed": True, "message": "Allowed.", "rule": None, "citation": None}


# --- helpers -------------------------------------------------------------------------------

def _own(state: dict, action: dict, actor: Actor, field: str = "player") -> dict:
    player = find_player(state, action.get(field), field)
    if not actor.may_act_for(player["id"]):
        raise Forbidden(f"Only {player['name']} or the host can do that for {player['name']}.")
    return player


def _in_fight(state: dict) -> bool:
    fight = state.get("combat")
    return bool(fight) and fight["stage"] in LIVE_STAGES


def _fight(state: dict) -> dict:
    if not _in_fight(state):
        raise RuleViolation("no-combat", "nobody is fighting right now")
    return state["combat"]


def _set_level(state: dict, player: dict, new_level: int, source: str) -> None:
    """Move a level by the rules: never below 1, the winning level only by a kill."""
    if new_level < 1:
        raise RuleViolation("level-minimum", f"{player['name']} is level {player['level']}")
    if new_level >= MAX_LEVEL and source != "kill":
        raise RuleViolation("level-ten-needs-kill",
                            f"{player['name']} would reach level {MAX_LEVEL} by {SOURCE_WORDS[source]}")
    if player["dead"] and new_level > player["level"]:
        raise RuleViolation("dead-no-cards", f"{player['name']} is dead until the next turn")
    player["level"] = min(new_level, MAX_LEVEL)
    if player["level"] == MAX_LEVEL and player["id"] not in state["winners"]:
        state["winners"].append(player["id"])


def _level_line(player: dict, old: int, source: str) -> str:
    line = f"{player['name']}: level {old} to {player['level']}, {SOURCE_WORDS[source]}"
    if player["level"] == MAX_LEVEL:
        line += f". {player['name']} wins the game!"
    return line


def _next_turn(state: dict) -> int | None:
    order = seat_order(state)
    if not order:
        return None
    if state["turn"] not in order:
        return order[0]
    return order[(order.index(state["turn"]) + 1) % len(order)]


def _begin_turn(state: dict, pid: int) -> None:
    state["turn"] = pid
    # A dead player's new character appears when the next player's turn begins.
    for player in state["players"]:
        player["dead"] = False
    if state.get("combat") and state["combat"]["stage"] == "over":
        state["combat"] = None


# --- table (issue 2) -----------------------------------------------------------------------

@reducer("level")
def _level(state, action, actor, ctx):
    player = _own(state, action, actor)
    delta = int_field(action, "delta", -9, 9)
    if delta == 0:
        raise BadAction("'delta' must not be 0.")
    source = choice_field(action, "source", LEVEL_SOURCES, "adjust")
    old = player["level"]
    _set_level(state, player, old + delta, source)
    return _level_line(player, old, source)


@reducer("gear")
def _gear(state, action, actor, ctx):
    player = _own(state, action, actor)
    delta = int_field(action, "delta", -50, 50)
    old = player["gear_adjust"]
    if not -99 <= old + delta <= 99:
        raise BadAction("A gear adjustment stays between -99 and 99.")
    player["gear_adjust"] = old + delta
    return f"{player['name']}: gear bonus adjusted by {delta:+d}"


@reducer("set_sex")
def _set_sex(state, action, actor, ctx):
    player = _own(state, action, actor)
    sex = clean_sex(action.get("sex"))
    player["sex"] = sex
    return f"{player['name']}: now {sex}"


@reducer("set_turn")
def _set_turn(state, action, actor, ctx):
    target = find_player(state, action.get("player"))
    if not actor.host and actor.player != state["turn"]:
        raise RuleViolation("turn-pass", "only the player whose turn it is, or the host, passes it on")
    if _in_fight(state):
        raise RuleViolation("one-fight-at-a-time", "finish the fight before the turn moves on")
    _begin_turn(state, target["id"])
    return f"Turn: {target['name']}"


@reducer("end_turn")
def _end_turn(state, action, actor, ctx):
    player = _own(state, action, actor)
    if state["turn"] != player["id"]:
        raise RuleViolation("turn-pass", f"it is not {player['name']}'s turn")
    if _in_fight(state):
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
    following = _next_turn(state)
    if following is not None:
        _begin_turn(state, following)
        lines.append(f"turn: {find_player(state, following)['name']}")
    return "; ".join(lines)


@reducer("set_hand")
def _set_hand(state, action, actor, ctx):
    player = _own(state, action, actor)
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
    from .state import clean_name, name_taken

    player = _own(state, action, actor)
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
    following = _next_turn(state) if state["turn"] == player["id"] else state["turn"]
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


# --- the character sheet (issue 3) ---------------------------------------------------------

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
        _set_level(state, target, old + card.get("levels", 1), "card")
        return _level_line(target, old, "card").replace("Go Up a Level card", card["name"])
    if kind == "curse":
        return _curse(state, target, card, ctx)
    if kind in ("monster", "enhancer", "one-shot"):
        raise BadAction(f"{card['name']} is a {kind}: play it into a fight instead.")
    if target["dead"]:
        raise RuleViolation("dead-no-cards", f"{target['name']} is dead until the next turn")
    if kind == "item" and _in_fight(state) and state["combat"]["fighter"] == target["id"]:
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
    player = _own(state, action, actor)
    entry = find_card(player, action.get("instance"))
    # Races and classes may be discarded at any time, even in a fight; items leave by being
    # sold, given, or lost to a curse or Bad Stuff, which a phone records as a discard too.
    dropped = sheet.discard(player, entry["iid"], ctx.edition)
    names = ", ".join(d["card"]["name"] for d in dropped)
    return f"{player['name']} discards {names}"


@reducer("equip")
def _equip(state, action, actor, ctx):
    player = _own(state, action, actor)
    entry = find_card(player, action.get("instance"))
    equipped = bool_field(action, "equipped")
    if entry["card"]["kind"] != "item":
        raise BadAction(f"{entry['card']['name']} is not an item.")
    if _in_fight(state) and player["id"] in (state["combat"]["fighter"], state["combat"].get("helper")):
        raise RuleViolation("no-equip-in-combat", f"{player['name']} is in a fight")
    if equipped:
        character.check_equip(player, entry["iid"], ctx.edition)
    entry["equipped"] = equipped
    return f"{player['name']} {'equips' if equipped else 'unequips'} {entry['card']['name']}"


@reducer("sell")
def _sell(state, action, actor, ctx):
    player = _own(state, action, actor)
    iids = action.get("instances", [])
    if not isinstance(iids, list) or len(set(map(str, iids))) != len(iids):
        raise BadAction("'instances' must be a list of distinct card instance ids.")
    entries = [find_card(player, iid, "instances") for iid in iids]
    hand_gold = int_field(action, "hand_gold", 0, 100000, 0)  # items sold straight from the hand
    if not entries and not hand_gold:
        raise BadAction("Pick the items to sell, or enter the gold of items sold from your hand.")
    if state["turn"] != player["id"]:
        raise RuleViolation("sell-own-turn", f"it is not {player['name']}'s turn")
    if _in_fight(state):
        raise RuleViolation("sell-not-in-combat", "a fight is going on")
    sale = sheet.sale(player, entries, ctx.edition, hand_gold=hand_gold)
    old = player["level"]
    if sale["levels"]:
        _set_level(state, player, old + sale["levels"], "sell")
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
    player = _own(state, action, actor)
    entry = find_card(player, action.get("instance"))
    receiver = find_player(state, action.get("to"), "to")
    if receiver["id"] == player["id"]:
        raise BadAction("Give it to another player.")
    if entry["card"]["kind"] != "item":
        raise RuleViolation("give-items-only", f"{entry['card']['name']} is not an item")
    fight = state.get("combat")
    if _in_fight(state) and {player["id"], receiver["id"]} & {fight["fighter"], fight.get("helper")}:
        raise RuleViolation("no-trade-in-combat", "one of you is in a fight")
    if receiver["dead"]:
        raise RuleViolation("dead-no-cards", f"{receiver['name']} is dead until the next turn")
    character.check_play(receiver, entry["card"], ctx.edition)
    player["cards"].remove(entry)
    receiver["cards"].append({"iid": entry["iid"], "card": entry["card"], "equipped": False})
    return f"{player['name']} gives {entry['card']['name']} to {receiver['name']}"


@reducer("die")
def _die(state, action, actor, ctx):
    player = _own(state, action, actor)
    return _kill(state, player, ctx)


def _kill(state: dict, player: dict, ctx: Context) -> str:
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


# --- fights (issue 5) ----------------------------------------------------------------------

@reducer("fight")
def _start_fight(state, action, actor, ctx):
    player = _own(state, action, actor)
    if _in_fight(state):
        raise RuleViolation("one-fight-at-a-time", "finish the current fight first")
    if state["turn"] != player["id"]:
        raise RuleViolation("fight-own-turn", f"it is not {player['name']}'s turn")
    if player["dead"]:
        raise RuleViolation("dead-cannot-help", f"{player['name']} is dead until the next turn")
    monster = _monster_card(state, action.get("monster"), ctx, action.get("level"))
    state["combat"] = {
        "fighter": player["id"], "helper": None, "helper_forced": False,
        "monsters": [{"card": monster, "enhancers": [], "gone": False}],
        "one_shots": [], "stage": "fighting", "escapes": [], "offers": [], "deal": None,
        "result": None,
    }
    return f"{player['name']} fights {monster['name']} (level {monster['level']})"


def _monster_card(state: dict, spec: Any, ctx: Context, level: Any = None) -> dict:
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
    fight = _fight(state)
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", "the fight is past the point where monsters join")
    monster = _monster_card(state, action.get("monster"), ctx, action.get("level"))
    fight["monsters"].append({"card": monster, "enhancers": [], "gone": False})
    return f"{monster['name']} (level {monster['level']}) joins the fight"


def _monster_index(fight: dict, action: dict, field: str = "monster") -> int:
    return int_field(action, field, 0, len(fight["monsters"]) - 1, 0 if len(fight["monsters"]) == 1 else ...)


@reducer("enhance")
def _enhance(state, action, actor, ctx):
    fight = _fight(state)
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
    fight = _fight(state)
    index = _monster_index(fight, action)
    fight["monsters"][index]["gone"] = True
    name = fight["monsters"][index]["card"]["name"]
    return f"{name} is removed from the fight (no level for it, its treasures still count)"


@reducer("one_shot")
def _one_shot(state, action, actor, ctx):
    fight = _fight(state)
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
    fight = _fight(state)
    player = _own(state, action, actor)
    forced = bool_field(action, "forced", False)
    deals.check_join(state, fight, player, ctx.edition)
    fight["helper"] = player["id"]
    fight["helper_forced"] = forced
    return f"{player['name']} helps {find_player(state, fight['fighter'])['name']}" + (
        " (forced by a card)" if forced else "")


@reducer("stop_helping")
def _stop_helping(state, action, actor, ctx):
    fight = _fight(state)
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
    fight = _fight(state)
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
        _set_level(state, fighter, old + rewards["fighter_levels"], "kill")
        lines.append(f"level {old} to {fighter['level']}")
    helper = find_player(state, fight["helper"]) if fight.get("helper") is not None else None
    if helper is not None and rewards["helper_levels"]:
        hold = helper["level"]
        _set_level(state, helper, hold + rewards["helper_levels"], "kill")
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
    _use_up(state, fight)
    fight["stage"] = "over"
    fight["result"] = {"won": True, "text": "; ".join(lines), **rewards}
    return "; ".join(lines)


def _use_up(state: dict, fight: dict) -> None:
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
    fight = _fight(state)
    if fight["stage"] != "running":
        raise RuleViolation("run-away-roll", "resolve the fight first: you run only from a fight you lose")
    player = _own(state, action, actor)
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
        return _kill(state, player, ctx)
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
        _use_up(state, fight)
        fight["result"] = {"won": False, "text": "Everyone has run: the fight is over."}


@reducer("sacrifice_ally")
def _sacrifice_ally(state, action, actor, ctx):
    fight = _fight(state)
    player = _own(state, action, actor)
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


# --- help and bribes (issue 6) ------------------------------------------------------------

@reducer("offer")
def _offer(state, action, actor, ctx):
    fight = _fight(state)
    fighter = find_player(state, fight["fighter"])
    if not actor.may_act_for(fighter["id"]):
        raise RuleViolation("bribe-fighter-only", "only the player in the fight offers a bribe")
    offer = deals.make_offer(state, fight, action, ctx.edition, combat_view(state, helpers=False))
    fight["offers"] = [o for o in fight["offers"] if o["to"] != offer["to"]] + [offer]
    return deals.describe_offer(state, offer, f"{fighter['name']} offers")


@reducer("accept_offer")
def _accept_offer(state, action, actor, ctx):
    fight = _fight(state)
    player = _own(state, action, actor)
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
    fight = _fight(state)
    player = _own(state, action, actor)
    before = len(fight["offers"])
    fight["offers"] = [o for o in fight["offers"] if o["to"] != player["id"]]
    if len(fight["offers"]) == before:
        raise BadAction(f"There is no offer for {player['name']}.")
    return f"{player['name']} declines the offer"


# --- house cards (issue 4) ----------------------------------------------------------------

def _house_card(state: dict, data: Any) -> dict:
    from companion.catalog import CatalogError, validate_card  # data validation, not I/O

    if not isinstance(data, dict):
        raise BadAction("A house card must be given as its facts (a JSON object).")
    data = dict(data, set="house")
    data.pop("id", None)
    try:
        card = validate_card(data, where="house card")
    except CatalogError as exc:
        raise BadAction(str(exc)) from None
    if any(c["id"] == card["id"] for c in state["house_cards"]):
        raise BadAction(f"This table already has a house card called {card['name']}.")
    return card


MAX_HOUSE_CARDS = 500  # far more than any table makes; keeps every game small to store


def _room_for_house_cards(state: dict, count: int) -> None:
    if len(state["house_cards"]) + count > MAX_HOUSE_CARDS:
        raise TooLarge(f"A table may have at most {MAX_HOUSE_CARDS} house cards; this one has "
                       f"{len(state['house_cards'])}.")


@reducer("add_house_card")
def _add_house_card(state, action, actor, ctx):
    _room_for_house_cards(state, 1)
    card = _house_card(state, action.get("card"))
    state["house_cards"].append(card)
    return f"House card added: {card['name']} ({card['kind']})"


@reducer("import_house_cards")
def _import_house_cards(state, action, actor, ctx):
    cards = action.get("cards")
    if not isinstance(cards, list) or not cards or len(cards) > 500:
        raise BadAction("'cards' must be a list of 1 to 500 house cards.")
    _room_for_house_cards(state, len(cards))
    added = []
    for data in cards:
        card = _house_card(state, data)
        state["house_cards"].append(card)
        added.append(card["name"])
    return f"House cards imported: {', '.join(added)}"
