"""Throttling per client address (flask-limiter): game creation, joins, and answers about
game codes that do not exist (so nobody can find live games by guessing codes).

Counters are in memory by default, which is right for one server process. Several processes
must share them: set ``COMPANION_RATELIMIT_STORAGE_URI`` (e.g. ``redis://localhost:6379`` or
``memcached://localhost:11211``). Behind a reverse proxy, set ``COMPANION_TRUSTED_PROXIES`` so
the address is the phone's and not the proxy's.
"""

from __future__ import annotations

import os
import time

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from companion.engine.words import N_
from companion.store import StoreError

DEFAULTS = {
    # A table creates one game an evening; a laptop testing things a few more.
    "COMPANION_RATELIMIT_CREATE": "10 per minute;100 per hour",
    # Six phones joining at once from one address (a hosted server behind a home router).
    "COMPANION_RATELIMIT_JOIN": "30 per minute;300 per hour",
    # Typing a code wrong happens; hundreds of wrong codes a minute is guessing.
    "COMPANION_RATELIMIT_UNKNOWN_CODE": "20 per minute;200 per hour",
    "COMPANION_RATELIMIT_STORAGE_URI": "memory://",
}

# Which views are throttled, and in which shared budget (a page and its API twin share one).
THROTTLED = (
    ("api.create_game", "create-game", "COMPANION_RATELIMIT_CREATE", None),
    ("pages.create_game", "create-game", "COMPANION_RATELIMIT_CREATE", None),
    ("api.join_game", "join-game", "COMPANION_RATELIMIT_JOIN", None),
    ("pages.join", "join-game", "COMPANION_RATELIMIT_JOIN", ["POST"]),
)


class TooManyGuesses(StoreError):
    """This address asked about too many games that do not exist (HTTP 429)."""

    status = 429

    def __init__(self, retry_after: int):
        super().__init__(N_("Too many unknown game codes from this address. Check the code with "
                            "the host and try again in %(seconds)s seconds."), seconds=retry_after)
        self.retry_after = retry_after


def _limiter() -> Limiter:
    return current_app.extensions["companion_limiter"]


def _unknown_code_limits():
    return parse_many(current_app.config["COMPANION_RATELIMIT_UNKNOWN_CODE"])


def check_guessing() -> None:
    """Before a request about a game code: refuse an address that has guessed too often."""
    limiter = _limiter()
    if not limiter.enabled:
        return
    address = get_remote_address()
    for item in _unknown_code_limits():
        if not limiter.limiter.test(item, "unknown-code", address):
            reset, _ = limiter.limiter.get_window_stats(item, "unknown-code", address)
            raise TooManyGuesses(max(1, int(reset - time.time()) + 1))


def count_unknown_code() -> None:
    """A request named a game that does not exist: one more guess for this address."""
    limiter = _limiter()
    if not limiter.enabled:
        return
    for item in _unknown_code_limits():
        limiter.limiter.hit(item, "unknown-code", get_remote_address())


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

    @app.before_request
    def _refuse_guessers():
        if request.view_args and "code" in request.view_args:
            check_guessing()
