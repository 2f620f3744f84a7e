"""Hardening shared by every page: same-site redirect targets, the error page's way back, the
Content-Security-Policy, ``Secure`` cookies behind https, and the language switch (which works
without JavaScript and is remembered in the ``lang`` cookie)."""

from __future__ import annotations

import functools
import unicodedata
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from babel import Locale
from flask import Blueprint, current_app, redirect, request, url_for
from flask.sessions import SecureCookieSessionInterface

from . import languages

bp = Blueprint("security", __name__)

YEAR = 365 * 24 * 3600

# Scripts only from this site: no inline script or handler, no eval (htmx runs with allowEval
# false). Styles keep 'unsafe-inline': templates use style= attributes for small widths, and a
# style attribute cannot be allowed by file. Images and the screen-awake video (app.js plays
# static/vendor/nosleep.js-0.12.0/no-sleep.webm|mp4, a file, not a data: URI) come from here
# too; the join QR code is inline <svg> markup, which no img-src governs.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self'",
    "media-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))


def _bad_char(ch: str) -> bool:
    """Control, format and separator characters, and any whitespace: browsers drop tab and
    newline from URLs, so ``/\\t/evil.example`` would become ``//evil.example``."""
    return ch.isspace() or ch == "\\" or unicodedata.category(ch)[0] in "CZ"


def safe_next(url: str | None) -> str | None:
    """``url`` if it is a path on this site (``/games/ABC?x=1``), else None.

    Refused: anything not starting with a single ``/``, a scheme or a host, a backslash, a
    control or whitespace character, and a path that starts with ``//`` or ``/\\`` once
    percent-decoded (``/%2F/evil.example``, ``/%09/evil.example``)."""
    if not url or not isinstance(url, str) or len(url) > 2048:
        return None
    if not url.startswith("/") or url.startswith("//") or any(_bad_char(ch) for ch in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme or parts.netloc:
        return None
    path = parts.path
    for _ in range(4):  # double encoding too: %252F -> %2F -> /
        decoded = unquote(path)
        if decoded == path:
            break
        path = decoded
    if not path.startswith("/") or path.startswith("//") or any(_bad_char(ch) for ch in path):
        return None
    return url


def same_site_referrer() -> str | None:
    """The Referer's path and query when it is a page of this site, else None."""
    referrer = request.referrer
    if not referrer:
        return None
    try:
        parts = urlsplit(referrer)
    except ValueError:
        return None
    hosts = {request.host.lower()}
    public = current_app.config.get("COMPANION_PUBLIC_URL")
    if public:
        hosts.add(urlsplit(public).netloc.lower())
    if parts.scheme not in ("http", "https") or parts.netloc.lower() not in hosts:
        return None
    return safe_next(urlunsplit(("", "", parts.path or "/", parts.query, "")))


def back_link(code: str | None = None) -> str:
    """Where the error page's Back button goes: the page the player came from when it is on
    this site, else the game (when there is one), else the home page."""
    back = same_site_referrer()
    if back:
        return back
    if code:
        return url_for("pages.game", code=code)
    return url_for("pages.home")


def here() -> str:
    """This page, for the language switch to come back to. A form post's answer (an error
    page) has no address to come back to: there it is the way back."""
    if request.method == "GET":
        path = quote(request.path)  # werkzeug gives it decoded
        query = request.query_string.decode("latin-1")
        return safe_next(path + ("?" + query if query else "")) or url_for("pages.home")
    return back_link(request.view_args.get("code") if request.view_args else None)


def language_names() -> list[tuple[str, str]]:
    """Every offered language as (code, its own name): ``languages.LANGUAGES`` is the single
    list (read when asked)."""
    return _own_names(tuple(languages.LANGUAGES))


@functools.lru_cache(maxsize=8)
def _own_names(languages: tuple[str, ...]) -> list[tuple[str, str]]:
    names = []
    for code in languages:
        try:
            name = Locale.parse(code).get_display_name(code) or code
        except (ValueError, LookupError):
            name = code
        names.append((code, name[:1].upper() + name[1:]))
    return names


def cookies_secure() -> bool:
    """Cookies carry ``Secure`` when the site is served over https: the request is (after the
    trusted proxies' X-Forwarded-Proto) or the configured public URL is."""
    if request.is_secure:
        return True
    public = current_app.config.get("COMPANION_PUBLIC_URL") or ""
    return public.lower().startswith("https://")


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed session cookie (it holds the CSRF secret), ``Secure`` under https. It is
    written after the after_request hooks, so it needs its own switch."""

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or cookies_secure()


def secure_cookies(response):
    """Add ``Secure`` to every cookie this response sets, when the site is on https."""
    cookies = response.headers.getlist("Set-Cookie")
    if not cookies or not cookies_secure():
        return response
    fixed = [c if any(p.strip().lower() == "secure" for p in c.split(";")[1:]) else c + "; Secure"
             for c in cookies]
    if fixed != cookies:
        del response.headers["Set-Cookie"]
        for cookie in fixed:
            response.headers.add("Set-Cookie", cookie)
    return response


def _without_lang(url: str) -> str:
    """The target without a ``lang`` query parameter, which would win over the new cookie."""
    parts = urlsplit(url)
    if "lang" not in parts.query:
        return url
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"])
    return urlunsplit(("", "", parts.path, query, parts.fragment))


@bp.get("/lang")
def set_language():
    """The footer's language switch: remember the choice for a year, go back to the page."""
    target = safe_next(request.args.get("next")) or same_site_referrer() or url_for("pages.home")
    response = redirect(_without_lang(target), 303)
    chosen = request.args.get("lang")
    if chosen in languages.LANGUAGES:
        response.set_cookie("lang", chosen, max_age=YEAR, httponly=True, samesite="Lax",
                            secure=cookies_secure())
    return response


NO_STORE = "no-store"
TOKEN_COOKIES = ("seat_", "host_")  # a seat's or the host's token for one game


def sets_a_token_cookie(response) -> bool:
    """True when ``response`` sets (or clears) a seat or host cookie: such an answer carries a
    token, so no cache, the browser's own included, may keep it (``no-store``)."""
    return any(cookie.lstrip().startswith(TOKEN_COOKIES) for cookie in response.headers.getlist("Set-Cookie"))


def no_store(response):
    """Mark an answer that carries a token ``Cache-Control: no-store``."""
    response.headers["Cache-Control"] = NO_STORE
    return response
