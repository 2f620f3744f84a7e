"""What a seat may do now: ``allowed(state, actor)``, the engine's ``legal_moves``.

    allowed(state, actor) -> {action_type: [params, ...]}

Every params dict, merged with ``{"type": action_type}``, is an action ``engine.apply``
accepts for this actor right now, for example::

    {"resolve": [{}],
     "run_away": [{"player": 3, "monster": 0}, {"player": 3, "monster": 1}],
     "accept_offer": [{"player": 2}],
     "equip": [{"player": 1, "instance": 7, "equipped": True}],
     "give": [{"player": 1, "instance": 7, "to": 2}, ...],
     "fight": [{"player": 1, "needs": ["monster"], "kind": "monster"}]}

A type the actor may not take at all is left out. Nothing here knows a rule: the candidates
are built from the state (every player, every card in front of them, the fight's monsters,
the table's switches) and each one is kept only if ``engine.apply`` accepts it, so ``allowed``
cannot disagree with the engine.

Free values are tried at their everyday steps, and only those are listed: ``level`` by -1 and
+1 (every source), ``gear`` by -1 and +1, ``set_hand`` one card fewer or more, ``set_sex``
either sex, ``equip``/``lock_table``/``set_variant`` both ways, ``help`` and
``sacrifice_ally`` with and without their flag. Parameters the player brings from the table
are left open and named in ``needs``: a card (``fight``, ``add_monster``, ``enhance``,
``one_shot``, ``play``: checked with a plain card of the ``kind`` given; ``play`` is tried
with an item, which goes in front of its owner, and with a curse, which may be played on
anyone), a name (``rename``), what to sell (``sell``: checked with 100 gold from the hand),
what to promise (``offer``: checked with one treasure), house cards (checked with a sample
card). ``allowed(state, actor, card=spec)`` checks the card-taking types with that card
instead, and lists them concretely (the card page does).

``options(state, actor)`` answers ``(allowed, refused)`` in one pass: ``refused`` lists the
candidates the *rules* refuse (a ``RuleViolation``, not a seat that is not yours or an action
that makes no sense), each with its ``rule`` id. Pages use it for controls that a player may
press to be told the rule. ``lists(table, type, **params)`` says whether a table lists an
action with (at least) these params.

Speed: checking a candidate with ``engine.apply`` means a deep copy of the state per
candidate, about a millisecond for a six-player game. Instead the state is frozen once and
each check works on a copy-on-write view of it (containers are copied when the reducer
reads them, so a check costs what it touches). The view holds exactly the state's data; a
reducer that writes into a part that was not copied hits a frozen container, and that
candidate is checked again the plain way. ``bench/allowed.py`` measures it.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable, Iterable

from .vocab import LEVEL_SOURCES, SEXES, SIDES, VARIANTS

# Plain cards a check uses where the player brings the card (kind -> inline card facts).
SAMPLE_CARDS: dict[str, dict] = {
    "monster": {"kind": "monster", "name": "A monster", "level": 1},
    "enhancer": {"kind": "enhancer", "name": "An enhancer", "bonus": 1},
    "one-shot": {"kind": "one-shot", "name": "A one-shot", "bonus": 1},
    "item": {"kind": "item", "name": "An item", "slot": "other"},
    "curse": {"kind": "curse", "name": "A curse"},
}
SAMPLE_HOUSE_CARD = {"kind": "other", "name": "Sample house card (allowed check)"}
SAMPLE_HAND_GOLD = 100
SAMPLE_TREASURES = 1

# Which field of each card-taking type holds the card, and the kinds it is checked with.
CARD_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "fight": ("monster", ("monster",)),
    "add_monster": ("monster", ("monster",)),
    "enhance": ("card", ("enhancer",)),
    "one_shot": ("card", ("one-shot",)),
    "play": ("card", ("item", "curse")),
}

Candidate = tuple[dict, dict]  # (the params listed, extra fields the check fills in)


def allowed(state: dict, actor: Any, *, card: Any = None) -> dict[str, list[dict]]:
    """The actions ``actor`` may take now: ``{type: [params, ...]}`` (see the module doc)."""
    return options(state, actor, card=card)[0]


def options(state: dict, actor: Any, *, card: Any = None) -> tuple[dict, dict]:
    """``(allowed, refused)``: what the engine accepts, and what a rule refuses (with ``rule``)."""
    from companion import engine  # the package imports this module

    frozen = _freeze(state)
    check = _Checker(engine, state, frozen, actor)
    ok: dict[str, list[dict]] = {}
    refused: dict[str, list[dict]] = {}
    for kind, build in _BUILDERS.items():
        if kind not in engine.REDUCERS:
            continue
        for listed, extra in build(state, card):
            params = {k: v for k, v in listed.items() if k not in ("needs", "kind")}
            rule = check({"type": kind, **params, **extra})
            if rule is None:
                ok.setdefault(kind, []).append(listed)
            elif rule:
                refused.setdefault(kind, []).append({**listed, "rule": rule})
    return ok, refused


def lists(table: dict, kind: str, **params: Any) -> bool:
    """Whether ``table`` (an ``allowed`` or ``refused`` answer) has a ``kind`` entry with
    these params (other keys of the entry may differ): ``lists(a, "run_away", player=3)``."""
    return any(all(entry.get(k) == v for k, v in params.items()) for entry in table.get(kind, ()))


def action_types() -> set[str]:
    """The action types ``allowed`` builds candidates for (tests check it covers REDUCERS)."""
    return set(_BUILDERS)


# --- checking one candidate -----------------------------------------------------------------

class _Checker:
    """Runs ``engine.apply`` on the frozen state's copy-on-write view; answers None (accepted),
    a rule id (the rules refuse it) or "" (refused otherwise: not this seat, makes no sense)."""

    fallbacks = 0  # checks redone the plain way (a reducer wrote where the view had not copied)

    def __init__(self, engine, state: dict, frozen: dict, actor: Any):
        self.engine, self.state, self.frozen, self.actor = engine, state, frozen, actor
        self.rng = random.Random(0)
        self.cards: dict[str, dict] = {}

    def resolve(self, spec: Any, house_cards: list) -> dict:
        """The catalog's resolver, remembered for this state (the same spec, the same card)."""
        from companion.catalog import resolve_card

        key = spec if isinstance(spec, str) else json.dumps(spec, sort_keys=True, default=str)
        if key not in self.cards:
            try:
                self.cards[key] = _frozen(resolve_card(spec, house_cards=_thaw(house_cards)))
            except Exception as exc:  # a refusal is remembered too, and raised again
                self.cards[key] = exc
        found = self.cards[key]
        if isinstance(found, Exception):
            raise found
        return _thaw(found)

    def __call__(self, action: dict) -> str | None:
        engine = self.engine
        try:
            try:
                engine.apply(self.frozen, action, self.actor, resolve=self.resolve, rng=self.rng)
            except _SharedWrite:
                _Checker.fallbacks += 1
                engine.apply(self.state, action, self.actor, resolve=self.resolve, rng=self.rng)
        except engine.RuleViolation as violation:
            return violation.rule
        except engine.EngineError:
            return ""
        return None


# --- the candidates, per action type ---------------------------------------------------------

def _players(state: dict) -> list[int]:
    return [p["id"] for p in state["players"]]


def _cards(state: dict) -> list[tuple[int, int]]:
    return [(p["id"], e["iid"]) for p in state["players"] for e in p["cards"]]


def _fight(state: dict) -> dict:
    return state.get("combat") or {}


def _each_player(*variants: dict) -> Callable:
    def build(state, card):
        return [({"player": p, **v}, {}) for p in _players(state) for v in variants or ({},)]
    return build


def _no_params(state, card):
    return [({}, {})]


def _with_card(kind: str, bases: Callable[[dict], Iterable[dict]]) -> Callable:
    field, kinds = CARD_FIELDS[kind]

    def build(state, card):
        if card is not None:
            return [({**base, field: card}, {}) for base in bases(state)]
        return [({**base, "needs": [field], "kind": k}, {field: SAMPLE_CARDS[k]})
                for base in bases(state) for k in kinds]
    return build


def _level(state, card):
    return [({"player": p, "delta": d, "source": s}, {})
            for p in _players(state) for d in (-1, 1) for s in LEVEL_SOURCES]


def _set_hand(state, card):
    return [({"player": p["id"], "count": p.get("hand", 0) + d}, {})
            for p in state["players"] for d in (-1, 1)]


def _rename(state, card):
    return [({"player": p["id"], "needs": ["name"]}, {"name": p["name"]}) for p in state["players"]]


def _set_variant(state, card):
    return [({"variant": v, "on": on}, {}) for v in VARIANTS for on in (True, False)]


def _lock_table(state, card):
    return [({"locked": on}, {}) for on in (True, False)]


def _per_card(state, card):
    return [({"player": p, "instance": i}, {}) for p, i in _cards(state)]


def _equip(state, card):
    return [({"player": p, "instance": i, "equipped": on}, {})
            for p, i in _cards(state) for on in (True, False)]


def _sell(state, card):
    return [({"player": p, "needs": ["instances", "hand_gold"]}, {"hand_gold": SAMPLE_HAND_GOLD})
            for p in _players(state)]


def _give(state, card):
    players = _players(state)
    return [({"player": p, "instance": i, "to": to}, {}) for p, i in _cards(state) for to in players]


def _monster_indexes(state, card):
    return [({"monster": i}, {}) for i in range(len(_fight(state).get("monsters", ())))]


def _run_away(state, card):
    # Escapes are per computed monster (a Mate's copy comes after the stored ones), so every
    # index a Mate could make is tried; an index past the end is simply refused.
    monsters = _fight(state).get("monsters", ())
    count = len(monsters) + sum(len(m.get("enhancers") or ()) for m in monsters)
    return [({"player": p, "monster": i}, {}) for p in _players(state) for i in range(count)]


def _offer(state, card):
    return [({"to": p, "needs": ["treasures", "items", "pick_first"]}, {"treasures": SAMPLE_TREASURES})
            for p in _players(state)]


def _add_house_card(state, card):
    return [({"needs": ["card"]}, {"card": SAMPLE_HOUSE_CARD})]


def _import_house_cards(state, card):
    return [({"needs": ["cards"]}, {"cards": [SAMPLE_HOUSE_CARD]})]


_BUILDERS: dict[str, Callable[[dict, Any], list[Candidate]]] = {
    # the table
    "level": _level,
    "gear": _each_player({"delta": -1}, {"delta": 1}),
    "set_sex": _each_player(*({"sex": s} for s in SEXES)),
    "set_turn": _each_player(),
    "end_turn": _each_player(),
    "set_hand": _set_hand,
    "set_variant": _set_variant,
    "rename": _rename,
    "remove_player": _each_player(),
    "lock_table": _lock_table,
    # the character sheet
    "play": _with_card("play", lambda s: ({"player": p} for p in _players(s))),
    "discard": _per_card,
    "equip": _equip,
    "sell": _sell,
    "give": _give,
    "die": _each_player(),
    # fights
    "fight": _with_card("fight", lambda s: ({"player": p} for p in _players(s))),
    "add_monster": _with_card("add_monster", lambda s: ({},)),
    "enhance": _with_card("enhance", lambda s: ({"monster": i} for i in range(len(_fight(s).get("monsters", ()))))),
    "remove_monster": _monster_indexes,
    "one_shot": _with_card("one_shot", lambda s: ({"side": side} for side in SIDES)),
    "help": _each_player({}, {"forced": True}),
    "stop_helping": _no_params,
    "resolve": _no_params,
    "run_away": _run_away,
    "sacrifice_ally": _each_player({}, {"helper_too": True}),
    "close_fight": _no_params,
    # help and bribes
    "offer": _offer,
    "accept_offer": _each_player(),
    "decline_offer": _each_player(),
    # house cards
    "add_house_card": _add_house_card,
    "import_house_cards": _import_house_cards,
}


# --- a frozen state and its copy-on-write view ----------------------------------------------

class _SharedWrite(BaseException):
    """A check wrote into a frozen part of the state (a BaseException: no reducer catches it)."""


def _refuse(self, *args, **kwargs):
    raise _SharedWrite()


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
        return _LazyDict(self)


_FROZEN = (_FrozenDict, _FrozenList, _FrozenState)


_SCALARS = frozenset((str, int, float, bool, type(None)))


def _freeze(state: dict) -> "_FrozenState":
    """A deep copy of ``state`` whose every dict and list refuses writes."""
    return _FrozenState({k: v if type(v) in _SCALARS else _frozen(v) for k, v in state.items()})


def _frozen(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if isinstance(value, dict):
        return _FrozenDict({k: v if type(v) in _SCALARS else _frozen(v) for k, v in dict.items(value)})
    if isinstance(value, list):
        return _FrozenList([v if type(v) in _SCALARS else _frozen(v) for v in list.__iter__(value)])
    if kind is tuple:
        return tuple(_frozen(v) for v in value)
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


def _own(value: Any) -> Any:
    """A frozen container's private copy (its children stay frozen until read)."""
    kind = type(value)
    if kind is _FrozenDict or kind is _FrozenState:
        return _LazyDict(value)
    if kind is _FrozenList:
        return _LazyList(value)
    return value


class _LazyDict(dict):
    """A dict whose frozen children are copied the first time they are read."""

    __slots__ = ()

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if type(value) in _FROZEN:
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
        for key in dict.keys(self):
            self[key]
        return self

    def values(self):
        return dict.values(self._all())

    def items(self):
        return dict.items(self._all())

    def __iter__(self):  # defined so dict(view) and {**view} read through __getitem__
        return dict.__iter__(self)

    def copy(self):
        return dict(dict.items(self._all()))

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

    __slots__ = ()

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list.__getitem__(self._all(), index)
        value = list.__getitem__(self, index)
        if type(value) in _FROZEN:
            value = _own(value)
            list.__setitem__(self, index, value)
        return value

    def _all(self) -> "_LazyList":
        for i, value in enumerate(list.__iter__(self)):
            if type(value) in _FROZEN:
                list.__setitem__(self, i, _own(value))
        return self

    def __iter__(self):
        return list.__iter__(self._all())

    def __reversed__(self):
        return list.__reversed__(self._all())

    def pop(self, index=-1):
        return list.pop(self._all(), index)

    def copy(self):
        return list(list.__iter__(self._all()))

    def __add__(self, other):
        return list.__add__(self._all(), other)

    def __mul__(self, count):
        return list.__mul__(self._all(), count)

    __rmul__ = __mul__

    def __deepcopy__(self, memo):
        return _thaw(self)

    def __reduce_ex__(self, protocol):
        return (list, (_thaw(self),))
