"""Wires the store, CSRF protection, translations and the blueprints into the app."""

from __future__ import annotations

import importlib

from flask import Flask, request
from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

from companion.store import Store

LANGUAGES = ("en", "ru")

# Blueprints that other parts of the app add (cards, rules, calculator); each is optional
# only while it is being built, and registered when its module exists.
OPTIONAL_BLUEPRINTS = ("companion.web.cards", "companion.web.rules", "companion.web.calculator")


def select_locale() -> str:
    chosen = request.args.get("lang") or request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    app.extensions["companion_store"] = Store(app.config["COMPANION_DATABASE_URL"])
    csrf = CSRFProtect(app)
    Babel(app, locale_selector=select_locale)

    from . import api, pages

    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the API authenticates with a bearer token, which a browser never sends by itself
    app.register_blueprint(pages.bp)
    for name in OPTIONAL_BLUEPRINTS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        app.register_blueprint(module.bp)
        if getattr(module, "CSRF_EXEMPT", False):
            csrf.exempt(module.bp)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    @app.context_processor
    def inject_locale():
        from flask_babel import get_locale

        return {"locale": str(get_locale()), "languages": LANGUAGES}
