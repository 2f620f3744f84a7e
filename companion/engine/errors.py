"""What the engine raises when it will not apply an action.

Each error carries what to say as data (a said: an English msgid and its parameters, see
``words.py``), so the web layer can say it in the asker's language; ``message`` is the English
rendering, for logs and tests. A ``RuleViolation`` names a rule id of the rules base: the
rule's sentence and the citation for the game's edition come from there
(``companion.engine.rulebook``), so a refusal reads the same on a phone, in the JSON API and in
the arbiter. ``status`` is the HTTP status, kept here so the web layer maps errors in one place.
"""

from __future__ import annotations

from typing import Any

from .words import N_, render, said


def _said(message: str | dict, params: dict) -> dict:
    return message if isinstance(message, dict) else said(message, **params)


class EngineError(Exception):
    """Base class: the action was not applied and the state is unchanged.

    Its English words (``message``, and a ``RuleViolation``'s ``detail``) are rendered when
    first read: ``allowed`` refuses hundreds of candidates a page never words."""

    status = 400
    said: dict | None = None
    _message: str | None = None

    @property
    def message(self) -> str:
        if self._message is None:
            self._message = render(self.said) if self.said else ""
        return self._message

    @message.setter
    def message(self, value: str) -> None:
        self._message = value

    def __str__(self) -> str:
        return self.message


class BadAction(EngineError):
    """The action is malformed: unknown type, missing or ill-typed field (HTTP 400)."""

    def __init__(self, message: str | dict, **params: Any):
        self.said = _said(message, params)
        super().__init__()


class Forbidden(EngineError):
    """The actor may not act for this player (HTTP 403)."""

    status = 403

    def __init__(self, message: str | dict = N_("That seat is not yours."), **params: Any):
        self.said = _said(message, params)
        super().__init__()


class RuleViolation(EngineError):
    """The rules forbid the action (HTTP 422).

    ``rule`` is a rule id of the rules base; ``detail`` says what in this game broke it, as a
    msgid with ``params`` ("%(name)s already has two races"). ``message`` (English) and
    ``citation`` are filled in for the game's edition by ``rulebook.fill`` before the refusal
    leaves the engine (None until then); ``edition`` is kept so the web layer can say it in
    another language.
    """

    status = 422

    def __init__(self, rule: str, detail: str | dict | None = None, **params: Any):
        self.rule = rule
        self.detail_said = _said(detail, params) if detail is not None else None
        self.said = self.detail_said
        self._detail: str | None = None
        self.citation: str | None = None
        self.edition: str | None = None
        self.official_updates = False  # the table follows the official rulings (rulebook.fill)
        super().__init__(rule)

    @property
    def message(self) -> str | None:
        return self._message

    @message.setter
    def message(self, value: str | None) -> None:
        self._message = value

    @property
    def detail(self) -> str | None:
        if self._detail is None and self.detail_said:
            self._detail = render(self.detail_said)
        return self._detail

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail or ''}"

    @property
    def params(self) -> dict:
        return {k: v for k, v in (self.detail_said or {}).items() if k not in ("said", "plural")}

    def as_dict(self) -> dict:
        return {"message": self.message or self.detail or self.rule, "rule": self.rule,
                "citation": self.citation or "", "detail": self.detail, "params": self.params}


class TableLocked(Forbidden):
    """The host has locked the table against new joins (HTTP 403)."""

    def __init__(self):
        super().__init__(N_("This table is locked: the host is not letting anyone else join. "
                            "Ask the host to unlock it."))


class TooLarge(BadAction):
    """The change would make the game hold more than a game may (HTTP 413)."""

    status = 413


class TooFarBack(BadAction):
    """Undo reached a change whose patch was compacted: too old to take back (HTTP 409)."""

    status = 409
