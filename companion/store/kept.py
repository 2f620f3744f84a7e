"""What the store keeps in memory between requests: each game's latest state, frozen and
shared by its readers, and small bounded maps (seat tokens, house cards' sizes)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from companion.engine.frozen import freeze_like

def _not_as_parsed(kept: Any, parsed: Any, path: str = "") -> str | None:
    """Where ``kept`` differs from ``parsed`` (JSON read back): a tuple, a key that is not a
    string, ``0`` for ``false``; None where it is the same."""
    if isinstance(parsed, dict):
        if not isinstance(kept, dict) or kept.keys() != parsed.keys():
            return path or "/"
        return next((w for k, v in parsed.items()
                     if (w := _not_as_parsed(dict.__getitem__(kept, k), v, f"{path}/{k}")) is not None), None)
    if isinstance(parsed, list):
        if not isinstance(kept, list) or len(kept) != len(parsed):
            return path or "/"
        return next((w for i, v in enumerate(parsed)
                     if (w := _not_as_parsed(list.__getitem__(kept, i), v, f"{path}/{i}")) is not None), None)
    return None if type(kept) is type(parsed) and kept == parsed else path or "/"


class Lru:
    """A bounded map whose least recently used entries leave first."""

    def __init__(self, size: int):
        self.size, self._items = size, OrderedDict()

    def get(self, key):
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key, value):
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value


class _Latest:
    """Each game's latest state read or written here, frozen, by code (an ``Lru``: least
    recently used games leave first): six phones reading one version parse it once."""

    def __init__(self, size: int):
        self._games = Lru(size)

    def get(self, code: str, version: int) -> dict | None:
        found = self._games.get(code)
        return found if found is not None and found["version"] == version else None

    def put(self, code: str, version: int, state: dict) -> dict:
        held = self._games.get(code)
        state = freeze_like(state, held)  # what did not change is the last version's own
        if held is None or held["version"] <= version:  # never replace a newer one
            self._games.put(code, state)
        return state


STATES_KEPT = 512  # games whose latest state stays parsed (about 50 KB each)
SEATS_KEPT = 8192  # seat tokens remembered (a removed player is caught by the state)
