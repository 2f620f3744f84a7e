"""What every reducer shares: who acts (``Actor``), the context of one action (``Context``),
the registry of reducers by action ``type``, and the moves of the table every domain needs
(whose seat, the current fight, levels, turns).

The reducers live by domain in ``companion/engine/reducers/``: table, sheet, fight, help,
house. ``actions.apply`` is the only way a game changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from . import editions
from .errors import BadAction, Forbidden, RuleViolation
from .state import (
    find_player, seat_order,
)
from .vocab import LIVE_STAGES

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




def own(state: dict, action: dict, actor: Actor, field: str = "player") -> dict:
    player = find_player(state, action.get(field), field)
    if not actor.may_act_for(player["id"]):
        raise Forbidden(f"Only {player['name']} or the host can do that for {player['name']}.")
    return player


def in_fight(state: dict) -> bool:
    fight = state.get("combat")
    return bool(fight) and fight["stage"] in LIVE_STAGES


def current_fight(state: dict) -> dict:
    if not in_fight(state):
        raise RuleViolation("no-combat", "nobody is fighting right now")
    return state["combat"]


def set_level(state: dict, player: dict, new_level: int, source: str) -> None:
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


def level_line(player: dict, old: int, source: str) -> str:
    line = f"{player['name']}: level {old} to {player['level']}, {SOURCE_WORDS[source]}"
    if player["level"] == MAX_LEVEL:
        line += f". {player['name']} wins the game!"
    return line


def next_turn(state: dict) -> int | None:
    order = seat_order(state)
    if not order:
        return None
    if state["turn"] not in order:
        return order[0]
    return order[(order.index(state["turn"]) + 1) % len(order)]


def begin_turn(state: dict, pid: int) -> None:
    state["turn"] = pid
    # A dead player's new character appears when the next player's turn begins.
    for player in state["players"]:
        player["dead"] = False
    if state.get("combat") and state["combat"]["stage"] == "over":
        state["combat"] = None
