"""What the engine raises when it will not apply an action.

The engine raises these with a rule id only; the sentence and the citation for the game's
edition come from the rules base (``companion.engine.rulebook.explain``), so every refusal
reads the same on a phone, in the JSON API and in the arbiter.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class: the action was not applied and the state is unchanged.

    ``status`` is the HTTP status the web layer answers with (one mapping, kept here).
    """

    status = 400
    message: str = ""


class BadAction(EngineError):
    """The action is malformed: unknown type, missing or ill-typed field (HTTP 400)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Forbidden(EngineError):
    """The actor may not act for this player (HTTP 403)."""

    status = 403

    def __init__(self, message: str = "That seat is not yours."):
        super().__init__(message)
        self.message = message


class RuleViolation(EngineError):
    """The rules forbid the action (HTTP 422).

    ``rule`` is a rule id of the rules base; ``detail`` says what in this game broke it
    ("Ann already has two races"). ``message`` and ``citation`` are filled in for the game's
    edition by ``rulebook.explain`` before the refusal leaves the engine.
    """

    status = 422

    def __init__(self, rule: str, detail: str | None = None):
        super().__init__(f"{rule}: {detail or ''}")
        self.rule = rule
        self.detail = detail
        self.message: str | None = None
        self.citation: str | None = None

    def as_dict(self) -> dict:
        return {"message": self.message or self.detail or self.rule, "rule": self.rule,
                "citation": self.citation or "", "detail": self.detail}


class TableLocked(Forbidden):
    """The host has locked the table against new joins (HTTP 403)."""

    def __init__(self):
        super().__init__("This table is locked: the host is not letting anyone else join. "
                         "Ask the host to unlock it.")


class TooLarge(BadAction):
    """The change would make the game hold more than a game may (HTTP 413)."""

    status = 413
