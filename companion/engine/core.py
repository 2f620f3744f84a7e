"""What every reducer shares: who acts (``Actor``), the context of one action (``Context``),
the registry of reducers by action ``type``, and the moves of the table every domain needs
(whose seat, the current fight, levels, turns).

The reducers live by domain in ``companion/engine/reducers/``: table, sheet, fight, help,
choices, house, powers, divine. ``actions.apply`` is the way a game changes, taking a seat
included (the ``join`` action); ``undo.take_back`` is its one counterpart. The store decides
neither: it keeps what they return (a seat's token, the patches an undo restores).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from .action_models import ActionModel, card_facts
from .cards import CardResolver
from .editions import Edition
from .errors import BadAction, Forbidden, RuleViolation
from . import looting
from .hand import draw_new_hand
from .rules import RULEBOOK_WINNING_LEVEL, TableRules
from .state import (
    check_not_dead, find_player, seat_order,
)
from .vocab import LIVE_STAGES
from .words import N_, event, event_words, said

MAX_LEVEL = RULEBOOK_WINNING_LEVEL  # the rulebooks' winning level; a table's own: TableRules
# Why a level moved, as the end of a level line ("Ann: level 3 to 4, killed a monster").
SOURCE_WORDS = {"kill": N_("killed a monster"), "card": N_("Go Up a Level card"),
                "sell": N_("sold items"), "adjust": N_("adjusted")}
# Why a level may not become the winning one: one whole sentence per way of getting there.
LEVEL_TEN_WORDS = {
    "card": N_("%(name)s would reach level %(level)s with a Go Up a Level card"),
    "sell": N_("%(name)s would reach level %(level)s by selling items"),
    "adjust": N_("%(name)s would reach level %(level)s by adjusting the level"),
}


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


# (state, the parsed action, who acts, context) -> an event (words.py)
Reducer = Callable[[dict, ActionModel, Actor, "Context"], dict]
REDUCERS: dict[str, Reducer] = {}
# Actions that may still be taken once somebody has won (the history stays honest).
AFTER_WIN = {"set_sex", "set_hand", "remove_player", "lock_table"}
# Actions a stranger (no seat yet) may take: taking a seat.
STRANGERS_MAY = frozenset({"join"})
# Actions that change who holds a seat: the store takes them only through its own door
# (``Store.join``), which writes the seat's token with the change.
SEATING = frozenset({"join"})


@dataclass
class Context:
    """What one action is applied with: the table's rules (made once per ``apply``), how a card
    spec becomes a card, and the store's randomness."""

    rules: TableRules
    resolve: CardResolver
    rng: random.Random
    # What the checks of one unchanging state share (``allowed``: one frozen state, many
    # candidates), e.g. its computed fight; None in ``apply``, whose reducer changes the state.
    memo: dict | None = None

    @property
    def edition(self) -> Edition:
        """The edition in play (``rules.edition``): what the rules about cards ask."""
        return self.rules.edition

    def card(self, state: dict, spec: Any) -> dict:
        """The card a spec names (a catalog or house id, or an inline card model)."""
        if spec is None:
            raise BadAction(N_("'card' is required: a catalog id or a card."))
        return self.resolve(card_facts(spec), state.get("house_cards", []))


def reducer(name: str):
    def register(fn: Reducer) -> Reducer:
        REDUCERS[name] = fn
        return fn
    return register


# (state, the parsed action, who acts, context) -> None, or raises the refusal. A check reads
# the state and never writes it (it gets the frozen stored state itself, no copy): python-chess's
# ``is_legal`` beside ``push``. ``apply`` runs it before the reducer, so a reducer with a check
# holds only the change; ``allowed`` and ``is_allowed`` run checks only.
Check = Callable[[dict, ActionModel, Actor, "Context"], None]
CHECKS: dict[str, Check] = {}


def checks(name: str):
    """Register the check of action type ``name`` (the reducer's preconditions, read-only)."""
    def register(fn: Check) -> Check:
        CHECKS[name] = fn
        return fn
    return register




def own(state: dict, action: ActionModel, actor: Actor, field: str = "player") -> dict:
    """The player the action's ``field`` names, whom ``actor`` may act for."""
    player = find_player(state, getattr(action, field), field)
    if not actor.may_act_for(player["id"]):
        raise Forbidden(N_("Only %(name)s or the host can do that for %(name)s."), name=player["name"],
                        sex=player["sex"])
    return player


def in_fight(state: dict) -> bool:
    fight = state.get("combat")
    return bool(fight) and fight["stage"] in LIVE_STAGES


def current_fight(state: dict) -> dict:
    if not in_fight(state):
        raise RuleViolation("no-combat", N_("nobody is fighting right now"))
    return state["combat"]


def check_level(state: dict, player: dict, new_level: int, source: str, rules: TableRules) -> None:
    """The rules a level move obeys: never below 1, the table's winning level only by a kill,
    and a dead player goes up nothing."""
    if new_level < 1:
        raise RuleViolation("level-minimum", N_("%(name)s is level %(level)s"),
                            name=player["name"], sex=player.get("sex"), level=player["level"])
    top = rules.winning_level
    if new_level >= top and source != "kill":
        raise RuleViolation("level-ten-needs-kill", LEVEL_TEN_WORDS[source],
                            name=player["name"], sex=player.get("sex"), level=top)
    if new_level > player["level"]:
        check_not_dead(player)


def set_level(state: dict, player: dict, new_level: int, source: str, rules: TableRules) -> None:
    """Move a level by the rules (``check_level``; a reducer whose check asked it first never
    sees it refuse here)."""
    check_level(state, player, new_level, source, rules)
    top = rules.winning_level
    player["level"] = min(new_level, top)
    if player["level"] == top and player["id"] not in state["winners"]:
        state["winners"].append(player["id"])


event_words("level", N_("%(name)s: level %(old)s to %(new)s, %(why)s"))
event_words("level_win", N_("%(name)s: level %(old)s to %(new)s, %(why)s. %(name)s wins the game!"))


def level_event(player: dict, old: int, source: str, why: str | dict | None = None, *,
                won: bool = False) -> dict:
    """The event of a level that moved (after ``set_level``): ``why`` is a said, or a card's
    name (a Go Up a Level card names itself); by default the words for ``source``. ``won``:
    the level is the winning one (only a kill reaches it: a card's level never is)."""
    kind = "level_win" if won else "level"
    return event(kind, player=player["id"], name=player["name"], sex=player.get("sex"), old=old, new=player["level"],
                 source=source, why=why if why is not None else said(SOURCE_WORDS[source]))


def next_turn(state: dict) -> int | None:
    order = seat_order(state)
    if not order:
        return None
    if state["turn"] not in order:
        return order[0]
    return order[(order.index(state["turn"]) + 1) % len(order)]


def begin_turn(state: dict, pid: int) -> dict | None:
    """``pid``'s turn begins; the said of a new hand drawn then (``hand.draw_new_hand``), or None."""
    state["turn"] = pid
    # Turns are counted so that "once per turn" rules can tell one turn from the next.
    state["turn_count"] = state.get("turn_count", 0) + 1
    # Looting still open ends: what is left of a body is discarded.
    looting.close_all(state)
    # A dead player's new character appears when the next player's turn begins.
    for player in state["players"]:
        player["dead"] = False
    if state.get("combat") and state["combat"]["stage"] == "over":
        state["combat"] = None
    # ... and draws its hand when its own next turn begins (rule dead-redraw).
    return draw_new_hand(find_player(state, pid))
