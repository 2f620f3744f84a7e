"""The app's dice: a roll the app made stays made (rule ``undo-keeps-rolls``).

Every die the app rolls in a fight comes from the fight's own seed (``combat["seed"]``, drawn
once from the store's randomness when the fight starts) and the roll's name: which roll it is
(``"run_away"``, player, monster, first try or second try). The seed is part of the stored
state, so an undo restores it with the rest of the fight, and the same action again gives the
same die, and the same die for whatever follows from it (a Bad Stuff die, a looting order).
A new fight draws a new seed, so its rolls are independent of the last fight's. A roll the
player enters from a real die (the action's ``roll``) is taken as it is.

The seed is never in the public state (the API's ``combat`` is the computed fight), so a
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


def _seed(state: dict, ctx: Context) -> str | None:
    fight = state.get("combat")
    if not fight:
        return None
    seed = fight.get("seed")
    if seed is None:  # a fight started before fights had seeds: it gets one at its first roll
        seed = fight["seed"] = new_seed(ctx)
    return seed


def rng(state: dict, ctx: Context, *name: Any) -> random.Random:
    """The generator of the roll ``name`` in this fight (the store's, when nobody has fought)."""
    seed = _seed(state, ctx)
    if seed is None:
        return ctx.rng
    return random.Random(":".join(map(str, (seed, *name))))


def die(state: dict, ctx: Context, *name: Any) -> int:
    """The app's die for the roll ``name``: the same in the same fight, whatever came between."""
    return rng(state, ctx, *name).randint(1, 6)


def context(state: dict, ctx: Context, *name: Any) -> Context:
    """``ctx`` whose dice, for what follows the roll ``name`` (a Bad Stuff die, a death's
    looting order), are that roll's own: independent of the roll's die, and the same again."""
    return dataclasses.replace(ctx, rng=rng(state, ctx, *name, "then"))
