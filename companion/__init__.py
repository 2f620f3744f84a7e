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
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent  # the repository: templates/, static/, cards/


def _secret_key(instance: Path) -> str:
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def _trusted_proxies() -> int:
    value = os.environ.get("COMPANION_TRUSTED_PROXIES", "").strip() or "0"
    if not value.isdigit():
        raise ValueError(f"COMPANION_TRUSTED_PROXIES must be a whole number of proxies, not {value!r}")
    return int(value)


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"),
                instance_path=os.environ.get("COMPANION_INSTANCE_PATH") or str(ROOT / "instance"))
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(
        COMPANION_DATABASE_URL=os.environ.get("COMPANION_DATABASE_URL")
        or f"sqlite:///{instance / 'companion.db'}",
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
