"""Wires the store, CSRF protection, translations and the blueprints into the app."""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

from companion.store import Store

LANGUAGES = ("en", "ru")



def select_locale() -> str:
    chosen = request.args.get("lang") or request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    app.extensions["companion_store"] = Store(app.config["COMPANION_DATABASE_URL"])
    csrf = CSRFProtect(app)
    Babel(app, locale_selector=select_locale)

    from . import api, calculator, cards, pages, rules

    for module in (api, pages, cards, rules, calculator):
        app.register_blueprint(module.bp)
    # The API authenticates with a bearer token, which a browser never sends by itself, and
    # the calculator changes nothing: neither can be forged across sites.
    csrf.exempt(api.bp)
    csrf.exempt(calculator.bp)

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
