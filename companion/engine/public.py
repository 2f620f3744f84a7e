"""The public view of a state: the stored state plus everything a phone shows that is computed
from it (the character sheets, the powers held, the fight's numbers), derived on every read so
nothing derived can go stale.

It sits above the rules it reads (``combat``, ``help``, ``powers``, ``sheet``), so ``state.py``
below them keeps only the basics every module imports. ``combat_view`` is here too: the
reducers and checks that need the fight's numbers import it from here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from . import cards, character, combat, editions, help as helping, powers, sheet as sheet_rules
from .frozen import freeze, is_frozen
from .rules import TableRules
from .state import next_looter
from .vocab import OFFICIAL_UPDATES
from .words import said


def combat_view(state: dict, *, helpers: bool = True) -> dict | None:
    """The computed fight (the API's ``combat`` object), or None when nobody is fighting.

    ``helpers`` adds who could help and a bribe for each (two more computations per player);
    the reducers only need the numbers and leave it out.
    """
    stored = state.get("combat")
    if not stored:
        return None
    rules = TableRules.of(state)
    by_id = {p["id"]: p for p in state["players"]}
    fighter = by_id[stored["fighter"]]
    helper = by_id.get(stored["helper"]) if stored.get("helper") is not None else None
    view = combat.compute(
        rules=rules, fighter=fighter, helper=helper, monsters=stored["monsters"],
        one_shots=stored["one_shots"], helper_forced=stored.get("helper_forced", False),
        stage=stored["stage"], escapes=stored.get("escapes", ()),
    )
    view = combat.as_decided(view, stored.get("decided"))
    for row in view["escape"]:  # a table that rolls real dice enters the Bad Stuff die too
        source = view["monsters"][row["monster"]]["source"] if row["monster"] < len(view["monsters"]) else None
        row["bad_stuff_die"] = source is not None and cards.bad_stuff_rolls_a_die(stored["monsters"][source]["card"])
    if not helpers:
        return view
    others = [p for p in state["players"] if p["id"] != fighter["id"]]
    common = {"rules": rules, "fighter": fighter, "monsters": stored["monsters"],
              "one_shots": stored["one_shots"]}
    options = helping.helper_options(helper=helper, others=others, **common)
    offers = {o["to"]: o for o in stored.get("offers", [])}
    for option, other in zip(options, others):
        option["offer"] = offers.get(option["player"])
        option["suggestion"] = (helping.suggest_bribe(helper=other, **common)
                                if option["can_help"] and option["would_win"] and not view["winning"]
                                else None)
    view["helpers"] = options
    view["offers"] = stored.get("offers", [])
    view["volunteers"] = stored.get("volunteers", [])  # offers to help waiting for the fighter
    view["deal"] = stored.get("deal")
    view["escapes"] = stored.get("escapes", [])
    view["result"] = stored.get("result")
    return view


SHEETS_KEPT = 1024  # frozen player records whose sheets are remembered (least recently used go)
_sheets: OrderedDict = OrderedDict()  # id(player) -> (player, edition id, sheet)
_sheets_lock = threading.Lock()


def _of_the_player(player: dict, edition: editions.Edition) -> dict:
    """What a phone shows of a player that depends on that player alone: the character
    sheet, the powers they hold, the items a curse makes them pick from."""
    return {**character.sheet(player, edition), "powers": powers.held(player, edition.id),
            # Items a curse takes where the victim has to pick which (classic, Curses).
            "pending_losses": sheet_rules.pending_losses_view(player)}


def _sheet_of(player: dict, edition: editions.Edition) -> dict:
    """``_of_the_player``, remembered for a frozen player record: the store's states share an
    unchanged player between versions (``freeze_like``), so a tap works out again only the
    players it changed. Read-only (frozen)."""
    if not is_frozen(player):
        return _of_the_player(player, edition)
    with _sheets_lock:
        found = _sheets.get(id(player))
        if found is not None and found[0] is player and found[1] == edition.id:
            _sheets.move_to_end(id(player))
            return found[2]
    worked_out = freeze(_of_the_player(player, edition))
    with _sheets_lock:  # the record is kept with its sheet, so its id names no other meanwhile
        _sheets[id(player)] = (player, edition.id, worked_out)
        while len(_sheets) > SHEETS_KEPT:
            _sheets.popitem(last=False)
    return worked_out


def public_state(state: dict) -> dict:
    """The stored state plus everything a phone shows that is derived from it."""
    rules = TableRules.of(state)
    edition = rules.edition
    out = dict(state)
    out.pop("chronicle", None)  # the table screen's bookkeeping (engine/chronicle.py), not for phones
    out.pop("dice_seed", None)  # a phone must not work out a roll before it is made
    out["winner"] = state["winners"][0] if state["winners"] else None
    out["winning_level"] = rules.winning_level  # a game from before the choice: 10
    players = []
    for player in state["players"]:
        view = dict(player)
        view.update(_sheet_of(player, edition))
        # A Halfling's sale may still mark one item doubled this turn (classic, Items).
        view["double_sale"] = sheet_rules.double_sale_open(state, player, edition)
        if player["id"] == state["turn"]:
            # Shown on the End turn button, so the player sees Charity before committing.
            view["charity_preview"] = sheet_rules.charity(state, player, edition)["text"] or None
        players.append(view)
    out["players"] = players
    out["combat"] = combat_view(state)
    # A body to loot, with whose pick is next (engine/looting.py): pages only show it.
    out["bodies"] = [{**body, "next": next_looter(body)} for body in state.get("bodies") or ()]
    out["edition_name"] = said(edition.name)  # the web layer says it in the reader's language
    out["powers"] = powers.public(edition.id)  # names and summaries of the race and class powers
    # What the edition has, so pages offer only what its rules allow.
    out["features"] = {"allies": edition.allies, "races": bool(edition.races),
                       "half_breed": edition.half_breed, "super_munchkin": edition.super_munchkin,
                       "variants": list(edition.choosable_variants)}
    # The optional rules this table plays, as every phone lists them (the rulings apart).
    out["variants_on"] = [v for v in edition.choosable_variants if v != OFFICIAL_UPDATES and rules.has(v)]
    return out
