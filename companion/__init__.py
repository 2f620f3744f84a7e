"""Munchkin Table Companion: the app factory.

Configuration comes from the environment (or ``create_app(config)`` in tests):
``COMPANION_DATABASE_URL`` (default: SQLite in the instance folder), ``COMPANION_PUBLIC_URL``
(base URL put in the join QR code), ``COMPANION_SECRET_KEY`` (default: generated once and
kept in the instance folder, so sessions and form tokens survive a restart),
``COMPANION_TRUSTED_PROXIES`` (how many reverse proxies stand in front; their X-Forwarded-*
headers are believed only then; default 0).
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from flask import Flask

from companion import catalog as _catalog, engine as _engine
from companion.paths import DATA, ROOT

# The app is put together here, so every use of the engine (the app, the command line, a
# script, a test) finds cards the same way: the engine asks for card facts through its own
# interface (engine/cards.py) and the catalog supplies them.
_engine.cards.supply(_catalog.CARD_FACTS)


def _default_instance() -> Path:
    """A checkout keeps its instance folder beside the code; an installed copy may sit in a
    read-only site-packages, so it keeps its data in the user's XDG data folder."""
    if DATA == ROOT:
        return ROOT / "instance"
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "munchkin-companion"


def _secret_key(instance: Path) -> str:
    """The instance's secret, made once. Created exclusively, so two processes starting at
    the same moment end up with the same key (the loser of the race reads the winner's)."""
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(48))
    for _ in range(50):  # the winner may not have written it yet
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty: remove it and start again")


def _trusted_proxies() -> int:
    value = os.environ.get("COMPANION_TRUSTED_PROXIES", "").strip() or "0"
    if not value.isdigit():
        raise ValueError(f"COMPANION_TRUSTED_PROXIES must be a whole number of proxies, not {value!r}")
    return int(value)


def instance_folder() -> Path:
    """Where the SQLite file and the secret live: ``COMPANION_INSTANCE_PATH``, else the default."""
    return Path(os.environ.get("COMPANION_INSTANCE_PATH") or str(_default_instance()))


def configured_database_url() -> str:
    """The database the app would use, as ``create_app`` works it out (nothing is opened)."""
    return os.environ.get("COMPANION_DATABASE_URL") or f"sqlite:///{instance_folder() / 'companion.db'}"


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(DATA / "templates"), static_folder=str(DATA / "static"),
                instance_path=str(instance_folder()))
    # The web layer is loaded by the factory, not by the package: the engine, the store and
    # the catalog are used without Flask's views (tests, benchmarks, the command line).
    from companion.web.json_provider import OrjsonProvider

    app.json = OrjsonProvider(app)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(
        # Connections per process (the pool may grow to 5 times that under a burst): with
        # PostgreSQL, every process's pool must fit in the server's max_connections.
        COMPANION_DB_POOL_SIZE=int(os.environ.get("COMPANION_DB_POOL_SIZE") or 16),
        COMPANION_DATABASE_URL=configured_database_url(),
        COMPANION_PUBLIC_URL=os.environ.get("COMPANION_PUBLIC_URL") or None,
        COMPANION_TRUSTED_PROXIES=_trusted_proxies(),
        MAX_CONTENT_LENGTH=64 * 1024,  # an action is small; a house-card file stays well under
        WTF_CSRF_TIME_LIMIT=None,  # a game evening is long; the token is tied to the session
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        LIVE_STREAM_SECONDS=300,
        LIVE_HEARTBEAT_SECONDS=15,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
    )
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):  # Flask pre-defines it as None, so no setdefault
        app.config["SECRET_KEY"] = os.environ.get("COMPANION_SECRET_KEY") or _secret_key(instance)

    from .web import init_app

    init_app(app)
    return app

