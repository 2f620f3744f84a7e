"""Wires the store, CSRF protection, translations and the blueprints into the app."""

from __future__ import annotations

from flask import Flask
from flask_babel import Babel, get_locale
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.store import Store

from . import (api, assets, calculator, cards, errors, health, languages, limits, pages, rules,
               security)
from .card_words import card_name
from .icons import icon
from .power_forms import power_forms
from .words import (install_template_words, localized_name, printed_name_html, quoted,
                    remember_language, say, set_name, term_word)


def init_app(app: Flask) -> None:
    # Step by step, in this order: hooks run in the order they are registered (after_request
    # ones in reverse), and limits wraps views the blueprints registered.
    _open_store(app)
    _behind_proxies(app)
    errors.init_app(app)
    _template_words(app)
    csrf = CSRFProtect(app)
    Babel(app, locale_selector=languages.select_locale)
    install_template_words(app)
    assets.init_app(app)  # compressed responses, fingerprinted static files

    _blueprints(app, csrf)
    _security_headers(app)
    _page_globals(app)


def _open_store(app: Flask) -> None:
    app.extensions["companion_store"] = Store(app.config["COMPANION_DATABASE_URL"],
                                              pool_size=int(app.config.get("COMPANION_DB_POOL_SIZE", 16)),
                                              check_kept=app.testing)


def _behind_proxies(app: Flask) -> None:
    proxies = int(app.config.get("COMPANION_TRUSTED_PROXIES") or 0)
    if proxies:  # believe X-Forwarded-For/-Proto/-Host/-Port from that many proxies, no more
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies,
                                x_port=proxies)
    app.session_interface = security.SessionInterface()  # Secure session cookie under https


def _template_words(app: Flask) -> None:
    """The templates' filters and globals that put words in the asker's language, and the
    cookie that keeps a language chosen by ``?lang=``."""
    app.add_template_filter(say, "say")
    app.add_template_global(term_word, "term_word")
    app.add_template_global(set_name, "set_name")
    app.add_template_filter(card_name, "card_name")
    app.add_template_filter(localized_name, "localized_name")
    app.add_template_filter(printed_name_html, "printed")
    app.add_template_filter(localized_name, "printed_text")
    app.add_template_global(quoted, "quoted")  # the reader's language's quotation marks
    app.add_template_global(icon, "icon")  # {{ icon("skull") }}: an icon from static/icons.svg
    app.add_template_global(power_forms, "power_forms")  # a power's many moves as one form
    app.after_request(remember_language)  # ?lang= is kept in the lang cookie for the next page


def _blueprints(app: Flask, csrf: CSRFProtect) -> None:
    for module in (api, pages, cards, rules, calculator, security, health):
        app.register_blueprint(module.bp)
    limits.init_app(app)  # after the blueprints: it wraps their create and join views
    # The API authenticates with a bearer token, which a browser never sends by itself, and
    # the calculator changes nothing: neither can be forged across sites.
    csrf.exempt(api.bp)
    csrf.exempt(calculator.bp)


def _security_headers(app: Flask) -> None:
    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Content-Security-Policy", security.CONTENT_SECURITY_POLICY)
        return security.secure_cookies(response)


def _page_globals(app: Flask) -> None:
    # The error page's way back and the language switch's return address, made in Python.
    app.add_template_global(security.back_link, "back_link")
    app.add_template_global(security.here, "here")

    @app.context_processor
    def inject_locale():
        return {"locale": str(get_locale()), "languages": languages.LANGUAGES,
                "language_names": security.language_names()}
