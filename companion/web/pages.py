"""The htmx pages. They post the same actions as the JSON API and render what the engine
computed; a phone's seat lives in a long-lived cookie so a reload or a closed tab brings the
player back to the same seat."""

from __future__ import annotations

import functools
import re
from urllib.parse import parse_qs, urlsplit

from flask import Blueprint, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from companion.catalog import load_catalog
from companion.engine import Actor, EngineError
from companion.engine.editions import EDITIONS
from companion.engine.reach import reach as steps_accepted
from companion.engine.state import clean_name, clean_sex
from companion.store import NotFound

from . import limits, sections, shared, table_screen
from .errors import is_htmx
from .forms import action_from_form
from .games import normal_code, store
from .invite import join_url, qr_svg
from .security import cookies_secure, safe_next
from .words import error_message

from . import words  # words in the asker's language

bp = Blueprint("pages", __name__)

YEAR = 365 * 24 * 3600


def _cookie(response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=YEAR, httponly=True, samesite="Lax",
                        secure=cookies_secure())


def _state(code: str) -> dict:
    """The game's stored state for this request: the one ``shared.cookie_actor`` read, unless
    the request changed the game since (``_changed``)."""
    return shared.request_game(code).state


def _changed() -> None:
    """This request changed its game: what is shown next is read again."""
    shared.game_changed()


def _vary(response):
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


# At most this many games are looked up for the home page's list (one read each).
REMEMBERED_MAX = 12
_SEAT_COOKIE = re.compile(r"(seat|host)_([A-Z0-9]{3,12})")


def _remembered_games(last: str | None) -> list[dict]:
    """The games this browser holds a seat or host cookie for and that still exist, the last
    one played first: its code, edition, this phone's player (name, level, dead), whether the
    game is over. Only the cookies say which; nothing else is kept for it."""
    codes = sorted({m.group(2) for name in request.cookies if (m := _SEAT_COOKIE.fullmatch(name))},
                   key=lambda code: (code != last, code))[:REMEMBERED_MAX]
    # A cookie can name any code: an address that guessed too often gets no lookups, and a
    # code that names no game is one more guess, as at /join/<code> (no oracle of live codes).
    if not codes or not limits.may_guess():
        return []
    the_store, found = store(), []
    live = the_store.existing(codes)  # one query, whatever the cookies name
    for code in codes:
        if code not in live:
            limits.count_unknown_code()
            continue
        try:
            game = the_store.read(code)
        except NotFound:  # gone since
            continue
        seat = the_store.actor(game, request.cookies.get(f"seat_{code}"))
        host = the_store.actor(game, request.cookies.get(f"host_{code}")).host
        state = game.state
        player = next((p for p in state["players"] if p["id"] == seat.player), None)
        if player is None and not host:  # the seat was given up or removed
            continue
        edition = EDITIONS.get(state["edition"])
        found.append({"code": state["code"], "edition": edition.name if edition else state["edition"],
                      "player": player and {"name": player["name"], "level": player["level"],
                                            "dead": bool(player.get("dead")), "sex": player.get("sex")},
                      "host": host, "over": bool(state.get("winners"))})
    return found


@bp.get("/")
def home():
    last = request.cookies.get("last_game")
    return _vary(make_response(render_template(
        "home.html", editions=EDITIONS.values(), last_game=last, games=_remembered_games(last))))


@bp.post("/games")
def create_game():
    """Start a game. With the host's name, also seat the host (as a join would). Either way
    land on the host page: the invite (code, QR, link) first, for the others to scan, with the
    way on to the game (the host's sheet) below it, or a seat to take there."""
    edition = request.form.get("edition", "classic")
    variants = {"official_updates": True} if request.form.get("rulings") == "official" else None
    name, sex = (request.form.get("name") or "").strip(), request.form.get("sex")
    if name:
        try:  # checked before the game exists, so a wrong form creates nothing
            clean_name(name), clean_sex(sex)
        except EngineError as exc:
            last = request.cookies.get("last_game")
            return render_template("home.html", editions=EDITIONS.values(), last_game=last,
                                   games=_remembered_games(last),
                                   error=error_message(exc), form=request.form), exc.status
    winning_level = 20 if request.form.get("winning_level") == "20" else None  # else the rulebook's
    state, host_token = store().create_game(edition, variants, winning_level=winning_level,
                                            created_by=limits.address_key())
    code = state["code"]
    seat_token = None
    if name:
        try:
            _new, _pid, seat_token = store().join(code, name, sex, actor=Actor(host=True))
        except EngineError:  # the host page then offers the seat ("Sit down at the table")
            seat_token = None
    response = redirect(url_for("pages.host", code=code), 303)
    _cookie(response, f"host_{code}", host_token)
    if seat_token:
        _cookie(response, f"seat_{code}", seat_token)
    _cookie(response, "last_game", code)
    return response


@bp.post("/go")
def go_to_game():
    code = normal_code(request.form.get("code", "").strip())
    return redirect(url_for("pages.join", code=code), 303)


@bp.get("/games/<code>/host")
def host(code):
    code = normal_code(code)
    actor, me = shared.cookie_actor(code)
    state = _state(code)
    url = join_url(code)
    public = words.public_state(state)
    return _vary(make_response(render_template(
        "host.html", state=public, join_url=url, qr=qr_svg(url),
        may_add_players=actor.host,  # as add_player below checks
        seat=next((p for p in public["players"] if p["id"] == me), None),  # None: offer a seat
        **_allowed_context(state, actor))))


def _allowed_context(state: dict, actor: Actor, **kwargs) -> dict:
    """What this phone may do, for the templates (they decide nothing themselves):
    ``allowed`` and ``refused`` (engine.allowed.options), ``can(type, **params)`` (listed
    in allowed) and ``may_try(type, **params)`` (allowed, or refused by a rule the page
    explains when pressed), ``receivers(instance)`` (who may be given that card, or is
    refused it by a rule the page explains)."""
    found = shared.options(state, actor, **kwargs)
    return {"allowed": found.allowed, "refused": found.refused, "can": found.can,
            "may_try": found.may_try, "receivers": found.receivers, "power_moves": found.power_moves,
            "refusal": found.refusal, "options": found}


@bp.route("/join/<code>", methods=["GET", "POST"])
def join(code):
    code = normal_code(code)
    actor, me = shared.cookie_actor(code)
    state = _state(code)
    if request.method == "GET":
        if me is not None:
            return redirect(url_for("pages.game", code=code), 303)
        return render_template("join.html", state=state, error=None)
    name, sex = request.form.get("name"), request.form.get("sex")
    try:
        new, pid, token = store().join(code, name, sex, actor=actor)
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
    actor, _ = shared.cookie_actor(code)  # the engine's join lets only the host seat a phoneless player
    store().join(code, request.form.get("name"), request.form.get("sex"), phone=False, actor=actor)
    return redirect(_local(request.form.get("next")) or url_for("pages.host", code=code), 303)


def _view_context(code: str, focus: int | None = None) -> dict:
    actor, me = shared.cookie_actor(code)
    stored = _state(code)
    state = words.public_state(stored)
    players = {p["id"]: p for p in state["players"]}
    # The sheets this phone may open: the seats the engine lets it act for.
    sheets = [pid for pid in players if actor.may_act_for(pid)]
    if focus not in sheets:
        focus = me if me in players else (sheets[0] if sheets else None)
    allowed = _allowed_context(stored, actor)
    context = {"state": state, "actor": actor, "me": me, "focus": focus, "sheets": sheets,
               # whose device this is, for labels only (what it may do is ``allowed``'s)
               "device_role": "host" if actor.host else "seat",
               "player": players.get(focus), "players": players, **_edition_cards(state["edition"]),
               **allowed, **_addressed_to(state, focus)}
    context["sheet"] = lambda: sections.sheet(context)  # kept while they come out the same
    context["powers"] = lambda: sections.powers(context)
    return context


# The log events after which it is someone else's turn (the "your turn" call is new then).
TURN_EVENTS = ("end_turn", "set_turn")
# The log events that say the door was kicked open this turn (a fight started).
DOOR_EVENTS = ("fight",)


def _addressed_to(state: dict, focus: int | None) -> dict:
    """What the game addresses to the player this phone shows, for the top of the page:
    ``my_turn`` and ``calls`` (an offer made to them, a help a card forced them into, their
    turn, a curse someone else played on them this turn), each a dict with ``about``, a ``key`` that changes when the call is a new one (the
    phone vibrates for a new key and remembers which ones were dismissed) and the players
    it names. The answers a call offers are the moves ``allowed`` lists (the template asks)."""
    calls: list[dict] = []
    if focus is None:
        return {"my_turn": False, "calls": calls, "others_fight": bool(state.get("combat"))}
    fight = state.get("combat")
    if fight:
        for h in fight.get("helpers") or ():
            offer = h.get("offer")
            if h["player"] == focus and offer:
                items = ".".join(map(str, offer.get("items") or ()))
                terms = f"{offer.get('treasures')}-{offer.get('pick_first')}-{items}"
                calls.append({"about": "offer", "key": f"offer-{fight['fighter']}-{focus}-{terms}",
                              "player": focus, "fighter": fight["fighter"], "offer": offer})
        # Help offered from a helper's phone waits for the fighter's yes (accept_help).
        for volunteer in fight.get("volunteers") or ():
            if focus == fight["fighter"]:
                calls.append({"about": "help_offer", "key": f"help-offer-{fight['fighter']}-{volunteer}",
                              "player": focus, "volunteer": volunteer})
            elif focus == volunteer:
                calls.append({"about": "help_waiting", "key": f"help-waiting-{fight['fighter']}-{focus}",
                              "player": focus, "fighter": fight["fighter"]})
        if fight.get("helper") == focus and fight.get("helper_forced"):
            calls.append({"about": "forced_help", "key": f"forced-{fight['fighter']}-{focus}",
                          "player": focus, "fighter": fight["fighter"]})
        elif fight.get("helper") == focus:
            # Put in the fight by someone else's tap (the fighter's, the host's): told, once.
            named = next((e for e in reversed(state.get("log", ()))
                          if (e.get("event") or {}).get("kind") == "help"
                          and (e.get("event") or {}).get("player") == focus), None)
            if named is not None and named.get("actor") != focus:
                calls.append({"about": "named_helper", "key": f"named-helper-{named.get('seq')}",
                              "player": focus, "fighter": fight["fighter"]})
        # A declined offer tells the fighter (a call they dismiss), for the fight on now, while
        # it still needs a helper: once someone helps or the fight is decided, the note goes.
        started = max((e.get("seq", 0) for e in state.get("log", ())
                       if (e.get("event") or {}).get("kind") in DOOR_EVENTS), default=0)
        still_asking = fight.get("stage") == "fighting" and fight.get("helper") is None
        for entry in (state.get("log", ()) if still_asking else ()):
            said_no = entry.get("event") or {}
            if (said_no.get("kind") == "decline_offer" and said_no.get("to") == focus == fight["fighter"]
                    and entry.get("seq", 0) > started):
                calls.append({"about": "declined", "key": f"declined-{entry.get('seq')}",
                              "player": focus, "helper": said_no.get("player")})
            # A fighter who turned help down tells the volunteer (a call they dismiss).
            if (said_no.get("kind") == "decline_help" and said_no.get("player") == focus
                    and entry.get("seq", 0) > started):
                calls.append({"about": "help_declined", "key": f"help-declined-{entry.get('seq')}",
                              "player": focus, "fighter": said_no.get("to")})
    # A curse someone else played on this player this turn, or a power used on them (a theft,
    # a backstab): what it did, said on their phone (the log line's own words), until
    # dismissed or the turn moves on.
    turn_began = max((e.get("seq", 0) for e in state.get("log", ())
                      if (e.get("event") or {}).get("kind") in TURN_EVENTS), default=0)
    undone = {(e.get("event") or {}).get("undid") for e in state.get("log", ())
              if (e.get("event") or {}).get("kind") == "undo"}
    for entry in state.get("log", ()):
        done = entry.get("event") or {}
        if entry.get("actor") == focus or entry.get("seq", 0) <= turn_began or entry.get("seq") in undone:
            continue
        if done.get("kind") == "curse" and done.get("player") == focus:
            calls.append({"about": "cursed", "key": f"cursed-{entry.get('seq')}", "player": focus,
                          "entry": entry})
        elif done.get("kind") == "power" and done.get("target") == focus and done.get("player") != focus:
            calls.append({"about": "power_on_me", "key": f"power-on-me-{entry.get('seq')}",
                          "player": focus, "entry": entry})
    my_turn = state.get("turn") == focus and not state.get("winners")
    dead = any(p["id"] == focus and p.get("dead") for p in state.get("players", ()))
    if my_turn and not fight and not dead:
        # The log keeps its latest lines only: a turn whose start has scrolled out is "old".
        log = state.get("log", ())
        since = max((e.get("seq", 0) for e in log
                     if (e.get("event") or {}).get("kind") in TURN_EVENTS), default="old")
        # "Kick open the door" until the door is kicked open: a card from the door this turn
        # (a fight, a curse, a card kept: the engine's door_opened) or a fight in the log.
        kicked = (state.get("door_opened") is not None
                  and state.get("door_opened") == state.get("turn_count", 0)) or any(
            (e.get("event") or {}).get("kind") in DOOR_EVENTS
            and (since == "old" or e.get("seq", 0) > since) for e in log)
        if not kicked:
            calls.append({"about": "turn", "key": f"turn-{focus}-{since}", "player": focus})
    # Someone else's fight on this phone (the host's, or a table screen's): its moves sit apart
    # and ask first (the moves themselves are still the ones ``allowed`` lists).
    others_fight = bool(fight) and focus not in (fight.get("fighter"), fight.get("helper"))
    return {"my_turn": my_turn, "calls": calls, "others_fight": others_fight}


@functools.lru_cache(maxsize=None)  # the catalog is fixed while the server runs: once per edition
def _edition_cards(edition: str) -> dict:
    """The race, class, Half-Breed and Super Munchkin cards offered on the sheet (the same
    for every page of an edition: templates only read them)."""
    catalog = load_catalog()
    return {
        "race_cards": catalog.search(None, set=edition, kind="race"),
        "class_cards": catalog.search(None, set=edition, kind="class"),
        "special_cards": catalog.search(None, set=edition, kind="half-breed")
        + catalog.search(None, set=edition, kind="super-munchkin"),
    }


GAME_TABS = ("me", "fight", "table")


@bp.get("/games/<code>")
def game(code):
    code = normal_code(code)
    context = _view_context(code, request.args.get("player", type=int))
    if context["me"] is None and not context["actor"].host:
        return redirect(url_for("pages.join", code=code), 303)
    # The section shown first: the one asked for, else the fight while there is one.
    tab = request.args.get("tab")
    if tab not in GAME_TABS:
        tab = "fight" if context["state"].get("combat") else "me"
    response = make_response(render_template("game.html", tab=tab, **context))
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
    """The table screen: a laptop or TV in the middle of the table (``table_screen``).
    ``?part=players`` is the players alone (the host page's arrivals)."""
    code = normal_code(code)
    if is_htmx() and request.args.get("part") == "players":
        state = words.public_state(store().load(code))
        return _vary(make_response(render_template("_table_big.html", state=state)))
    context = table_screen.table_context(code)
    # The host's device may take the last change back from the table screen too.
    context["host_device"] = shared.cookie_actor(code)[0].host
    if is_htmx():
        return _vary(make_response(render_template("_table_live.html", **context)))
    url = join_url(code)
    return _vary(make_response(render_template("table.html", join_url=url, qr=qr_svg(url), **context)))


@bp.get("/games/<code>/summary")
def summary(code):
    """The end-of-game summary: winners, kills, deals, deaths, curses, and the level race."""
    code = normal_code(code)
    return _vary(make_response(render_template("summary.html", **table_screen.summary_context(code))))


def _local(url: str | None) -> str | None:
    """Only same-site paths are followed after a form post (no open redirects)."""
    return safe_next(url)


def _after_change(code: str, done: str | None = None, undoable: bool = False):
    """The answer to a change: the live part again (htmx), with ``done`` (what the change
    did, in words) as a toast that offers to undo it when ``undoable``; else back to the page
    (to the section the form was posted from)."""
    focus = request.form.get("_focus", type=int)
    if is_htmx():
        context = _view_context(code, focus)
        response = make_response(render_template("_live.html", done=done, undoable=undoable, **context))
        response.headers["HX-Trigger"] = "clear-notice"
        return _vary(response)
    tab = parse_qs(urlsplit(request.referrer or "").query).get("tab", [None])[0]
    target = _local(request.form.get("next")) or url_for(
        "pages.game", code=code, player=focus, tab=tab if tab in GAME_TABS else None)
    return redirect(target, 303)


# Every accepted tap that changes the game says what it did and offers to undo it right there:
# a wrong tap is one tap away from undone, whatever it was.


def _counted_elsewhere(state: dict, form, actor) -> str | None:
    """What to say when a level tap was drawn from a level another device has changed since:
    the player and the host both tapping +1 for one kill would count it twice. The level
    buttons carry the level their page showed (``_seen``) and its version (``_version``); a
    change by this same device since (its own quick second tap) is not in the way. None: go on.
    Not a game rule (the engine's): a question of which tap the table meant."""
    if form.get("type") != "level":
        return None
    seen, version = form.get("_seen", type=int), form.get("_version", type=int)
    player = next((p for p in state["players"] if p["id"] == form.get("player", type=int)), None)
    if seen is None or version is None or player is None or player["level"] == seen:
        return None
    me = "host" if actor.host else actor.player
    if all(e.get("actor") == me for e in state.get("log", ()) if e.get("seq", 0) > version):
        return None
    return gettext("%(name)s's level changed on another phone meanwhile: it is %(level)s now. "
                   "Nothing was added; tap again if you meant to change it once more.",
                   name=player["name"], level=player["level"])


@bp.post("/games/<code>/act")
def act(code):
    code = normal_code(code)
    actor, _ = shared.cookie_actor(code)
    meanwhile = _counted_elsewhere(shared.request_game(code).state, request.form, actor)
    if meanwhile:
        return _meanwhile(code, meanwhile)
    action = action_from_form(request.form)
    # A refusal becomes a notice in place (htmx) or the error page, in companion/web/errors.py.
    # The game as shared.cookie_actor read it is tried first (the write's version check
    # catches a newer one).
    _new, happened = store().apply_event(code, action, actor, read=shared.request_game(code))
    _changed()
    return _after_change(code, done=words.text(happened), undoable=True)


def _meanwhile(code: str, message: str):
    """A tap not sent on (``_counted_elsewhere``): a notice on the page (htmx), which the live
    update has brought up to date already; without JavaScript, the page again with it."""
    if is_htmx():
        response = make_response(render_template("_notice.html", message=message), 409)
        response.headers["HX-Retarget"] = "#notice"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return make_response(render_template("error.html", status=409, code=code, message=message), 409)


@bp.get("/games/<code>/reach")
def reach(code):
    """How many steps a held +/- button may take in one change (``static/app.js`` asks when a
    hold starts): the button's action as its form sends it, ``_field`` the number it steps and
    ``_step`` +1 or -1. The engine answers by trying them (``engine.reach``)."""
    code = normal_code(code)
    actor, _ = shared.cookie_actor(code)
    action = action_from_form(request.args)
    steps = steps_accepted(_state(code), action, actor, request.args.get("_field", ""),
                           request.args.get("_step", 0, type=int))
    return _vary(make_response({"steps": steps}))


@bp.post("/games/<code>/undo")
def undo(code):
    code = normal_code(code)
    actor, _ = shared.cookie_actor(code)
    _new, happened = store().undo_event(code, actor)
    _changed()
    return _after_change(code, done=words.text(happened))


@bp.get("/games/<code>/history")
def history(code):
    code = normal_code(code)
    state = store().load(code)
    names = {p["id"]: p["name"] for p in state["players"]}
    return render_template("history.html", state=state, events=store().history(code), names=names)
