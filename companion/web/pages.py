"""The htmx pages. They post the same actions as the JSON API and render what the engine
computed; a phone's seat lives in a long-lived cookie so a reload or a closed tab brings the
player back to the same seat."""

from __future__ import annotations

import functools

from flask import (Blueprint, abort, make_response, redirect, render_template,
                   request, url_for)

from flask_babel import gettext

from companion import engine
from companion.engine import Actor, BadAction, Forbidden, RuleViolation
from companion.engine.editions import EDITIONS
from companion.store import Busy, NotFound

from .common import action_from_form, join_url, normal_code, qr_svg, store

bp = Blueprint("pages", __name__)

YEAR = 365 * 24 * 3600


def _cookie(response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=YEAR, httponly=True, samesite="Lax",
                        secure=request.is_secure)


def _actor(code: str) -> tuple[Actor, int | None]:
    """The host cookie acts as host; the seat cookie is the phone's own player."""
    the_store = store()
    seat = the_store.actor_for(code, request.cookies.get(f"seat_{code}"))
    host = the_store.actor_for(code, request.cookies.get(f"host_{code}"))
    if host.host:
        return Actor(host=True), seat.player
    return seat, seat.player


def _is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _vary(response):
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


@bp.errorhandler(NotFound)
def _no_game(exc):
    return render_template("error.html", message=f"There is no game {exc.args[0]}. Check the code.",
                           status=404), 404


@bp.get("/")
def home():
    last = request.cookies.get("last_game")
    return render_template("home.html", editions=EDITIONS.values(), last_game=last)


@bp.post("/games")
def create_game():
    edition = request.form.get("edition", "classic")
    try:
        state, host_token = store().create_game(edition)
    except BadAction as exc:
        return render_template("error.html", message=exc.message, status=400), 400
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
        "host.html", state=engine.public_state(state), join_url=url, qr=qr_svg(url),
        is_host=actor.host, variant_names=variant_names)))


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
    except RuleViolation as exc:
        return render_template("join.html", state=state, error=exc.message, citation=exc.citation,
                               rule=exc.rule, name=name), 422
    except BadAction as exc:
        return render_template("join.html", state=state, error=exc.message, name=name), 400
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
        abort(403)
    try:
        store().join(code, request.form.get("name"), request.form.get("sex"), phone=False, actor=actor)
    except RuleViolation as exc:
        return _notice(code, exc.message, status=422, rule=exc.rule, citation=exc.citation)
    except BadAction as exc:
        return _notice(code, exc.message, status=400)
    return redirect(_local(request.form.get("next")) or url_for("pages.host", code=code), 303)


def _view_context(code: str, focus: int | None = None) -> dict:
    actor, me = _actor(code)
    state = engine.public_state(store().load(code))
    players = {p["id"]: p for p in state["players"]}
    if focus not in players or not (actor.host or focus == me):
        focus = me if me in players else None
    if focus is None and actor.host and state["players"]:
        focus = state["players"][0]["id"]
    return {"state": state, "actor": actor, "me": me, "focus": focus,
            "player": players.get(focus), "players": players, **_edition_cards(state["edition"])}


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
    state = engine.public_state(store().load(code))
    if _is_htmx():
        return _vary(make_response(render_template("_table_big.html", state=state)))
    return _vary(make_response(render_template("table.html", state=state)))


def _notice(code: str, message: str, *, status: int, rule: str | None = None,
            citation: str | None = None):
    if _is_htmx():
        response = make_response(render_template("_notice.html", message=message, rule=rule,
                                                 citation=citation), status)
        response.headers["HX-Retarget"] = "#notice"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return make_response(render_template("error.html", message=message, rule=rule,
                                         citation=citation, status=status, code=code), status)


def _local(url: str | None) -> str | None:
    """Only same-site paths are followed after a form post (no open redirects)."""
    return url if url and url.startswith("/") and not url.startswith("//") else None


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
    action = action_from_form(request.form)
    try:
        store().apply(code, action, actor)
    except RuleViolation as exc:
        return _notice(code, exc.message, status=422, rule=exc.rule, citation=exc.citation)
    except (BadAction, Forbidden) as exc:
        return _notice(code, exc.message, status=403 if isinstance(exc, Forbidden) else 400)
    except Busy as exc:
        return _notice(code, str(exc), status=503)
    return _after_change(code)


@bp.post("/games/<code>/undo")
def undo(code):
    code = normal_code(code)
    actor, _ = _actor(code)
    try:
        store().undo(code, actor)
    except (BadAction, Forbidden) as exc:
        return _notice(code, exc.message, status=400 if isinstance(exc, BadAction) else 403)
    return _after_change(code)


@bp.get("/games/<code>/history")
def history(code):
    code = normal_code(code)
    state = store().load(code)
    names = {p["id"]: p["name"] for p in state["players"]}
    return render_template("history.html", state=state, events=store().history(code), names=names)
