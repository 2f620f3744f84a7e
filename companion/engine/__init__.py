"""The rules engine: plain Python, no Flask, no database.

``apply(state, action, actor)`` returns the new state and a history line, or raises
``BadAction`` (malformed), ``Forbidden`` (not your seat) or ``RuleViolation`` (the rules
say no; carries the rule id, our sentence and the edition's citation).
"""

from .actions import REDUCERS, Actor, apply, check
from .errors import BadAction, EngineError, Forbidden, RuleViolation
from .state import add_player, new_game, public_state

__all__ = ["REDUCERS", "Actor", "apply", "check", "BadAction", "EngineError", "Forbidden",
           "RuleViolation", "add_player", "new_game", "public_state"]
