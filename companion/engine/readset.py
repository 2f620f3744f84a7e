"""What a check read of a state, and what changed between two states: so that a verdict
worked out at one version is reused at the next when nothing it read has changed.

A check runs ``engine.apply`` on a copy-on-write view of the frozen state (``frozen.py``).
``tracked_root(state)`` is the same view, recording in a ``ReadSet`` the paths it hands out
(a path is the keys and list indexes from the root: ``("players", 2, "level")``):

- ``touched``: every path looked up, present or not, and, for a list, its length as
  ``(..., "#len")`` and, for a dict, its set of keys as ``(..., "#keys")``. A container is
  reached through its parent, so the set holds every prefix of every path in it;
- ``wholes``: the paths whose whole content was read: a value (a number, a card), a small
  part copied whole, a container read at once (its items, compared, copied).

``Changes(before, after)`` lists the paths whose value differs (a dict whose keys differ
adds ``#keys``, a list whose length differs ``#len``). A verdict still holds when no changed
path was touched and no whole read lies above a changed path (``ReadSet.holds``): whatever
the check read is what it would read again, and ``engine.apply`` depends on nothing else
(its cards come from the card facts supplied to it and the state's house cards, its dice are
seeded).
"""

from __future__ import annotations

from contextlib import contextmanager

from typing import Any

from .frozen import (
    _COPIED, _FrozenDict, _FrozenList, _FrozenState, _LazyDict, _LazyList, _SmallDict, _SmallList,
    _whole, freeze,
)

LENGTH = "#len"  # a list's length, as a path's last step
KEYS = "#keys"  # a dict's set of keys, as a path's last step


class ReadSet:
    """The paths one check read (see the module doc)."""

    __slots__ = ("touched", "wholes")

    def __init__(self):
        self.touched: set[tuple] = set()
        self.wholes: set[tuple] = set()

    def whole(self, path: tuple) -> None:
        self.touched.add(path)
        self.wholes.add(path)

    def update(self, other: "ReadSet") -> None:
        """Add what ``other`` read (a page part that asked several questions)."""
        self.touched |= other.touched
        self.wholes |= other.wholes

    def holds(self, changes: "Changes") -> bool:
        """Whether what was read is the same after ``changes``."""
        return self.touched.isdisjoint(changes.paths) and self.wholes.isdisjoint(changes.above)


@contextmanager
def unrecorded(view: Any):
    """Reads made inside are not recorded in ``view``'s read set (a tracked copy-on-write
    view; anything else: nothing to do). Only for what cannot decide a verdict: a part of an
    action worked out after every refusal it may meet (death's looting order), so that a
    change to what it reads does not make every seat ask the question again."""
    reads = getattr(view, "_reads", None) if isinstance(view, _TrackedDict) else None
    if reads is None:
        yield
        return
    touched, wholes = reads.touched, reads.wholes
    reads.touched, reads.wholes = set(), set()
    try:
        yield
    finally:
        reads.touched, reads.wholes = touched, wholes


class Changes:
    """The paths whose value differs between two states (``paths``) and every path above
    one of them (``above``)."""

    __slots__ = ("paths", "above")

    def __init__(self, before: dict, after: dict):
        self.paths: set[tuple] = set()
        _differ(before, after, (), self.paths)
        self.above = {path[:n] for path in self.paths for n in range(len(path))}


def _differ(a: Any, b: Any, path: tuple, out: set) -> None:
    # Python's == first, in C: most of a state is the same from one version to the next.
    # It says True == 1, which JSON does not, but the engine is Python code that reads them
    # alike (a verdict is a rule id, never a value), so a verdict stays right either way.
    if a is b or a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        keys_a, keys_b = dict.keys(a), dict.keys(b)
        if keys_a != keys_b:
            out.add(path + (KEYS,))
            out.update(path + (k,) for k in keys_a ^ keys_b)
        for k in keys_a & keys_b:
            _differ(dict.__getitem__(a, k), dict.__getitem__(b, k), path + (k,), out)
    elif isinstance(a, list) and isinstance(b, list):
        common = min(len(a), len(b))
        if len(a) != len(b):
            out.add(path + (LENGTH,))
            out.update(path + (i,) for i in range(common, max(len(a), len(b))))
        for i in range(common):
            _differ(list.__getitem__(a, i), list.__getitem__(b, i), path + (i,), out)
    else:
        out.add(path)


def tracked_root(state: dict) -> "_TrackedState":
    """The frozen ``state`` as a root whose deep copy (``frozen.copy_state``) is a
    copy-on-write view recording what is read in the root's ``reads`` (set it per check)."""
    root = _TrackedState(dict.items(freeze(state)))
    root.reads = ReadSet()
    return root


class _TrackedState(_FrozenState):
    __slots__ = ("reads",)

    def __getitem__(self, key):  # engine.apply reads a few fields of the root itself
        self.reads.whole((key,))
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self.reads.whole((key,))
        return dict.get(self, key, default)

    def __deepcopy__(self, memo):
        return _tracked_dict(self, (), self.reads)


def _own(value: Any, path: tuple, reads: ReadSet) -> Any:
    kind = type(value)
    if kind is _FrozenDict or kind is _FrozenState or kind is _TrackedState:
        reads.touched.add(path)
        return _tracked_dict(value, path, reads)
    if kind is _FrozenList:
        reads.touched.add(path)
        return _tracked_list(value, path, reads)
    reads.whole(path)  # a small part, copied whole: what is read inside it is not followed
    return _whole(value) if kind is _SmallDict or kind is _SmallList else value


def _tracked_dict(value: dict, path: tuple, reads: ReadSet) -> "_TrackedDict":
    copied = _TrackedDict(dict.items(value))
    copied._whole, copied._path, copied._reads = False, path, reads
    return copied


def _tracked_list(value: list, path: tuple, reads: ReadSet) -> "_TrackedList":
    copied = _TrackedList(list.__iter__(value))
    copied._whole, copied._path, copied._reads = False, path, reads
    return copied


def _read(container, key, value):
    """The value at ``key`` of a tracked container, its reading recorded."""
    path = container._path + (key,)
    kind = type(value)
    if kind in _COPIED:
        return _own(value, path, container._reads), True
    if kind is _TrackedDict or kind is _TrackedList:
        container._reads.touched.add(path)
    else:
        container._reads.whole(path)
    return value, False


class _TrackedDict(_LazyDict):
    __slots__ = ("_path", "_reads")

    def __getitem__(self, key):
        try:
            value = dict.__getitem__(self, key)
        except KeyError:
            self._reads.touched.add(self._path + (key,))
            raise
        value, owned = _read(self, key, value)
        if owned:
            dict.__setitem__(self, key, value)
        return value

    def get(self, key, default=None):
        if dict.__contains__(self, key):
            return self[key]
        self._reads.touched.add(self._path + (key,))
        return default

    def __contains__(self, key):
        self._reads.touched.add(self._path + (key,))
        return dict.__contains__(self, key)

    def setdefault(self, key, default=None):
        if key in self:
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def pop(self, key, *default):
        self._reads.whole(self._path + (key,))
        return _LazyDict.pop(self, key, *default)

    def __len__(self):
        self._reads.touched.add(self._path + (KEYS,))
        return dict.__len__(self)

    def __iter__(self):
        self._reads.touched.add(self._path + (KEYS,))
        return dict.__iter__(self)

    def keys(self):
        self._reads.touched.add(self._path + (KEYS,))
        return dict.keys(self)

    def _at_once(self) -> "_TrackedDict":
        self._reads.whole(self._path)
        return self._all()

    def values(self):
        return dict.values(self._at_once())

    def items(self):
        return dict.items(self._at_once())

    def popitem(self):
        self._at_once()
        return _LazyDict.popitem(self)

    def copy(self):
        return dict(dict.items(self._at_once()))

    __copy__ = copy

    def __eq__(self, other):
        return dict.__eq__(self._at_once(), other)

    def __ne__(self, other):
        return dict.__ne__(self._at_once(), other)

    __hash__ = None

    def __or__(self, other):
        return dict.__or__(self._at_once(), other)

    def __ror__(self, other):
        return dict.__ror__(self._at_once(), other)

    def __repr__(self):
        return dict.__repr__(self._at_once())

    def __deepcopy__(self, memo):
        return _LazyDict.__deepcopy__(self._at_once(), memo)

    def __reduce_ex__(self, protocol):
        return _LazyDict.__reduce_ex__(self._at_once(), protocol)


def _whole_then(method):
    """A list method that reads (or rearranges) the whole list."""
    def read_whole(self, *args, **kwargs):
        self._reads.whole(self._path)
        return method(self._all(), *args, **kwargs)
    read_whole.__name__ = method.__name__
    return read_whole


class _TrackedList(_LazyList):
    __slots__ = ("_path", "_reads")

    def __getitem__(self, index):
        if isinstance(index, slice):
            self._reads.whole(self._path)
            return list.__getitem__(self._all(), index)
        if index < 0:  # the last ones: which they are depends on the length
            self._reads.touched.add(self._path + (LENGTH,))
            index += list.__len__(self)
        value = list.__getitem__(self, index)
        value, owned = _read(self, index, value)
        if owned:
            list.__setitem__(self, index, value)
        return value

    def __len__(self):
        self._reads.touched.add(self._path + (LENGTH,))
        return list.__len__(self)

    def __iter__(self):
        self._reads.touched.add(self._path + (LENGTH,))
        return self._each()

    def _each(self):
        index = 0
        while index < list.__len__(self):
            value, owned = _read(self, index, list.__getitem__(self, index))
            if owned:
                list.__setitem__(self, index, value)
            yield value
            index += 1

    # Reading the whole list, or changing it (after which an index no longer names the item
    # it named in the state): the whole list counts as read.
    __contains__ = _whole_then(list.__contains__)
    index = _whole_then(list.index)
    count = _whole_then(list.count)
    __eq__ = _whole_then(list.__eq__)
    __ne__ = _whole_then(list.__ne__)
    __hash__ = None
    __reversed__ = _whole_then(list.__reversed__)
    __repr__ = _whole_then(list.__repr__)
    __add__ = _whole_then(list.__add__)
    __mul__ = __rmul__ = _whole_then(list.__mul__)
    copy = __copy__ = _whole_then(list.copy)
    append = _whole_then(list.append)
    extend = _whole_then(list.extend)
    insert = _whole_then(list.insert)
    remove = _whole_then(list.remove)
    pop = _whole_then(list.pop)
    clear = _whole_then(list.clear)
    sort = _whole_then(list.sort)
    reverse = _whole_then(list.reverse)
    __setitem__ = _whole_then(list.__setitem__)
    __delitem__ = _whole_then(list.__delitem__)
    __iadd__ = _whole_then(list.__iadd__)
    __imul__ = _whole_then(list.__imul__)

    def __deepcopy__(self, memo):
        self._reads.whole(self._path)
        return _LazyList.__deepcopy__(self, memo)

    def __reduce_ex__(self, protocol):
        self._reads.whole(self._path)
        return _LazyList.__reduce_ex__(self, protocol)
