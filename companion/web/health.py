"""``GET /healthz``: whether this server can serve tables, for a monitor or a load balancer.

200 with ``{"ok": true, ...}`` when the database answers with the schema this process knows;
503 with ``{"ok": false, "database": ...}`` otherwise. It names no game, so it is never counted
as a guess of a code, and it reads nothing of any game."""

from __future__ import annotations

from flask import Blueprint, jsonify

from companion.store import StoreError

from .games import store

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    try:
        found = store().health()
    except StoreError:
        response = jsonify({"ok": False, "database": "unreachable"})
        response.status_code = 503
    else:
        same = found["schema"] == found["schema_known"]
        response = jsonify({"ok": same, "database": "ok" if same else "other schema", **found})
        response.status_code = 200 if same else 503
    response.headers["Cache-Control"] = "no-store"
    return response
