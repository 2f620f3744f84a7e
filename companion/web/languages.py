"""The languages the game is published in, and which one a request chose.

Pages, log, refusals and fight texts are in all of them; rulings and card summaries are in
English and Russian (others say they fall back). ``LANGUAGES`` is the single list: the
language switch, the ``lang`` cookie and the locale selector all read it here."""

from __future__ import annotations

from flask import request

LANGUAGES = ("en", "ru", "de", "fr", "es", "it", "pl", "pt_BR", "uk")
_BY_TAG = {code.lower().replace("_", "-"): code for code in LANGUAGES}


def language_code(value: str | None) -> str | None:
    """One of LANGUAGES for a tag as a phone or a link may write it ("pt-BR", "pt_br", "de")."""
    if not value or not isinstance(value, str):
        return None
    return _BY_TAG.get(value.strip().lower().replace("_", "-"))


def select_locale() -> str:
    chosen = language_code(request.args.get("lang")) or language_code(request.cookies.get("lang"))
    if chosen:
        return chosen
    best = request.accept_languages.best_match([c.replace("_", "-") for c in LANGUAGES])
    return language_code(best) or "en"
