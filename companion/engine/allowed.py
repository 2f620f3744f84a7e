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
are built from the state (the seats the actor may act for, by the engine's own
``Actor.may_act_for``, and everyone as a target; the cards in front of those seats; the fight's
monsters; the table's switches) and each one is kept only if its action's check accepts it
(the check ``engine.apply`` runs first), so
``allowed`` cannot disagree with the engine. Pass the stored state (not ``public_state``).

Free values are tried at their everyday steps, and only those are listed: ``level`` by -1 and
+1 (every source), ``gear`` by -1 and +1, ``set_hand`` one card fewer or more, ``set_sex``
either sex, ``equip``/``lock_table``/``set_variant`` both ways, ``help`` and
``sacrifice_ally`` with and without their flag. Parameters the player brings from the table
are left open and named in ``needs``: a card (``fight``, ``add_monster``, ``enhance``,
``one_shot``, ``play``: checked with a plain card of the ``kind`` given; ``play`` is tried
with an item and a one-shot, which go in front of their owner, and with a curse, which may
be played on anyone; ``one_shot`` also with each one-shot lying in front of a seat), a name
(``rename``), what to sell (``sell``: checked with 1000 gold from the hand, one level; and
each card of a seat showing gold as the one ``doubled``, a Halfling's), what to promise
(``offer``: checked with one treasure), house cards (checked with a sample card). ``allowed(state, actor, card=spec)`` checks the card-taking types with that card
instead, and lists them concretely (the card page does).

``options(state, actor)`` answers ``(allowed, refused)`` in one pass: ``refused`` lists the
candidates the *rules* refuse (a ``RuleViolation``, not a seat that is not yours or an action
that makes no sense), each with its ``rule`` id. Pages use it for controls that a player may
press to be told the rule. ``lists(table, type, **params)`` says whether a table lists an
action with (at least) these params.

``Options(state, actor)`` is the same answer worked out only as far as it is asked (what a
page does); ``is_allowed(state, action, actor)`` checks one action.

Speed: each candidate is checked by its action's check alone (``actions.checks_of``: the
reducer's preconditions, read-only, on the frozen state; no copy, no change made), never by
applying it; the checks of one state share its context (rules, computed fight). ``bench/allowed.py`` measures it.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Mapping
from typing import Any, Callable, Iterable

from . import actions, cards, powers
from .core import REDUCERS
from .errors import EngineError, RuleViolation
from .frozen import freeze, frozen_value, thaw
from .rules import WINNING_LEVELS
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
SAMPLE_HAND_GOLD = 1000  # one level's worth: less is refused (no change is given)
SAMPLE_TREASURES = 1
# The verdicts ``may_try`` offers no control for: not this seat's to make (""), and the game won.
NOT_TO_TRY = ("", actions.GAME_OVER)

# Which field of each card-taking type holds the card, and the kinds it is checked with.
CARD_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "fight": ("monster", ("monster",)),
    "add_monster": ("monster", ("monster",)),
    "enhance": ("card", ("enhancer",)),
    "one_shot": ("card", ("one-shot",)),
    "play": ("card", ("item", "one-shot", "curse")),
}

Candidate = tuple[dict, dict]  # (the params listed, extra fields the check fills in)
# Between checks, once ``PAUSE_AFTER`` seconds of checking have passed since the last pause: the
# server sets ``pause`` to give the other requests on its event loop a turn (``gevent.idle``), so
# a seat with thousands of moves to check never holds every other table's taps back; None
# (tests, scripts): no pause. By time, not by count: a check takes some microseconds now, and a
# pause every few checks cost the server as much CPU again in switches (bench/refresh.py).
pause: Callable[[], None] | None = None
PAUSE_AFTER = 0.002


def allowed(state: dict, actor: Any, *, card: Any = None) -> dict[str, list[dict]]:
    """The actions ``actor`` may take now: ``{type: [params, ...]}`` (see the module doc)."""
    return options(state, actor, card=card)[0]


def options(state: dict, actor: Any, *, card: Any = None) -> tuple[dict, dict]:
    """``(allowed, refused)``: what the engine accepts, and what a rule refuses (with ``rule``)."""
    found = Options(state, actor, card=card)
    return dict(found.allowed), dict(found.refused)


def is_allowed(state: dict, action: dict, actor: Any) -> bool:
    """Whether ``engine.apply`` accepts this one action from ``actor`` now (python-chess's
    ``is_legal``): one check, no candidates built."""
    return _Checker(state, actor)(action) is None


class Options:
    """What a seat may do now, worked out only as far as it is asked: a type's candidates are
    built when the type is first asked about, and each candidate is checked at most once.

    ``allowed`` and ``refused`` read like ``options``' two dicts (``allowed.give``,
    ``dict(allowed)``); ``lists("allowed", type, **params)`` checks only the candidates with
    those params. A page asks about a few dozen moves of the hundreds a seat has."""

    def __init__(self, state: dict, actor: Any, *, card: Any = None):
        self.state = state
        self._reducers = REDUCERS
        frozen = freeze(state)
        self._check = _Checker(frozen, actor)
        self._table = _Table(frozen, actor, card)
        self._candidates: dict[str, list[tuple[dict, dict]]] = {}  # type -> [(listed, action)]
        self._verdicts: dict[tuple[str, int], str | None] = {}  # (type, index) -> rule, "", None
        self._index: dict[tuple[str, tuple], dict[tuple, list[int]]] = {}  # see _matching
        self.checked = 0  # how many verdicts were worked out
        self.allowed = _Listed(self, accepted=True)
        self.refused = _Listed(self, accepted=False)

    def types(self) -> list[str]:
        return [kind for kind in _BUILDERS if kind in self._reducers]

    def _of(self, kind: str) -> list[tuple[dict, dict]]:
        found = self._candidates.get(kind)
        if found is None:
            found = []
            if kind in _BUILDERS and kind in self._reducers:
                for listed, extra in _BUILDERS[kind](self._table):
                    params = {k: v for k, v in listed.items() if k not in ("needs", "kind")}
                    found.append((listed, {"type": kind, **params, **extra}))
            self._candidates[kind] = found
        return found

    def _verdict(self, kind: str, index: int, action: dict) -> str | None:
        key = (kind, index)
        if key not in self._verdicts:
            self.checked += 1
            self._verdicts[key] = self._check(action)
        return self._verdicts[key]

    def power_moves(self, player: int | None = None) -> list[dict]:
        """The ``use_power`` entries allowed now (for ``player``'s powers, when given)."""
        return self.entries("use_power", accepted=True, **({} if player is None else {"player": player}))

    def _matching(self, kind: str, params: dict) -> Iterable[int]:
        """The indexes of the candidates of ``kind`` whose listed params include ``params``
        (found through an index per set of param names: a page asks dozens of times)."""
        found = self._of(kind)
        if not params:
            return range(len(found))
        names, wanted = tuple(params), tuple(params.values())
        try:
            hash(wanted)
        except TypeError:  # a list among the params: looked for one by one
            return [i for i, (listed, _) in enumerate(found)
                    if all(listed.get(k) == v for k, v in params.items())]
        index = self._index.get((kind, names))
        if index is None:
            index = self._index[(kind, names)] = {}
            for i, (listed, _) in enumerate(found):
                values = tuple(listed.get(k) for k in names)
                try:
                    index.setdefault(values, []).append(i)
                except TypeError:  # a list: never equal to the hashable values asked for
                    pass
        return index.get(wanted, ())

    def entries(self, kind: str, *, accepted: bool, **params: Any) -> list[dict]:
        """The listed entries of ``kind`` with these params, accepted ones or those a rule
        refuses (with ``rule``)."""
        out = []
        found = self._of(kind)
        for index in self._matching(kind, params):
            listed, action = found[index]
            rule = self._verdict(kind, index, action)
            if accepted and rule is None:
                out.append(listed)
            elif not accepted and rule:
                out.append({**listed, "rule": rule})
        return out

    def can(self, kind: str, /, **params: Any) -> bool:
        """Whether an action of ``kind`` with these params is allowed now."""
        return self.lists(kind, accepted=True, **params)

    def refusal(self, kind: str, /, **params: Any) -> tuple[str, dict | None] | None:
        """Why the first entry of ``kind`` with these params that a rule refuses is refused:
        ``(rule id, what in this game broke it as a said)``; None when no rule refuses one (a
        power waiting for its moment says which rule it waits on)."""
        found = self._of(kind)
        for index in self._matching(kind, params):
            if self._verdict(kind, index, found[index][1]):
                violation = self._check.violation(found[index][1])
                if violation is not None:
                    return violation.rule, violation.detail_said
        return None

    def may_try(self, kind: str, /, **params: Any) -> bool:
        """Whether one is allowed, or refused by a rule (a control that explains the rule
        when pressed), in one pass. Not once the game is won: the page says who won, and a
        control that could only say so again is noise."""
        found = self._of(kind)
        return any(self._verdict(kind, index, found[index][1]) not in NOT_TO_TRY
                   for index in self._matching(kind, params))

    def receivers(self, instance: int) -> set[int]:
        """Who may be given that card now, or is refused it by a rule (not once the game is won)."""
        found = self._of("give")
        return {found[index][0]["to"] for index in self._matching("give", {"instance": instance})
                if self._verdict("give", index, found[index][1]) not in NOT_TO_TRY}

    def lists(self, kind: str, /, *, accepted: bool = True, **params: Any) -> bool:
        """Whether an entry of ``kind`` with these params is accepted (or refused by a rule)."""
        found = self._of(kind)
        for index in self._matching(kind, params):
            rule = self._verdict(kind, index, found[index][1])
            if (rule is None) if accepted else bool(rule):
                return True
        return False


class _Listed(Mapping):
    """``Options.allowed`` / ``.refused``: a read-only ``{type: [entry, ...]}`` whose types are
    worked out when read; a type with no entry is absent, as in ``options``."""

    def __init__(self, options: Options, *, accepted: bool):
        self._options, self._accepted = options, accepted
        self._done: dict[str, list[dict]] = {}

    def _entries(self, kind: str) -> list[dict]:
        if kind not in self._done:
            self._done[kind] = self._options.entries(kind, accepted=self._accepted)
        return self._done[kind]

    def __getitem__(self, kind: str) -> list[dict]:
        found = self._entries(kind) if isinstance(kind, str) else []
        if not found:
            raise KeyError(kind)
        return found

    def __iter__(self):
        return (kind for kind in self._options.types() if self._entries(kind))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def lists(table: Any, action_type: str, /, **params: Any) -> bool:
    """Whether ``table`` (an ``allowed`` or ``refused`` answer) has an ``action_type`` entry
    with these params (other keys of the entry may differ): ``lists(a, "run_away", player=3)``."""
    if isinstance(table, _Listed):  # only the candidates with these params are checked
        return table._options.lists(action_type, accepted=table._accepted, **params)
    return any(all(entry.get(k) == v for k, v in params.items()) for entry in table.get(action_type, ()))


def action_types() -> set[str]:
    """The action types ``allowed`` builds candidates for (tests check it covers REDUCERS)."""
    return set(_BUILDERS)


# --- checking one candidate -----------------------------------------------------------------

class _Checker:
    """Runs the action's check on the frozen state (``actions.checks_of``: the checks of one
    state share its context and computed fight): answers None (accepted), a rule id (the rules
    refuse it) or "" (refused otherwise: not this seat, makes no sense). One check at a time:
    pages of one seat share their Options across threads."""

    def __init__(self, state: dict, actor: Any):
        self.state, self.actor = state, actor
        self.resolved: dict[str, dict] = {}
        # never rolled: a check reads, only reducers roll dice
        self.check = actions.checks_of(state, actor, resolve=self.resolve, rng=random.Random(0))
        self.lock = threading.Lock()

    def resolve(self, spec: Any, house_cards: list) -> dict:
        """The engine's card facts, remembered for this state (the same spec, the same card)."""
        key = spec if isinstance(spec, str) else json.dumps(spec, sort_keys=True, default=str)
        if key not in self.resolved:
            try:
                self.resolved[key] = frozen_value(cards.resolve(spec, house_cards))
            except Exception as exc:  # a refusal is remembered too, and raised again
                self.resolved[key] = exc
        found = self.resolved[key]
        if isinstance(found, Exception):
            raise found.with_traceback(None)
        return thaw(found)

    paused_at = time.perf_counter()  # when the last pause ended (``pause``)

    def __call__(self, action: dict) -> str | None:
        if pause is not None and time.perf_counter() - _Checker.paused_at >= PAUSE_AFTER:
            pause()  # outside the lock: another request may use this checker meanwhile
            _Checker.paused_at = time.perf_counter()
        with self.lock:
            return self._check(action)

    def _check(self, action: dict) -> str | None:
        try:
            self.check(action)
        except RuleViolation as violation:
            return violation.rule
        except EngineError:
            return ""
        return None

    def violation(self, action: dict) -> RuleViolation | None:
        """The rule's refusal itself, with what broke it (asked again: only for the few
        moves a page explains)."""
        with self.lock:
            try:
                self.check(action)
            except RuleViolation as violation:
                return violation
            except EngineError:
                return None
        return None


# --- the candidates, per action type ---------------------------------------------------------
#
# A builder gets the table (``_Table``) and returns (params listed, extra fields the check fills
# in) pairs. Types whose ``player`` is the one acting (the engine refuses anyone else's seat)
# are tried for ``table.seats``: the players ``Actor.may_act_for``; the rest for everyone. The
# only candidates never tried are ones the engine refuses as not this seat's or as making no
# sense (a gift to oneself); whatever a rule might refuse is tried, and the engine decides.
# tests/engine/test_allowed.py checks that the moves left untried are refused.

class _Table:
    def __init__(self, state: dict, actor: Any, card: Any):
        self.state, self.card = state, card
        self.everyone = [p["id"] for p in state["players"]]
        self.seats = [p for p in self.everyone if actor.may_act_for(p)]
        self.fight = state.get("combat") or {}
        self.monsters = self.fight.get("monsters") or []

    def cards(self, which: Callable[[dict], Any] | None = None) -> list[tuple[int, int]]:
        """(player, instance) for every card in front of a seat the actor may act for (only
        the cards ``which`` accepts, when given)."""
        mine = set(self.seats)
        return [(p["id"], e["iid"]) for p in self.state["players"] if p["id"] in mine
                for e in p["cards"] if which is None or which(e["card"])]


def _for(who: str, *variants: dict) -> Callable:
    def build(t: _Table) -> list[Candidate]:
        return [({"player": p, **v}, {}) for p in getattr(t, who) for v in variants or ({},)]
    return build


def _no_params(t: _Table) -> list[Candidate]:
    return [({}, {})]


def _with_card(kind: str, bases: Callable[[_Table], Iterable[dict]]) -> Callable:
    field, kinds = CARD_FIELDS[kind]

    def build(t: _Table) -> list[Candidate]:
        if t.card is not None:
            return [({**base, field: t.card}, {}) for base in bases(t)]
        return [({**base, "needs": [field], "kind": k}, {field: SAMPLE_CARDS[k]})
                for base in bases(t) for k in kinds]
    return build


def _play(t: _Table) -> list[Candidate]:
    # An item (or a one-shot laid on the table) goes in front of the player who plays it; a
    # curse may be played on anyone.
    if t.card is not None:
        return [({"player": p, "card": t.card}, {}) for p in t.everyone]
    return [({"player": p, "needs": ["card"], "kind": kind}, {"card": SAMPLE_CARDS[kind]})
            for kind, players in (("item", t.seats), ("one-shot", t.seats), ("curse", t.everyone))
            for p in players]


def _level(t: _Table) -> list[Candidate]:
    return [({"player": p, "delta": d, "source": s}, {})
            for p in t.seats for d in (-1, 1) for s in LEVEL_SOURCES]


def _set_hand(t: _Table) -> list[Candidate]:
    hands = {p["id"]: p.get("hand", 0) for p in t.state["players"]}
    return [({"player": p, "count": hands[p] + d}, {}) for p in t.seats for d in (-1, 1)]


def _rename(t: _Table) -> list[Candidate]:
    names = {p["id"]: p["name"] for p in t.state["players"]}
    return [({"player": p, "needs": ["name"]}, {"name": names[p]}) for p in t.seats]


def _join(t: _Table) -> list[Candidate]:
    # Seating a player with no phone (the host's move; a phone's own seat is taken by its
    # join page, not offered here). The name is the form's: a sample no player has is checked.
    sample = f"Seat {t.state.get('next_id', 1)}"
    return [({"phone": False, "needs": ["name", "sex"]}, {"name": sample, "sex": "male"})]


def _set_variant(t: _Table) -> list[Candidate]:
    return [({"variant": v, "on": on}, {}) for v in VARIANTS for on in (True, False)]


def _lock_table(t: _Table) -> list[Candidate]:
    return [({"locked": on}, {}) for on in (True, False)]


def _discard(t: _Table) -> list[Candidate]:
    return [({"player": p, "instance": i}, {}) for p, i in t.cards()]


def _equip(t: _Table) -> list[Candidate]:
    return [({"player": p, "instance": i, "equipped": on}, {}) for p, i in t.cards() for on in (True, False)]


def _sell(t: _Table) -> list[Candidate]:
    # Besides the open sale, each card of a seat that shows gold is tried as the one item sold
    # at double price (a Halfling's, once a turn), with a level's gold from the hand beside it.
    return [({"player": p, "needs": ["instances", "hand_gold"]}, {"hand_gold": SAMPLE_HAND_GOLD})
            for p in t.seats] + \
        [({"player": p, "instances": [i], "doubled": i, "needs": ["hand_gold"]},
          {"hand_gold": SAMPLE_HAND_GOLD}) for p, i in t.cards(lambda c: c.get("gold"))]


def _give(t: _Table) -> list[Candidate]:
    return [({"player": p, "instance": i, "to": to}, {})
            for p, i in t.cards() for to in t.everyone if to != p]


def _one_shot(t: _Table) -> list[Candidate]:
    # A one-shot from the hand (the card the player brings), or one lying on the table.
    from_hand = _with_card("one_shot", lambda t: ({"side": side} for side in SIDES))(t)
    if t.card is not None:
        return from_hand
    return from_hand + [({"side": side, "player": p, "instance": i}, {})
                        for p, i in t.cards(lambda c: c.get("kind") == "one-shot") for side in SIDES]


def _computed_monsters(t: _Table) -> int:
    # Computed monsters: the stored ones, then a Mate's copy each (as many as enhancers at
    # most); an index past the end is simply refused.
    return len(t.monsters) + sum(len(m.get("enhancers") or ()) for m in t.monsters)


def _run_away(t: _Table) -> list[Candidate]:
    return [({"player": p, "monster": i}, {}) for p in t.seats for i in range(_computed_monsters(t))]


def _remove_monster(t: _Table) -> list[Candidate]:
    # a monster and its Mate leave one at a time
    return [({"monster": i}, {}) for i in range(_computed_monsters(t))]


def _confirm_bad_stuff(t: _Table) -> list[Candidate]:
    return [({"player": p["id"], "pending": note["id"]}, {}) for p in t.state["players"]
            if p["id"] in t.seats for note in p.get("pending_bad_stuff") or ()]


def _offer(t: _Table) -> list[Candidate]:
    return [({"to": p, "needs": ["treasures", "items", "pick_first"]}, {"treasures": SAMPLE_TREASURES})
            for p in t.everyone]


def _use_power(t: _Table) -> list[Candidate]:
    # The powers each seat's race and class cards give (engine/powers.py lists them), at the
    # other players, items and monsters they may name; a Mate's copy is a monster to run from.
    count = len(t.monsters) + sum(len(m.get("enhancers") or ()) for m in t.monsters)
    return [c for p in t.seats for c in powers.candidates(t.state, p, monsters=count)]


def _add_house_card(t: _Table) -> list[Candidate]:
    return [({"needs": ["card"]}, {"card": SAMPLE_HOUSE_CARD})]


def _import_house_cards(t: _Table) -> list[Candidate]:
    return [({"needs": ["cards"]}, {"cards": [SAMPLE_HOUSE_CARD]})]


def _loot(t: _Table) -> list[Candidate]:
    # Each seat against each open body: an unseen card of its hand, or each card it had in play.
    return [({"player": p, "body": b["player"], **pick}, {})
            for b in t.state.get("bodies") or () for p in t.seats
            for pick in ({"from_hand": True}, *({"instance": e["iid"]} for e in b["cards"]))]


def _end_looting(t: _Table) -> list[Candidate]:
    return [({"body": b["player"]}, {}) for b in t.state.get("bodies") or ()]


def _remove_house_card(t: _Table) -> list[Candidate]:
    return [({"card": card["id"]}, {}) for card in t.state.get("house_cards") or ()]


_BUILDERS: dict[str, Callable[[_Table], list[Candidate]]] = {
    # the table
    "level": _level,
    "gear": _for("seats", {"delta": -1}, {"delta": 1}),
    "set_sex": _for("seats", *({"sex": s} for s in SEXES)),
    "set_turn": _for("everyone"),
    "end_turn": _for("seats"),
    "set_hand": _set_hand,
    "set_variant": _set_variant,
    "rename": _rename,
    "set_winning_level": lambda t: [({"level": level}, {}) for level in WINNING_LEVELS],
    "join": _join,
    "remove_player": _for("everyone"),
    "lock_table": _lock_table,
    # the character sheet
    "play": _play,
    "discard": _discard,
    "equip": _equip,
    "sell": _sell,
    "give": _give,
    "die": _for("seats"),
    "draw": _for("seats"),
    "loot": _loot,
    "end_looting": _end_looting,
    # fights
    "fight": _with_card("fight", lambda t: ({"player": p} for p in t.seats)),
    "add_monster": _with_card("add_monster", lambda t: ({},)),
    "enhance": _with_card("enhance", lambda t: ({"monster": i} for i in range(len(t.monsters)))),
    "remove_monster": _remove_monster,
    "one_shot": _one_shot,
    # Help of one's own will and help a card forces, listed apart (a volunteer whose offer
    # waits may still be forced in by a card).
    "help": lambda t: [({"player": p, "forced": f}, {}) for p in t.everyone for f in (False, True)],
    "chase_away": lambda t: [({"player": p, "monster": i}, {}) for p in t.seats
                             for i in range(len(t.monsters))],
    "accept_help": lambda t: [({"player": v}, {}) for v in t.fight.get("volunteers") or ()],
    "decline_help": lambda t: [({"player": v}, {}) for v in t.fight.get("volunteers") or ()],
    "stop_helping": _no_params,
    "resolve": _no_params,
    "run_away": _run_away,
    "sacrifice_ally": _for("seats", {}, {"helper_too": True}),
    "close_fight": _no_params,
    "confirm_bad_stuff": _confirm_bad_stuff,
    # help and bribes
    "offer": _offer,
    "accept_offer": _for("seats"),
    "decline_offer": _for("seats"),
    # race and class powers
    "use_power": _use_power,
    # house cards
    "add_house_card": _add_house_card,
    "import_house_cards": _import_house_cards,
    "remove_house_card": _remove_house_card,
}
