"""What is the same for every phone looking at one version of a game, worked out once per
process and shared: the public state in each language, and what each seat may do.

Only states read from the store are shared (frozen, one per game version: ``Store.read``);
anything else is worked out afresh. A new version simply misses: entries are keyed by
version, and the least recently used leave first."""

from __future__ import annotations

from typing import Any, Callable

from flask import current_app, g, request

from companion.engine import Actor
from companion.engine.allowed import Options
from companion.engine.frozen import is_frozen
from companion.store import Loaded, Lru

from .games import bearer_token, store

KEPT = 2048  # entries per process: a table at a version holds one per language and seat


def app_cache(name: str, size: int) -> Lru:
    """The app's bounded map ``name`` (in the app's extensions: each app, a test's included,
    starts empty); made on first use, ``setdefault`` so two requests at once share one."""
    found = current_app.extensions.get(name)
    if found is None:
        found = current_app.extensions.setdefault(name, Lru(size))
    return found


def request_game(code: str) -> Loaded:
    """The game ``code`` as this request read it: read once per request (an unknown game is a
    404 here, before any 403), kept on ``g`` for the throttle, the view and the render alike,
    until the request changes it (``game_changed``)."""
    loaded = g.get("request_game")
    if loaded is None or g.get("request_game_code") != code:
        loaded = g.request_game = store().read(code)
        g.request_game_code = code
    return loaded


def token_actor(code: str, token: str | None) -> Actor:
    """Who ``token`` is in the game ``code``, read once per request (``request_game``)."""
    return store().actor(request_game(code), token)


def bearer_actor(code: str) -> Actor:
    """Who this request's bearer token (the API's) is in the game ``code`` (an empty Actor
    for none or an unknown token; an unknown game is a 404 first). Worked out once per request
    and kept on ``g``: the seat's throttle asks before the view does."""
    if g.get("api_actor_code") != code:
        g.api_actor = token_actor(code, bearer_token())
        g.api_actor_code = code
    return g.api_actor


def cookie_actor(code: str) -> tuple[Actor, int | None]:
    """(Actor, this phone's seat's player id) from the pages' cookies: the host cookie acts
    as host; the seat cookie is the phone's own player (both, on a host's phone with a seat). Worked out once per request and kept
    on ``g`` (flaskr's ``g.user`` habit): the seat's throttle asks before the view does."""
    if g.get("actor_code") != code:
        seat = token_actor(code, request.cookies.get(f"seat_{code}"))
        host = token_actor(code, request.cookies.get(f"host_{code}"))
        g.actor_code = code
        # A host who also plays is both: their own seat's moves are a player's (an offer to
        # help waits for the fighter's yes, a card played leaves their hand), and the host may
        # still act for anyone.
        g.actor = (Actor(host=True, player=seat.player), seat.player) if host.host else (seat, seat.player)
    return g.actor


def game_changed() -> None:
    """This request changed its game: what it reads next is read again."""
    g.pop("request_game", None)


def per_version(state: dict, what: tuple, make: Callable[[], Any]) -> Any:
    """``make()``, once per (game, version, ``what``) for a state read from the store."""
    if not is_frozen(state):
        return make()
    cache, key = app_cache("companion_shared", KEPT), (state["code"], state["version"], *what)
    found = cache.get(key)
    return found if found is not None else cache.put(key, make())


def options(state: dict, actor: Any, *, card: Any = None) -> Options:
    """What ``actor`` may do in this state (``engine.allowed.Options``), worked out as far as
    it is asked, and shared by the pages of the same seat at the same version (a page and the
    fragments it loads ask about the same moves)."""
    if card is not None or not is_frozen(state):
        return Options(state, actor, card=card)
    return per_version(state, ("options", actor), lambda: Options(state, actor))
