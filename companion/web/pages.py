"""The htmx pages. They post the same actions as the JSON API and render what the engine
computed; a phone's seat lives in a long-lived cookie so a reload or a closed tab brings the
player back to the same seat."""

from __future__ import annotations

import functools

from flask import (Blueprint, g, make_response, redirect, render_template,
                   request, url_for)

from flask_babel import gettext

from companion import engine
from companion.engine import Actor, EngineError, Forbidden
from companion.engine.editions import EDITIONS
from companion.engine.words import N_

from .common import action_from_form, join_url, normal_code, qr_svg, store
from .words import error_message

from . import words  # words in the asker's language

bp = Blueprint("pages", __name__)

YEAR = 365 * 24 * 3600


def _cookie(response, name: str, value: str) -> None:
    from .security import cookies_secure

    response.set_cookie(name, value, max_age=YEAR, httponly=True, samesite="Lax",
                        secure=cookies_secure())


def _actor(code: str) -> tuple[Actor, int | None]:
    """The host cookie acts as host; the seat cookie is the phone's own player. Loaded once
    per request and kept on ``g`` (flaskr's ``g.user`` habit)."""
    if g.get("actor_code") != code:
        the_store = store()
        seat = the_store.actor_for(code, request.cookies.get(f"seat_{code}"))
        host = the_store.actor_for(code, request.cookies.get(f"host_{code}"))
        g.actor_code = code
        g.actor = (Actor(host=True), seat.player) if host.host else (seat, seat.player)
    return g.actor


def _is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _vary(response):
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


@bp.get("/")
def home():
    last = request.cookies.get("last_game")
    return render_template("home.html", editions=EDITIONS.values(), last_game=last)


@bp.post("/games")
def create_game():
    edition = request.form.get("edition", "classic")
    state, host_token = store().create_game(edition)
    code = state["code"]
    response = redirect(url_for("pages.host", code=code), 303)
    _cookie(response, f"host_{code}", host_token)
    _cookie(response, "last_game", code)
    return response


@bp.post("/go")
def go_to_game():
    code = normal_code(request.form.get("code", "").strip())
    return redirect(url_for("pages.join", code=code), 303)


@bp.get("/games/<code>/host")
def host(code):
    code = normal_code(code)
    actor, _ = _actor(code)
    state = store().load(code)
    url = join_url(code)
    variant_names = {"shared_victory": gettext("Shared victory"),
                     "listen_at_the_door": gettext("Listen At The Door"), "faster_play": gettext("Faster play")}
    return _vary(make_response(render_template(
        "host.html", state=words.public_state(state), join_url=url, qr=qr_svg(url),
        variant_names=variant_names, may_add_players=actor.host,  # as add_player below checks
        **_allowed_context(state, actor))))


def _allowed_context(state: dict, actor: Actor, **kwargs) -> dict:
    """What this phone may do, for the templates (they decide nothing themselves):
    ``allowed`` and ``refused`` (engine.allowed.options), ``can(type, **params)`` (listed
    in allowed) and ``may_try(type, **params)`` (allowed, or refused by a rule the page
    explains when pressed)."""
    from companion.engine.allowed import lists, options

    allowed, refused = options(state, actor, **kwargs)
    return {"allowed": allowed, "refused": refused,
            "can": functools.partial(lists, allowed),
            "may_try": lambda action_type, /, **params: (lists(allowed, action_type, **params)
                                                         or lists(refused, action_type, **params))}


@bp.route("/join/<code>", methods=["GET", "POST"])
def join(code):
    code = normal_code(code)
    the_store = store()
    state = the_store.load(code)
    actor, me = _actor(code)
    if request.method == "GET":
        if me is not None:
            return redirect(url_for("pages.game", code=code), 303)
        return render_template("join.html", state=state, error=None)
    name, sex = request.form.get("name"), request.form.get("sex")
    try:
        new, pid, token = the_store.join(code, name, sex, actor=actor)
    except EngineError as exc:  # the form again, with what was wrong (a locked table too)
        return render_template("join.html", state=state, error=error_message(exc), name=name,
                               citation=getattr(exc, "citation", None), rule=getattr(exc, "rule", None)), exc.status
    response = redirect(url_for("pages.game", code=code), 303)
    _cookie(response, f"seat_{code}", token)
    _cookie(response, "last_game", code)
    return response


@bp.post("/games/<code>/players")
def add_player(code):
    """The host seats a player who has no phone and plays for them."""
    code = normal_code(code)
    actor, _ = _actor(code)
    if not actor.host:
        raise Forbidden(N_("Only the host adds a player who has no phone."))
    store().join(code, request.form.get("name"), request.form.get("sex"), phone=False, actor=actor)
    return redirect(_local(request.form.get("next")) or url_for("pages.host", code=code), 303)


def _view_context(code: str, focus: int | None = None) -> dict:
    actor, me = _actor(code)
    stored = store().load(code)
    state = words.public_state(stored)
    players = {p["id"]: p for p in state["players"]}
    # The sheets this phone may open: the seats the engine lets it act for.
    sheets = [pid for pid in players if actor.may_act_for(pid)]
    if focus not in sheets:
        focus = me if me in players else (sheets[0] if sheets else None)
    return {"state": state, "actor": actor, "me": me, "focus": focus, "sheets": sheets,
            "player": players.get(focus), "players": players, **_edition_cards(state["edition"]),
            **_allowed_context(stored, actor)}


@functools.lru_cache(maxsize=None)  # the catalog is fixed while the server runs: once per edition
def _edition_cards(edition: str) -> dict:
    """The race, class, Half-Breed and Super Munchkin cards offered on the sheet."""
    from companion.catalog import load_catalog

    catalog = load_catalog()
    return {
        "race_cards": catalog.search(None, set=edition, kind="race"),
        "class_cards": catalog.search(None, set=edition, kind="class"),
        "special_cards": catalog.search(None, set=edition, kind="half-breed")
        + catalog.search(None, set=edition, kind="super-munchkin"),
    }


@bp.get("/games/<code>")
def game(code):
    code = normal_code(code)
    context = _view_context(code, request.args.get("player", type=int))
    if context["me"] is None and not context["actor"].host:
        return redirect(url_for("pages.join", code=code), 303)
    response = make_response(render_template("game.html", **context))
    _cookie(response, "last_game", code)
    return _vary(response)


@bp.get("/games/<code>/live")
def live(code):
    """The part of the game page that changes: re-fetched on every doorbell."""
    code = normal_code(code)
    context = _view_context(code, request.args.get("player", type=int))
    return _vary(make_response(render_template("_live.html", **context)))


@bp.get("/games/<code>/table")
def table(code):
    """A big-type view of everyone for a shared screen (TV, laptop)."""
    code = normal_code(code)
    state = words.public_state(store().load(code))
    if _is_htmx():
        return _vary(make_response(render_template("_table_big.html", state=state)))
    return _vary(make_response(render_template("table.html", state=state)))


def _local(url: str | None) -> str | None:
    """Only same-site paths are followed after a form post (no open redirects)."""
    from .security import safe_next

    return safe_next(url)


def _after_change(code: str):
    focus = request.form.get("_focus", type=int)
    if _is_htmx():
        context = _view_context(code, focus)
        response = make_response(render_template("_live.html", **context))
        response.headers["HX-Trigger"] = "clear-notice"
        return _vary(response)
    target = _local(request.form.get("next")) or url_for("pages.game", code=code, player=focus)
    return redirect(target, 303)


@bp.post("/games/<code>/act")
def act(code):
    code = normal_code(code)
    actor, _ = _actor(code)
    # A refusal becomes a notice in place (htmx) or the error page, in companion/web/errors.py.
    store().apply(code, action_from_form(request.form), actor)
    return _after_change(code)


@bp.post("/games/<code>/undo")
def undo(code):
    code = normal_code(code)
    actor, _ = _actor(code)
    store().undo(code, actor)
    return _after_change(code)


@bp.get("/games/<code>/history")
def history(code):
    code = normal_code(code)
    state = store().load(code)
    names = {p["id"]: p["name"] for p in state["players"]}
    return render_template("history.html", state=state, events=store().history(code), names=names)
