"""The rules engine: plain Python, no Flask, no database.

``apply(state, action, actor)`` returns the new state and the event it produced (data:
``{"kind": ..., params}``, see ``words.py``), or raises ``BadAction`` (malformed),
``Forbidden`` (not your seat) or ``RuleViolation`` (the rules say no; carries the rule id, what
in this game broke it as a said, and the edition's citation). The engine writes no English:
the web layer puts events and saids into words in the reader's language.
``parse_action(data)`` turns a dict into its typed action (``action_models``), or raises
``BadAction`` naming the field; ``action_json_schema()`` is every action as a JSON Schema.
``allowed(state, actor)`` lists the actions a seat may take now (``allowed.py``).
The engine reads no card files: it asks for card facts through its own interface
(``cards.py``), which whoever puts the app together supplies (``companion/__init__.py``).
"""

from . import cards
from .action_models import ACTION_TYPES, Action, ActionModel, action_json_schema, parse_action
from .actions import REDUCERS, Actor, apply, check
from .allowed import allowed
from .errors import BadAction, EngineError, Forbidden, RuleViolation, TableLocked
from .public import public_state
from .state import add_player, new_game

__all__ = ["REDUCERS", "Actor", "allowed", "apply", "cards", "check", "BadAction", "EngineError", "Forbidden",
           "RuleViolation", "TableLocked", "add_player", "new_game", "public_state",
           "ACTION_TYPES", "Action", "ActionModel", "action_json_schema", "parse_action"]
