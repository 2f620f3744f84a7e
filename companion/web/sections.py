"""Parts of the game page kept once rendered, and reused while what they show is the same.

A tap changes one player; the other five phones at the table fetch their page again, and
their own sheet (the biggest part of it) usually comes out exactly as before. A section is
rendered from inputs given to it by name, nothing else (a read of anything else is an error,
not a silent blank), and the engine's answers it asked for (``can``, ``may_try``,
``receivers``) are recorded as it renders. The next time, the same inputs and the same
answers to the same questions give the same HTML, so it is reused; the answers are asked
again, which is cheap (each is one action's check, ``engine.actions.checks_of``).

``COMPANION_KEEP_SECTIONS = False`` (app config) renders every section afresh: the tests
compare both ways.

The CSRF token is not an input: the section is rendered with a placeholder, which the
request's own token replaces each time.
"""

from __future__ import annotations

from typing import Any, Callable

from flask import current_app, render_template
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from . import shared

KEPT = 1024  # sections per process: one per (game, seat, sheet shown, language)
CSRF_PLACEHOLDER = "csrf-placeholder-7f3a"
QUESTIONS = ("can", "may_try", "receivers", "power_moves", "refusal")  # the engine's answers a section may ask for


class SectionInputError(RuntimeError):
    """A section read an input it was not given (add it to the section's inputs)."""


class Only(dict):
    """The part of a record a section is given: reading any other field is an error."""

    def __getitem__(self, key):
        if not dict.__contains__(self, key):
            raise SectionInputError(f"a section read {key!r}, which it was not given")
        return dict.__getitem__(self, key)

    def __getattr__(self, key):
        if key.startswith("__"):
            raise AttributeError(key)
        return self[key]


class _Asked:
    """One of the engine's answers, recording each question and its answer."""

    def __init__(self, name: str, answer: Callable, log: list):
        self.name, self.answer, self.log = name, answer, log

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        found = self.answer(*args, **kwargs)
        self.log.append((self.name, args, tuple(kwargs.items()), found))
        return found


def render(template: str, key: tuple, inputs: dict, questions: dict) -> Markup:
    """``template`` rendered with ``inputs`` and ``questions`` (the engine's answers), or the
    HTML kept under ``key`` when the inputs are equal and every question kept gets the same
    answer now (asked again: a check is cheap)."""
    return Markup(_kept(template, key, inputs, questions).replace(CSRF_PLACEHOLDER, generate_csrf()))


def _kept(template: str, key: tuple, inputs: dict, questions: dict) -> str:
    """``render``'s HTML with the CSRF placeholder still in it (so that a section kept inside
    another is the same input to it at every request)."""
    cache, key = shared.app_cache("companion_sections", KEPT), (template, str(get_locale()), *key)
    kept = cache.get(key) if current_app.config.get("COMPANION_KEEP_SECTIONS", True) else None
    if kept is not None:
        kept_inputs, asked, html = kept
        if kept_inputs == inputs and all(questions[name](*args, **dict(kwargs)) == answer
                                         for name, args, kwargs, answer in asked):
            return html
    asked: list = []
    context = {**inputs, **{name: _Asked(name, answer, asked) for name, answer in questions.items()}}
    html = render_template(template, csrf_token=lambda: CSRF_PLACEHOLDER, **context)
    cache.put(key, (inputs, asked, html))
    return html


# What the cards in front of a player show of them (``_cards_in_play.html``): not their level,
# gear bonus or strength, which change at most taps and are the sheet's own.
CARDS_IN_PLAY_FIELDS = ("id", "name", "sex", "cards", "items", "hand", "hand_limit", "races",
                        "big_allowed", "big_over", "big_carried", "double_sale", "curses", "allies")


def sheet(context: dict) -> Markup:
    """The sheet of the player this phone shows (``_sheet.html``), with the cards in front of
    them (``_cards_in_play.html``, the sheet's costliest part) kept apart: a level or gear tap
    renders the sheet's top again, not every card's controls."""
    state, player = context["state"], context["player"]
    names = Only(code=state["code"], players=[Only(id=p["id"], name=p["name"]) for p in state["players"]])
    questions = {name: context[name] for name in QUESTIONS}
    key = (state["code"], context["actor"], context["focus"])
    cards_in_play = _kept("_cards_in_play.html", key, {
        "player": Only({field: player[field] for field in CARDS_IN_PLAY_FIELDS}),
        "me": context["me"], "focus": context["focus"], "state": names,
        "players": Only(),  # the macros' names of players: these cards name none
        "race_cards": context["race_cards"], "class_cards": context["class_cards"],
        "special_cards": context["special_cards"],
    }, questions)
    inputs = {
        "player": player, "me": context["me"], "focus": context["focus"], "state": names,
        "players": Only(),  # the macros' names of players: the sheet names only its own
        "cards_in_play": Markup(cards_in_play),
    }
    return render("_sheet.html", key, inputs, questions)


def powers(context: dict) -> Markup:
    """The race and class powers of the player this phone shows (``_powers.html``): their
    names and cards, the players they may name and the fight's monsters, nothing else."""
    state, player = context["state"], context["player"]
    fight = state.get("combat")
    inputs = {
        "player": None if player is None else Only(id=player["id"], powers=player.get("powers"),
                                                   hand=player.get("hand")),
        "me": context["me"], "focus": context["focus"],
        "state": Only(code=state["code"], powers=state["powers"],
                      combat=None if not fight else Only(monsters=[Only(name=m.get("name"))
                                                                   for m in fight.get("monsters") or ()])),
        "players": Only({pid: Only(name=p["name"], cards=[Only(iid=e["iid"], card=Only(name=e["card"].get("name")))
                                                          for e in p.get("cards") or ()])
                         for pid, p in context["players"].items()}),
    }
    key = (state["code"], context["actor"], context["focus"])
    return render("_powers.html", key, inputs, {name: context[name] for name in QUESTIONS})
