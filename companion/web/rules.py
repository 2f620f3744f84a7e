"""The rules arbiter on the web: ask in plain words, browse by topic, read a ruling.

Rulings come in the asker's language (``flask_babel.get_locale()``: ``?lang=``, the ``lang``
cookie, then Accept-Language), marked ``"lang"`` and ``"fallback"`` (True when only the English
text exists yet); a page says so next to a ruling shown in English.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request
from flask_babel import get_locale

from companion import rulebase
from companion.engine.editions import EDITIONS

bp = Blueprint("rules", __name__)


def N_(text: str) -> str:
    """Marks a string for the translation catalog; the template translates it when shown."""
    return text


#: topic id -> its label (translated by the templates with ``_()``)
TOPIC_LABELS = {
    "allies": N_("Allies"), "bribes": N_("Bribes"), "charity": N_("Charity"),
    "combat": N_("Combat"), "curses": N_("Curses"), "death": N_("Death"),
    "general": N_("General"), "help": N_("Help"), "items": N_("Items"), "levels": N_("Levels"),
    "monsters": N_("Monsters"), "races-classes": N_("Races and classes"),
    "running-away": N_("Running away"), "selling": N_("Selling"), "setup": N_("Setup"),
    "trading": N_("Trading"), "turns": N_("Turns"), "variants": N_("Variants"),
}


@bp.after_request
def _vary_by_language(response):
    # The texts depend on the language the request chose (cookie or Accept-Language).
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


def _edition() -> str | None:
    edition = request.args.get("edition")
    return edition if edition in EDITIONS else None


def _lang() -> str:
    return rulebase.normalize_lang(get_locale())


def _shown(ruling: dict, edition: str | None, lang: str) -> dict:
    """The ruling as a phone gets it: citation for the edition, texts in ``lang``."""
    return rulebase.localized(rulebase.ruling_for_edition(ruling, edition), lang)


@bp.get("/api/rules")
def api_search():
    q = request.args.get("q", "")[:200]
    edition = _edition()
    lang = _lang()
    found = rulebase.search(q, edition=edition, limit=10) if q.strip() else rulebase.all_rulings()
    rulings = [_shown(r, edition, lang) for r in found]
    return jsonify({"rulings": rulings})


@bp.get("/api/rules/<rule_id>")
def api_ruling(rule_id):
    ruling = rulebase.get_ruling(rule_id)
    if ruling is None:
        return jsonify({"error": {"message": f"There is no ruling {rule_id!r}."}}), 404
    return jsonify(_shown(ruling, _edition(), _lang()))


@bp.get("/rules")
def ask():
    q = request.args.get("q", "")[:200]
    edition = _edition()
    topic = request.args.get("topic")
    if q.strip():
        results = rulebase.search(q, edition=edition, limit=8)
    elif topic in rulebase.topics():
        results = rulebase.rulings_for_topic(topic)
    else:
        results = []
    lang = _lang()
    results = [_shown(r, edition, lang) for r in results]
    template = "rules/_results.html" if request.headers.get("HX-Request") == "true" else "rules/ask.html"
    response = render_template(template, q=q, edition=edition, topic=topic, results=results,
                               topics=rulebase.topics(), topic_labels=TOPIC_LABELS,
                               editions=EDITIONS.values())
    return response, 200, {"Vary": "HX-Request"}


@bp.get("/rules/<rule_id>")
def ruling(rule_id):
    found = rulebase.get_ruling(rule_id)
    if found is None:
        abort(404)
    edition = _edition()
    return render_template("rules/ruling.html", ruling=_shown(found, edition, _lang()),
                           edition=edition, editions=EDITIONS, topic_labels=TOPIC_LABELS)
