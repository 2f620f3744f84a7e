"""Frozen states and copy-on-write views of them.

``freeze(state)`` is a deep copy whose dicts and lists refuse every write: a state that many
readers share (the store keeps one per game version) cannot be changed by any of them by
mistake. ``cow_root(frozen)`` lets ``engine.apply`` check an action on a copy-on-write view
(``copy_state``), so checking costs what the action touches, not a copy of the whole state:
small parts (a player's cards, a monster) are copied whole the first time a reducer reads
them, big ones (the players, the fight) lazily, child by child, and values (cards, log lines)
never. The view holds exactly the state's data; a reducer that wrote into a part that was not
copied hits a frozen container (``SharedWrite``), and the caller checks again on a plain copy.
"""

from __future__ import annotations

import copy
from typing import Any


class SharedWrite(BaseException):
    """A check wrote into a frozen part of the state (a BaseException: no reducer catches it)."""


def _refuse(self, *args, **kwargs):
    raise SharedWrite()


class _FrozenDict(dict):
    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __deepcopy__(self, memo):
        return _thaw(self)


class _FrozenList(list):
    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = \
        clear = sort = reverse = _refuse

    def __deepcopy__(self, memo):
        return _thaw(self)


class _FrozenState(_FrozenDict):
    """The root handed to ``engine.apply``: its deep copy is a fresh copy-on-write view."""

    __slots__ = ()

    def __deepcopy__(self, memo):
        return _lazy_dict(self)


class _SmallDict(_FrozenDict):
    """A frozen part small enough to be copied whole the first time it is read (a player,
    a card in front of them, a monster in the fight): then it reads at full speed."""

    __slots__ = ()


class _SmallList(_FrozenList):
    __slots__ = ()


class _Value(_FrozenDict):
    """A frozen part the view hands out as it is, never copied: a card, a line of the log.
    Reducers do not change a card in place; a check that did would be redone the plain way."""

    __slots__ = ()


class _ValueList(_FrozenList):
    __slots__ = ()


_COPIED = frozenset((_FrozenDict, _FrozenList, _FrozenState, _SmallDict, _SmallList))  # exact types
_SCALARS = frozenset((str, int, float, bool, type(None)))
_VALUE_KEYS = frozenset(("card",))  # a dict under this key is a value (a card)
_VALUE_LISTS = frozenset(("enhancers", "house_cards", "log"))  # the items of these are values
SMALL = 2  # at most this many levels of dicts and lists below (values not counted): copied whole


def freeze(state: dict) -> _FrozenDict:
    """A deep copy of ``state`` whose every dict and list refuses writes (its deep copy is a
    plain, private copy). Already frozen: itself."""
    if isinstance(state, _FrozenDict):
        return state
    return _FrozenDict({k: v if type(v) in _SCALARS else _frozen(v, k)[0] for k, v in state.items()})


def freeze_like(state: dict, before: dict | None) -> _FrozenDict:
    """``freeze(state)``, reusing every part of ``before`` (an earlier frozen state) that is
    equal to the part at the same place: one version of a game shares with the last the
    players, cards and log lines that did not change, so what is worked out from a part (a
    player's sheet, what changed) can be known by the part's identity."""
    if not isinstance(before, _FrozenDict) or isinstance(state, _FrozenDict):
        return freeze(state)
    return _FrozenDict({k: v if type(v) in _SCALARS else _shared(v, k, dict.get(before, k))[0]
                        for k, v in state.items()})


def _shared(value: Any, key: Any, old: Any) -> tuple[Any, int]:
    """``_frozen(value, key)``, or ``old`` itself where it holds the same."""
    kind = type(old)
    if value is old and kind in _FROZEN_KINDS:  # a part the change never touched: itself
        return old, _depth(old, key)
    if isinstance(value, dict) and key in _VALUE_KEYS or isinstance(value, list) and key in _VALUE_LISTS:
        # Cards and log lines are values, compared whole with == (in C). == says True == 1,
        # which JSON does not, but a value's fields have one type each (the card schema, the
        # store's own log lines, written once), so equal values are the same JSON.
        if (kind is _Value or kind is _FrozenList) and old == value:
            return old, 0 if kind is _Value else 1
        if isinstance(value, list) and kind is _FrozenList:  # the log: old lines kept
            # The log keeps its last lines only: the old lines may have moved up.
            shift = next((k for k in range(len(old)) if value and list.__getitem__(old, k) == value[0]), 0)
            items = [o if (j := i + shift) < len(old) and (o := list.__getitem__(old, j)) == v
                     else _value(v) for i, v in enumerate(value)]
            return _FrozenList(items), 1
        return _frozen(value, key)
    if isinstance(value, dict) and isinstance(old, _FrozenDict) and kind is not _Value:
        items, depth, same = {}, 0, dict.keys(old) == value.keys()
        for k, v in value.items():
            if type(v) in _SCALARS:
                o = dict.get(old, k, _MISSING)
                same = same and type(o) is type(v) and o == v  # JSON-strict: false is not 0
                items[k], d = v, 0
            else:
                o = dict.get(old, k)
                items[k], d = _shared(v, k, o)
                same = same and items[k] is o
            depth = max(depth, d)
        if same:
            return old, depth + 1
        return (_SmallDict(items) if depth < SMALL else _FrozenDict(items)), depth + 1
    if isinstance(value, list) and isinstance(old, _FrozenList) and kind is not _ValueList:
        items, depth, same = [], 0, len(old) == len(value)
        for i, v in enumerate(value):
            o = list.__getitem__(old, i) if i < len(old) else _MISSING
            if type(v) in _SCALARS:
                same = same and type(o) is type(v) and o == v
                item, d = v, 0
            else:
                item, d = _shared(v, None, o)
                same = same and item is o
            items.append(item)
            depth = max(depth, d)
        if same:
            return old, depth + 1
        return (_SmallList(items) if depth < SMALL else _FrozenList(items)), depth + 1
    return _frozen(value, key)


_MISSING = object()
_FROZEN_KINDS = frozenset((_FrozenDict, _FrozenList, _SmallDict, _SmallList, _Value, _ValueList))


def _depth(part: Any, key: Any) -> int:
    """The depth ``_frozen`` gave a frozen part at ``key``, as far as its parent's kind
    depends on it: exact below SMALL, and SMALL + 1 for a big part (only ``< SMALL`` is asked)."""
    kind = type(part)
    if kind in _SCALARS or kind is _Value or kind is _ValueList:
        return 0
    if kind is _FrozenList and key in _VALUE_LISTS:
        return 1
    if kind is _SmallDict or kind is _SmallList:
        # 1 or 2 (SMALL): 2 when a child is a dict or list (a values list included), as no
        # child of a small part is big.
        for child in (dict.values(part) if kind is _SmallDict else list.__iter__(part)):
            if type(child) in _CONTAINERS:
                return 2
        return 1
    return SMALL + 1


_CONTAINERS = frozenset((_FrozenDict, _FrozenList, _SmallDict, _SmallList))  # depth 1 or more


def settle(value: Any) -> Any:
    """The state a copy-on-write view holds (``copy_state`` of a ``cow_root``), without the
    view: each part the change touched as a plain copy, each part it did not as the frozen
    original itself, so what compares it with the state before (the undo patch) or writes it
    out skips what did not change at once."""
    kind = type(value)
    if kind is _LazyDict:
        return {k: settle(v) for k, v in dict.items(value)}
    if kind is _LazyList:
        return [settle(v) for v in list.__iter__(value)]
    return value


def is_frozen_part(value: Any) -> bool:
    """Whether ``value`` is a frozen dict or list (a part of a frozen state, or a value)."""
    return isinstance(value, (_FrozenDict, _FrozenList))


def is_frozen(state: Any) -> bool:
    """Whether ``state`` is frozen (``freeze``): nobody can change it."""
    return isinstance(state, _FrozenDict)


def cow_root(state: dict) -> _FrozenState:
    """The frozen ``state`` as a root whose deep copy is a fresh copy-on-write view (the
    children are shared with ``freeze(state)``, not copied again)."""
    return _FrozenState(dict.items(freeze(state)))


def copy_state(state: dict) -> dict:
    """The copy ``engine.apply`` changes: a copy-on-write view of a ``cow_root``, else a plain
    deep copy (of plain, frozen or copy-on-write data), much faster than ``copy.deepcopy``."""
    if isinstance(state, _FrozenState):  # a view, plain or one that records what it reads
        return state.__deepcopy__({})
    # Cards are values no reducer changes in place (as the view assumes): a game's hundreds
    # of house cards are shared, not copied, and only their list is new.
    return {k: list(v) if k == "house_cards" and isinstance(v, list) else _thaw(v)
            for k, v in dict.items(state)}




def _frozen(value: Any, key: Any = None) -> tuple[Any, int]:
    """(the frozen copy, its depth in dicts and lists, values not counted)."""
    if type(value) in _SCALARS:
        return value, 0
    if isinstance(value, dict):
        if key in _VALUE_KEYS:
            return _value(value), 0
        items, depth = {}, 0
        for k, v in dict.items(value):
            items[k], d = (v, 0) if type(v) in _SCALARS else _frozen(v, k)
            depth = max(depth, d)
        return (_SmallDict(items) if depth < SMALL else _FrozenDict(items)), depth + 1
    if isinstance(value, list):
        if key in _VALUE_LISTS:
            if type(value) is _FrozenList:  # frozen already (house cards kept from the last version)
                return value, 1
            return _FrozenList([_value(v) for v in list.__iter__(value)]), 1
        items, depth = [], 0
        for v in list.__iter__(value):
            v, d = (v, 0) if type(v) in _SCALARS else _frozen(v)
            items.append(v)
            depth = max(depth, d)
        return (_SmallList(items) if depth < SMALL else _FrozenList(items)), depth + 1
    return _value(value), 0


def _value(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS or kind is _Value or kind is _ValueList:  # already frozen: shared
        return value
    if isinstance(value, dict):
        return _Value({k: v if type(v) in _SCALARS else _value(v) for k, v in dict.items(value)})
    if isinstance(value, list):
        return _ValueList([v if type(v) in _SCALARS else _value(v) for v in list.__iter__(value)])
    if type(value) is tuple:
        return tuple(_value(v) for v in value)
    return copy.deepcopy(value)


def _thaw(value: Any) -> Any:
    """A plain deep copy (of frozen, copy-on-write or plain data)."""
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in dict.items(value)}
    if isinstance(value, list):
        return [_thaw(v) for v in list.__iter__(value)]
    if type(value) is tuple:
        return tuple(_thaw(v) for v in value)
    return value


def _whole(value: Any) -> Any:
    """A plain copy of a small frozen part, down to its values (which stay shared)."""
    kind = type(value)
    if kind is _SmallDict:
        return {k: _whole(v) if type(v) in _COPIED else v for k, v in dict.items(value)}
    if kind is _SmallList:
        return [_whole(v) if type(v) in _COPIED else v for v in list.__iter__(value)]
    return _own(value)


def _own(value: Any) -> Any:
    """A frozen part's private copy: small ones whole, big ones lazily (children on read)."""
    kind = type(value)
    if kind is _SmallDict or kind is _SmallList:
        return _whole(value)
    if kind is _FrozenDict or kind is _FrozenState:
        return _lazy_dict(value)
    if kind is _FrozenList:
        copied = _LazyList(value)
        copied._whole = False
        return copied
    return value


def _lazy_dict(value: dict) -> "_LazyDict":
    copied = _LazyDict(value)
    copied._whole = False
    return copied


class _LazyDict(dict):
    """A dict whose frozen children are copied the first time they are read."""

    __slots__ = ("_whole",)

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if type(value) in _COPIED:
            value = _own(value)
            dict.__setitem__(self, key, value)
        return value

    def get(self, key, default=None):
        return self[key] if dict.__contains__(self, key) else default

    def setdefault(self, key, default=None):
        if dict.__contains__(self, key):
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def pop(self, key, *default):
        return _own(dict.pop(self, key, *default))

    def popitem(self):
        key, value = dict.popitem(self)
        return key, _own(value)

    def _all(self) -> "_LazyDict":
        if not self._whole:
            for key, value in dict.items(self):
                if type(value) in _COPIED:
                    dict.__setitem__(self, key, _own(value))
            self._whole = True
        return self

    def values(self):
        return dict.values(self._all())

    def items(self):
        return dict.items(self._all())

    def __iter__(self):  # defined so dict(view) and {**view} read through __getitem__
        return dict.__iter__(self)

    def copy(self):
        return dict(dict.items(self._all()))

    __copy__ = copy

    def __or__(self, other):
        return dict.__or__(self._all(), other)

    def __ror__(self, other):
        return dict.__ror__(self._all(), other)

    def __deepcopy__(self, memo):
        return _thaw(self)

    def __reduce_ex__(self, protocol):
        return (dict, (_thaw(self),))


class _LazyList(list):
    """A list whose frozen items are copied the first time they are read."""

    __slots__ = ("_whole",)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list.__getitem__(self._all(), index)
        value = list.__getitem__(self, index)
        if type(value) in _COPIED:
            value = _own(value)
            list.__setitem__(self, index, value)
        return value

    def _all(self) -> "_LazyList":
        if not self._whole:
            for i, value in enumerate(list.__iter__(self)):
                if type(value) in _COPIED:
                    list.__setitem__(self, i, _own(value))
            self._whole = True
        return self

    def __iter__(self):
        return list.__iter__(self._all())

    def __reversed__(self):
        return list.__reversed__(self._all())

    def pop(self, index=-1):
        return list.pop(self._all(), index)

    def copy(self):
        return list(list.__iter__(self._all()))

    __copy__ = copy

    def __add__(self, other):
        return list.__add__(self._all(), other)

    def __mul__(self, count):
        return list.__mul__(self._all(), count)

    __rmul__ = __mul__

    def __deepcopy__(self, memo):
        return _thaw(self)

    def __reduce_ex__(self, protocol):
        return (list, (_thaw(self),))


thaw = _thaw  # a plain deep copy of JSON data
frozen_value = _value  # a frozen card: handed out as it is, never copied
