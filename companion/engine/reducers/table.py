"""The table: levels, gear, turns, hands, optional rules, names, seats.

Each reducer returns an event (``words.py``); the sentence of each kind is registered next to
the reducer that emits it.
"""

from __future__ import annotations

from .. import character, sheet
from ..core import (begin_turn, check_level, checks, in_fight, level_event, next_turn, own,
                    reducer, set_level)
from ..errors import BadAction, Forbidden, RuleViolation, TableLocked
from ..hand import add_to_hand, new_hand, take_from_hand
from ..rules import TableRules
from ..state import (add_player, check_new_player, check_not_dead, choice_field, clean_name,
                     find_player, refuse_lookalike)
from ..vocab import FASTER_PLAY, LISTEN_AT_THE_DOOR, OFFICIAL_UPDATES, SHARED_VICTORY
from ..words import N_, event, event_words, said, said_plural

# The optional rules as the history names them.
VARIANT_WORDS = {LISTEN_AT_THE_DOOR: N_("listen at the door"), SHARED_VICTORY: N_("shared victory"),
                 FASTER_PLAY: N_("faster play"), OFFICIAL_UPDATES: N_("current official rulings")}


@checks("level")
def _level_check(state, action, actor, ctx):
    player = own(state, action, actor)
    if action.delta == 0:
        raise BadAction(N_("'delta' must not be 0."))
    check_level(state, player, player["level"] + action.delta, action.source, ctx.rules)


@reducer("level")
def _level(state, action, actor, ctx):
    player = find_player(state, action.player)
    source = action.source
    old = player["level"]
    set_level(state, player, old + action.delta, source, ctx.rules)
    return level_event(player, old, source, won=player["level"] == ctx.rules.winning_level)


event_words("gear", N_("%(name)s: gear bonus adjusted by +%(delta)s"))
event_words("gear_down", N_("%(name)s: gear bonus adjusted by %(delta)s"))  # delta < 0 says its sign


@checks("gear")
def _gear_check(state, action, actor, ctx):
    player = own(state, action, actor)
    if not -99 <= player["gear_adjust"] + action.delta <= 99:
        raise BadAction(N_("A gear adjustment stays between %(lo)s and %(hi)s."), lo=-99, hi=99)


@reducer("gear")
def _gear(state, action, actor, ctx):
    player = find_player(state, action.player)
    delta = action.delta
    player["gear_adjust"] += delta
    return event("gear" if delta >= 0 else "gear_down", player=player["id"], name=player["name"], sex=player.get("sex"),
                 delta=delta, total=player["gear_adjust"])


event_words("sex_male", N_("%(name)s: now male"))
event_words("sex_female", N_("%(name)s: now female"))


@checks("set_sex")
def _set_sex_check(state, action, actor, ctx):
    own(state, action, actor)


@reducer("set_sex")
def _set_sex(state, action, actor, ctx):
    player = find_player(state, action.player)
    sex = action.sex
    player["sex"] = sex
    return event("sex_" + sex, player=player["id"], name=player["name"], sex=sex)


event_words("set_turn", N_("Turn: %(name)s"))


@checks("set_turn")
def _set_turn_check(state, action, actor, ctx):
    target = find_player(state, action.player)
    if not actor.host and actor.player != state["turn"]:
        raise RuleViolation("turn-pass", N_("only the player whose turn it is, or the host, passes it on"))
    if in_fight(state):
        raise RuleViolation("one-fight-at-a-time", N_("finish the fight before the turn moves on"))
    if target["id"] == state["turn"]:
        # Not a new turn: it would bring the dead back early (they return when a turn begins).
        raise RuleViolation("turn-pass", N_("it is already %(name)s's turn"), name=target["name"], sex=target.get("sex"))


@reducer("set_turn")
def _set_turn(state, action, actor, ctx):
    target = find_player(state, action.player)
    drew = begin_turn(state, target["id"])
    return event("set_turn", drew, player=target["id"], name=target["name"], sex=target.get("sex"))


event_words("end_turn", N_("%(name)s ends the turn"))


@checks("end_turn")
def _end_turn_check(state, action, actor, ctx):
    player = own(state, action, actor)
    if state["turn"] != player["id"]:
        raise RuleViolation("turn-pass", N_("it is not %(name)s's turn"), name=player["name"], sex=player.get("sex"))
    if in_fight(state):
        raise RuleViolation("one-fight-at-a-time", N_("finish the fight before ending the turn"))
    if any(row["over_big_limit"] for row in character.item_rows(player, ctx.edition)):
        # Extra Big items go at once (an ex-Dwarf's): on one's own turn, by selling or giving.
        raise RuleViolation("lose-big-item-ability",
                            N_("%(name)s must first sell the Big items over the limit or give them away"),
                            name=player["name"], sex=player["sex"])


@reducer("end_turn")
def _end_turn(state, action, actor, ctx):
    player = find_player(state, action.player)
    charity = sheet.charity(state, player, ctx.edition, order=action.bigger_share)
    charity_said = None
    if charity["excess"]:
        # Charity sets the hand: down to the limit, the rest to the lowest (rule charity).
        take_from_hand(player, charity["excess"])
        for pid, count in charity["gifts"].items():
            add_to_hand(find_player(state, pid), count)
        charity_said = charity["text"]
    following = next_turn(state)
    next_said = drew = None
    if following is not None:
        drew = begin_turn(state, following)
        next_said = said(N_("turn: %(name)s"), player=following, name=find_player(state, following)["name"], sex=find_player(state, following).get("sex"))
    return event("end_turn", charity_said, next_said, drew, player=player["id"], name=player["name"], sex=player.get("sex"),
                 next=following)


# A correction of the count, not a move of the game: kept in the history, no line of the log.
event_words("set_hand", N_("%(name)s: %(cards)s"), log=False)


@checks("set_hand")
def _set_hand_check(state, action, actor, ctx):
    player = own(state, action, actor)
    if action.count > player["hand"]:
        check_not_dead(player)


@reducer("set_hand")
def _set_hand(state, action, actor, ctx):
    player = find_player(state, action.player)
    count = action.count
    player["hand"] = count
    return event("set_hand", player=player["id"], name=player["name"], sex=player.get("sex"), count=count,
                 cards=said_plural("%(n)s card in hand", "%(n)s cards in hand", count))


event_words("variant_on", N_("Optional rule %(rule)s: on"))
event_words("variant_off", N_("Optional rule %(rule)s: off"))


@checks("set_variant")
def _set_variant_check(state, action, actor, ctx):
    if not actor.host:
        raise Forbidden(N_("Only the host chooses the optional rules."))
    choice_field(action.variant, "variant", ctx.edition.choosable_variants)


@reducer("set_variant")
def _set_variant(state, action, actor, ctx):
    name = action.variant
    on = action.on
    state.setdefault("variants", {})[name] = on
    ctx.rules = TableRules.of(state)  # what follows in this action plays by the new choice
    return event("variant_on" if on else "variant_off", variant=name, on=on,
                 rule=said(VARIANT_WORDS[name]))


event_words("rename", N_("%(old)s is now called %(name)s"))


@checks("rename")
def _rename_check(state, action, actor, ctx):
    player = own(state, action, actor)
    refuse_lookalike(state, clean_name(action.name), besides=player)


@reducer("rename")
def _rename(state, action, actor, ctx):
    player = find_player(state, action.player)
    name = clean_name(action.name)  # as shown: invisible characters out, spaces folded
    old, player["name"] = player["name"], name
    return event("rename", player=player["id"], old=old, name=name)


event_words("winning_level", N_("The table now plays to level %(level)s"))


@checks("set_winning_level")
def _set_winning_level_check(state, action, actor, ctx):
    """The host sets the level that wins (the table agreed): never at or below a level a
    player already has, so nobody wins or loses by the change itself."""
    if not actor.host:
        raise Forbidden(N_("Only the host chooses the optional rules."))
    level = action.level
    if level == ctx.rules.winning_level:
        raise BadAction(N_("The table already plays to level %(level)s."), level=level)
    ahead = max(state["players"], key=lambda p: p["level"], default=None)
    if ahead is not None and ahead["level"] >= level:
        raise BadAction(N_("%(name)s is already at level %(level)s: the winning level must be above "
                           "every player's level."), name=ahead["name"], sex=ahead.get("sex"), level=ahead["level"])


@reducer("set_winning_level")
def _set_winning_level(state, action, actor, ctx):
    level = action.level
    state["winning_level"] = level
    ctx.rules = TableRules.of(state)  # what follows in this action plays to the new level
    return event("winning_level", level=level)


event_words("join", N_("%(name)s joins the table"))
event_words("join_phoneless", N_("%(name)s joins the table (no phone; the host plays for them)"))


@checks("join")
def _join_check(state, action, actor, ctx):
    """A new seat: anyone with the game's code, unless the host locked the table; a player
    with no phone (the host plays for them) only by the host, locked or not."""
    if not action.phone and not actor.host:
        raise Forbidden(N_("Only the host adds a player who has no phone."))
    if state.get("locked") and not actor.host:
        raise TableLocked()
    check_new_player(state, action.name, action.sex)


@reducer("join")
def _join(state, action, actor, ctx):
    phone = action.phone
    pid = add_player(state, action.name, action.sex, phone=phone)
    # A player sits down with the cards dealt at the start (every rulebook's setup: two from
    # each deck in classic, four with its Faster Play and in the newer boxes), so the hand the
    # app counts starts where the real one does.
    state["players"][-1]["hand"] = 2 * new_hand(ctx.rules)
    return event("join" if phone else "join_phoneless", player=pid, name=state["players"][-1]["name"], sex=state['players'][-1].get("sex"))


event_words("remove_player", N_("The host removes %(name)s from the table"))


@checks("remove_player")
def _remove_player_check(state, action, actor, ctx):
    if not actor.host:
        raise Forbidden(N_("Only the host can remove a player from the table."))
    find_player(state, action.player)


@reducer("remove_player")
def _remove_player(state, action, actor, ctx):
    """The host takes a seat away (a stranger who joined, a friend who went home): the
    player's token stops working at once and their cards leave the table with them."""
    player = find_player(state, action.player)
    following = next_turn(state) if state["turn"] == player["id"] else state["turn"]
    fight = state.get("combat")
    if fight and fight["fighter"] == player["id"]:
        state["combat"] = None
    elif fight:
        if fight.get("helper") == player["id"]:
            fight["helper"], fight["helper_forced"], fight["deal"] = None, False, None
        fight["offers"] = [o for o in fight.get("offers", []) if o["to"] != player["id"]]
    state["players"].remove(player)
    # Whoever is still named by the table (a winner, a deal in the ledger) keeps a name.
    state["left"] = [*(state.get("left") or ()), {"id": player["id"], "name": player["name"],
                                                   "sex": player.get("sex")}]
    state["turn"] = following if state["players"] else None
    if following == player["id"]:  # they were the only player left
        state["turn"] = None
    return event("remove_player", player=player["id"], name=player["name"], sex=player.get("sex"))


event_words("lock_table", N_("The host locks the table: nobody else can join"))
event_words("unlock_table", N_("The host unlocks the table"))


@checks("lock_table")
def _lock_table_check(state, action, actor, ctx):
    if not actor.host:
        raise Forbidden(N_("Only the host can lock or unlock the table."))


@reducer("lock_table")
def _lock_table(state, action, actor, ctx):
    """A locked table takes no new joins (the host can still seat a phoneless player)."""
    locked = action.locked
    state["locked"] = locked
    return event("lock_table" if locked else "unlock_table")
