"""The game's chronicle: figures that grow with the game (the level race, the summary's counts),
kept as data in the state and updated at each change, so reading them never replays the log.

``record(before, after, happened)`` is called by the store for every change that counts (not
for an undo: the undo's reverse patch restores the chronicle as it was)."""

from __future__ import annotations


def record(before: dict, after: dict, happened: dict) -> None:
    """Update ``after["chronicle"]`` for the change from ``before`` to ``after``."""