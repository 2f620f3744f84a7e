"""The action vocabulary: one reducer per action ``type``, registered by domain.

``apply(state, action, actor)`` is the way a game changes (taking a seat included: ``join``);
its one counterpart is ``undo.take_back``, which pops the latest change. It works on a copy, so
a refused action (BadAction, Forbidden, RuleViolation) leaves the caller's state untouched.
Each reducer takes the parsed action (an ``action_models`` model), changes the copy in place
and returns what happened as data (an event, see ``words.py``), which the web layer puts into
words in the reader's language.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from . import cards, reducers, rulebook  # noqa: F401  (importing reducers registers them)
from . import monster_conditions
from .action_models import parse_action
from .cards import CardResolver
from .core import AFTER_WIN, CHECKS, REDUCERS, STRANGERS_MAY, Actor, Context
from .errors import BadAction, Forbidden, RuleViolation
from .frozen import copy_state
from .rules import TableRules
from .state import name_of
from .words import N_

__all__ = ["Actor", "GAME_OVER", "REDUCERS", "apply", "check", "checks_of", "verdict"]

GAME_OVER = "game-over"  # the rule that refuses all but the after-win actions once someone won


def apply(state: dict, action: Any, actor: Actor, *, resolve: CardResolver | None = None,
          rng: random.Random | None = None) -> tuple[dict, dict]:
    """Apply one action to a copy of ``state``; return (new state, event).

    The event is data (``words.py``): ``words.render(event)`` is its history line in English,
    the web layer says it in the reader's language.

    ``resolve`` turns a card spec into a card (``cards.CardResolver``); without one, the card
    facts supplied to the engine do (``cards.resolve``).

    ``action`` is a dict (JSON from the API, or what a form becomes) or an action model; it
    is parsed once, here (``action_models.parse_action``), so a malformed one is a
    ``BadAction`` naming the field, and the reducer gets the model itself: its types, bounds
    and choices are checked, what is left to the reducer are the rules of the game.

    The action's check (``core.CHECKS``) runs first, on ``state`` itself (read only): every
    refusal comes from there, and the reducer only changes the copy.
    """
    action, ctx = _prepare(state, action, actor, resolve, rng)
    kind = action.type
    try:
        _refuse(state, action, actor, ctx)
        new = copy_state(state)
        happened = REDUCERS[kind](new, action, actor, ctx)
        # Conditions on the monsters act on their own once the fight has changed.
        happened = monster_conditions.after_action(new, happened, ctx)
    except RuleViolation as violation:
        raise rulebook.fill(violation, ctx.rules)
    return new, happened


def verdict(state: dict, action: Any, actor: Actor, *, resolve: CardResolver | None = None,
            rng: random.Random | None = None) -> None:
    """Raise the refusal ``apply`` would raise, or return None: the check alone, no copy and no
    change (python-chess's ``is_legal``). Many checks on one state: ``checks_of``."""
    action, ctx = _prepare(state, action, actor, resolve, rng)
    try:
        _refuse(state, action, actor, ctx)
    except RuleViolation as violation:
        raise rulebook.fill(violation, ctx.rules)


def checks_of(state: dict, actor: Actor, *, resolve: CardResolver | None = None,
              rng: random.Random | None = None) -> Callable[[Any], None]:
    """``check(action)``: ``verdict`` for many actions of one actor on one state that nobody
    changes meanwhile (``allowed``'s candidates). They share one context (the table's rules, the
    card resolver, ``memo``), made once; a refusal carries its rule id and detail, not its
    sentence and citation (``rulebook.fill`` words a refusal for a reader: ``verdict`` does)."""
    ctx = Context(rules=TableRules.of(state), resolve=resolve or cards.resolve,
                  rng=rng or random.Random(), memo={})

    def check(action: Any) -> None:
        parsed = _parse(action, actor)
        _refuse(state, parsed, actor, ctx)
    return check


def _parse(action: Any, actor: Actor) -> Any:
    """The parsed action; refuses an unknown type and a stranger's move."""
    action = parse_action(action)
    kind = action.type
    if kind not in REDUCERS:
        raise BadAction(N_("Unknown action type %(type)s."), type=repr(kind)[:60])
    if not actor.seated and kind not in STRANGERS_MAY:
        raise Forbidden(N_("Join the game first: only seated players and the host can act."))
    return action


def _prepare(state: dict, action: Any, actor: Actor, resolve: CardResolver | None,
             rng: random.Random | None) -> tuple[Any, Context]:
    """The parsed action and its context; refuses an unknown type and a stranger's move."""
    action = _parse(action, actor)
    ctx = Context(rules=TableRules.of(state), resolve=resolve or cards.resolve,
                  rng=rng or random.Random())
    return action, ctx


def _refuse(state: dict, action: Any, actor: Actor, ctx: Context) -> None:
    """Every refusal of an action before anything changes: the game is over, then its check."""
    if state["winners"] and action.type not in AFTER_WIN:
        names = ", ".join(name_of(state, w) for w in state["winners"])
        raise RuleViolation(GAME_OVER, N_("%(names)s already won"), names=names,
                            players=list(state["winners"]))
    CHECKS[action.type](state, action, actor, ctx)


def check(state: dict, action: Any, actor: Actor, **kwargs) -> dict:
    """The verdict ``apply`` would give, without changing anything (the arbiter's check)."""
    try:
        verdict(state, action, actor, **kwargs)
    except RuleViolation as v:
        return {"allowed": False, **v.as_dict()}
    # The verdict's words are English here, like a refusal's ``message``; the web layer says
    # them in the asker's language.
    return {"allowed": True, "message": N_("Allowed."), "rule": None, "citation": None}
