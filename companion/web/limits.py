"""Throttling (flask-limiter): per client address, game creation, joins, and answers about
game codes that do not exist (so nobody can find live games by guessing codes); per seat, the
changes a seat sends (so one seat tapping in a loop cannot fill the disk or slow its table).

Every path that takes a game code counts a code that names no game the same way: a code in
the path (``/games/<code>/...``) when the game is not found, and ``?game=<code>`` on any page
or answer (the rules, the card lookup, the calculator), which would otherwise show whether a
code is real without ever being counted.

Counters are in memory by default, which is right for one server process. Several processes
must share them: set ``COMPANION_RATELIMIT_STORAGE_URI`` (e.g. ``redis://localhost:6379`` or
``memcached://localhost:11211``). Behind a reverse proxy, set ``COMPANION_TRUSTED_PROXIES`` so
the address is the phone's and not the proxy's.
"""

from __future__ import annotations

import functools
import os
import time

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from companion.engine.words import N_
from companion.store import NotFound, StoreError

from . import shared
from .games import CODE_RE, normal_code, store

DEFAULTS = {
    # A table creates one game an evening; a laptop testing things a few more.
    "COMPANION_RATELIMIT_CREATE": "10 per minute;100 per hour",
    # Six phones joining at once from one address (a hosted server behind a home router).
    "COMPANION_RATELIMIT_JOIN": "30 per minute;300 per hour",
    # Typing a code wrong happens; hundreds of wrong codes a minute is guessing.
    "COMPANION_RATELIMIT_UNKNOWN_CODE": "20 per minute;200 per hour",
    # Per seat: a player tapping fast (10 taps in a second) never meets it; a script tapping
    # 75 times a second meets it within 300 taps, and then 50 a minute at most.
    "COMPANION_RATELIMIT_ACTIONS": "300 per minute;3000 per hour",
    "COMPANION_RATELIMIT_STORAGE_URI": "memory://",
}

# Which views are throttled, and in which shared budget (a page and its API twin share one).
THROTTLED = (
    ("api.create_game", "create-game", "COMPANION_RATELIMIT_CREATE", None),
    ("pages.create_game", "create-game", "COMPANION_RATELIMIT_CREATE", None),
    ("api.join_game", "join-game", "COMPANION_RATELIMIT_JOIN", None),
    ("pages.join", "join-game", "COMPANION_RATELIMIT_JOIN", ["POST"]),
)


# The views that change a game, and the one that tries a held +/- button's steps on the
# engine (pages.reach): each counts against the seat that sends it.
SEAT_THROTTLED = ("api.post_action", "api.undo", "pages.act", "pages.undo",
                  "cards.import_house_cards", "pages.reach", "api.allowed_actions")


class TooManyGuesses(StoreError):
    """This address asked about too many games that do not exist (HTTP 429)."""

    status = 429

    def __init__(self, retry_after: int):
        super().__init__(N_("Too many unknown game codes from this address. Check the code with "
                            "the host and try again in %(seconds)s seconds."), seconds=retry_after)
        self.retry_after = retry_after


class TooManyTaps(StoreError):
    """This seat sent changes faster than anyone plays (HTTP 429); its table is not slowed."""

    status = 429

    def __init__(self, retry_after: int):
        super().__init__(N_("Too many changes from this seat in a short time. Wait "
                            "%(seconds)s seconds, then tap again."), seconds=retry_after)
        self.retry_after = retry_after


def _limiter() -> Limiter:
    return current_app.extensions["companion_limiter"]


def _unknown_code_limits():
    return parse_many(current_app.config["COMPANION_RATELIMIT_UNKNOWN_CODE"])


def address_key() -> str:
    """The asker's address as the store keeps it (whose games count in whose daily storage):
    a keyed hash, so the database holds no address."""
    import hashlib
    import hmac

    secret = str(current_app.config.get("SECRET_KEY") or "").encode()
    return hmac.new(secret, get_remote_address().encode(), hashlib.sha256).hexdigest()[:32]


def check_guessing() -> None:
    """Before a request about a game code: refuse an address that has guessed too often."""
    limiter = _limiter()
    if not limiter.enabled:
        return
    address = get_remote_address()
    for item in _unknown_code_limits():
        if not limiter.limiter.test(item, "unknown-code", address):
            raise TooManyGuesses(_retry_after(limiter, item, "unknown-code", address))


def count_unknown_code() -> None:
    """A request named a game that does not exist: one more guess for this address."""
    limiter = _limiter()
    if not limiter.enabled:
        return
    for item in _unknown_code_limits():
        limiter.limiter.hit(item, "unknown-code", get_remote_address())


def _names_a_game(code: str) -> bool:
    if not CODE_RE.match(code):
        return False
    try:
        store().version(normal_code(code))
    except NotFound:
        return False
    return True


def may_guess() -> bool:
    """Whether this address may still ask about a game code (without counting a guess)."""
    try:
        check_guessing()
    except TooManyGuesses:
        return False
    return True


def _retry_after(limiter: Limiter, item, *keys: str) -> int:
    reset, _ = limiter.limiter.get_window_stats(item, *keys)
    return max(1, int(reset - time.time()) + 1)


def _seat_key(code: str) -> str | None:
    """Who sends this change, as the game knows them: the host, a seat, or None (not seated:
    the view refuses it without writing anything). The token is checked, not just read, so
    a made-up token cannot buy a fresh budget."""
    code = normal_code(code)
    # The view reads the same, kept on g: the bearer token (the API) or the seat or host cookie.
    actor = shared.bearer_actor(code) if request.blueprint == "api" else shared.cookie_actor(code)[0]
    if actor.host:
        return f"{code}/host"
    if actor.player is not None:
        return f"{code}/{actor.player}"
    return None


def check_seat_rate(code: str) -> None:
    """One more change from this seat, or TooManyTaps when it has sent too many lately."""
    limiter = _limiter()
    if not limiter.enabled:
        return
    key = _seat_key(code)
    if key is None:
        return
    items = parse_many(current_app.config["COMPANION_RATELIMIT_ACTIONS"])
    for item in items:
        if not limiter.limiter.test(item, "seat-actions", key):
            raise TooManyTaps(_retry_after(limiter, item, "seat-actions", key))
    for item in items:
        limiter.limiter.hit(item, "seat-actions", key)


def _seat_throttled(view):
    @functools.wraps(view)
    def throttled(*args, **kwargs):
        check_seat_rate(kwargs["code"])
        return view(*args, **kwargs)
    return throttled


def init_app(app: Flask) -> None:
    """Call after the blueprints are registered: each app gets its own limiter and counters."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, os.environ.get(key) or value)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config["COMPANION_RATELIMIT_STORAGE_URI"])
    limiter = Limiter(get_remote_address, app=app, headers_enabled=True, strategy="moving-window")
    app.extensions["companion_limiter"] = limiter
    for endpoint, scope, setting, methods in THROTTLED:
        value = app.config[setting]
        app.view_functions[endpoint] = limiter.shared_limit(value, scope=scope, methods=methods)(
            app.view_functions[endpoint])
    for endpoint in SEAT_THROTTLED:
        app.view_functions[endpoint] = _seat_throttled(app.view_functions[endpoint])

    @app.before_request
    def _refuse_guessers():
        asked = request.args.get("game")
        if (request.view_args and "code" in request.view_args) or asked:
            check_guessing()
        # A path code that names no game is counted where it is not found (web/errors.py);
        # ?game= is looked up here, so every page and answer that takes one counts the same.
        if asked and not _names_a_game(asked):
            count_unknown_code()
