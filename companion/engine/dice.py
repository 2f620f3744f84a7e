"""The app's dice: a roll the app made stays made (rule ``undo-keeps-rolls``).

Every die the app rolls in a fight comes from the fight's own seed (``combat["seed"]``, drawn
once from the store's randomness when the fight starts) and the roll's name: which roll it is
(``"run_away"``, player, monster, first try or second try). The seed is part of the stored
state, so an undo restores it with the rest of the fight, and the same action again gives the
same die, and the same die for whatever follows from it (a Bad Stuff die, a looting order).
A new fight's seed comes from the game's seed and the count of fights started (which an undo
restores), so its rolls are independent of the last fight's and
the same again if an undo goes back past its start and it is fought again. A roll out of
any fight (a Thief's theft) comes from the game's seed (``dice_seed``, drawn when the game is
made) and names the moment it is made at: the turn, and the thief's hand and level, which the
attempt itself changes (a card paid, a level lost on a failure) and an undo restores. A roll
the player enters from a real die (the action's ``roll``) is taken as it is.

The seeds are never in the public state (the API's ``combat`` is the computed fight), so a
phone cannot work out a roll before it is made. The checks of ``allowed.py`` reseed the
store's generator before each check, so a fight they start has a seed that is the same on
every check: their verdicts stay deterministic.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from .core import Context


def new_seed(ctx: Context) -> str:
    """A fresh fight's seed, from the store's randomness (hex: any JSON reader keeps it whole)."""
    return f"{ctx.rng.getrandbits(64):016x}"


def _game_seed(state: dict, ctx: Context) -> str:
    seed = state.get("dice_seed")
    if seed is None:  # a game made before games had one: it gets one at its first such roll
        seed = state["dice_seed"] = new_seed(ctx)
    return seed


def fight_seed(state: dict, ctx: Context) -> str:
    """A new fight's seed, from the game's seed and how many fights the game has started
    (``fights_started``, counted here and restored by an undo): undoing back past a fight's
    start and starting it again gives it the same dice, so an undo never buys a new roll."""
    count = state["fights_started"] = state.get("fights_started", 0) + 1
    where = f"{_game_seed(state, ctx)}:fight:{count}"
    return f"{random.Random(where).getrandbits(64):016x}"


def death_rng(state: dict, ctx: Context, player: dict) -> random.Random:
    """The dice of a death's looting order: the game's count of deaths (``deaths``, restored
    by an undo) names it, so dying again after an undo rolls the same order."""
    count = state["deaths"] = state.get("deaths", 0) + 1
    return rng(state, ctx, "looting", player["id"], count)


def _seed(state: dict, ctx: Context) -> str:
    fight = state.get("combat")
    if fight:
        seed = fight.get("seed")
        if seed is None:  # a fight started before fights had seeds: it gets one at its first roll
            seed = fight["seed"] = new_seed(ctx)
        return seed
    # Out of a fight (a Thief's theft), the game's own seed, drawn when the game was made.
    return _game_seed(state, ctx)


def rng(state: dict, ctx: Context, *name: Any) -> random.Random:
    """The generator of the roll ``name``: in a fight, from the fight's seed; out of one, from
    the game's (the roll's name then says where in the game it is made)."""
    return random.Random(":".join(map(str, (_seed(state, ctx), *name))))


def die(state: dict, ctx: Context, *name: Any) -> int:
    """The app's die for the roll ``name``: the same in the same fight, whatever came between."""
    return rng(state, ctx, *name).randint(1, 6)


def context(state: dict, ctx: Context, *name: Any) -> Context:
    """``ctx`` whose dice, for what follows the roll ``name`` (a Bad Stuff die, a death's
    looting order), are that roll's own: independent of the roll's die, and the same again."""
    return dataclasses.replace(ctx, rng=rng(state, ctx, *name, "then"))
