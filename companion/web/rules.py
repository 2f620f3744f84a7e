"""The rules arbiter on the web: ask in plain words, browse by topic, read a ruling."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request

from companion import rulebase
from companion.engine.editions import EDITIONS

bp = Blueprint("rules", __name__)


def _edition() -> str | None:
    edition = request.args.get("edition")
    return edition if edition in EDITIONS else None


@bp.get("/api/rules")
def api_search():
    q = request.args.get("q", "")[:200]
    edition = _edition()
    found = rulebase.search(q, edition=edition, limit=10) if q.strip() else rulebase.all_rulings()
    rulings = [rulebase.ruling_for_edition(r, edition) for r in found]
    return jsonify({"rulings": rulings})


@bp.get("/api/rules/<rule_id>")
def api_ruling(rule_id):
    ruling = rulebase.get_ruling(rule_id)
    if ruling is None:
        return jsonify({"error": {"message": f"There is no ruling {rule_id!r}."}}), 404
    return jsonify(rulebase.ruling_for_edition(ruling, _edition()))


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
    results = [rulebase.ruling_for_edition(r, edition) for r in results]
    template = "rules/_results.html" if request.headers.get("HX-Request") == "true" else "rules/ask.html"
    response = render_template(template, q=q, edition=edition, topic=topic, results=results,
                               topics=rulebase.topics(), editions=EDITIONS.values())
    return response, 200, {"Vary": "HX-Request"}


@bp.get("/rules/<rule_id>")
def ruling(rule_id):
    found = rulebase.get_ruling(rule_id)
    if found is None:
        abort(404)
    edition = _edition()
    return render_template("rules/ruling.html", ruling=rulebase.ruling_for_edition(found, edition),
                           edition=edition, editions=EDITIONS)
