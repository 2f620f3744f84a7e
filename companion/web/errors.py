"""One error mapping for the whole site.

Every error class knows its HTTP status (``EngineError.status``, ``StoreError.status``); this
module turns any failure into the answer its caller can read: JSON for anything under
``/api/`` (always, even a bug's), an in-place notice for an htmx request, a page otherwise.
A bug answers 500 with an incident id that is also in the server log with its traceback.
A full disk answers 503, a busy table 503 with ``Retry-After``, throttling 429 with it.
"""

from __future__ import annotations

import logging
import uuid

from flask import Flask, jsonify, make_response, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from companion.engine import EngineError, RuleViolation
from companion.engine.words import N_
from companion.store import NotFound, StoreError

from .limits import count_unknown_code
from .words import error_message, refusal_parts, text

log = logging.getLogger("companion.errors")

HTTP_MESSAGES = {
    400: N_("The request is not one this server understands."),
    401: N_("Sign in first."),
    403: N_("That is not allowed from this phone."),
    404: N_("There is nothing at this address."),
    405: N_("That method is not allowed here."),
    413: N_("That request is too large."),
    415: N_("Send the request body as JSON."),
    429: N_("Too many requests from this address; wait a little and try again."),
}


def wants_json() -> bool:
    return request.path.startswith("/api/")


def is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def describe(exc: BaseException) -> tuple[int, dict, int | None]:
    """(HTTP status, the error object, seconds for Retry-After or None)."""
    if isinstance(exc, RuleViolation):
        parts = refusal_parts(exc)
        return exc.status, {**exc.as_dict(), "message": error_message(exc), "detail": parts["detail"],
                            "answer": parts["answer"], "answer_lang": parts["answer_lang"],
                            "citation": parts["citation"]}, None
    if isinstance(exc, EngineError):
        return exc.status, {"message": error_message(exc)}, None
    if isinstance(exc, StoreError):
        return exc.status, {"message": text(exc.said)}, exc.retry_after
    if isinstance(exc, HTTPException):
        status = exc.code or 500
        retry = None
        if status == 429:
            retry = _retry_after_of(exc)
            message = HTTP_MESSAGES[429]
        elif status == 400 and wants_json():
            message = N_("The request body must be a JSON object.")
        else:
            message = HTTP_MESSAGES.get(status) or exc.description or exc.name
        return status, {"message": gettext(message)}, retry
    if isinstance(exc, RecursionError):
        return 400, {"message": gettext("The request is nested too deeply.")}, None
    incident = uuid.uuid4().hex[:12]
    log.error("incident %s on %s %s", incident, request.method, request.path, exc_info=exc)
    return 500, {"message": gettext("Something went wrong on the server (incident %(incident)s). "
                                    "Nothing was changed; tell whoever runs the server.", incident=incident),
                 "incident": incident}, None


def _retry_after_of(exc: HTTPException) -> int:
    try:
        header = exc.get_response().headers.get("Retry-After")
        return max(1, int(header)) if header else 60
    except (TypeError, ValueError):
        return 60


def error_response(exc: BaseException, *, code: str | None = None):
    status, error, retry = describe(exc)
    # An error may quote what the client sent; text that is not valid Unicode cannot be sent back.
    error = {k: v.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(v, str) else v
             for k, v in error.items()}
    if isinstance(exc, NotFound):
        count_unknown_code()
    if wants_json():
        response = make_response(jsonify({"error": error}), status)
    elif is_htmx():
        response = make_response(render_template("_notice.html", **_notice_context(error)), status)
        response.headers["HX-Retarget"] = "#notice"
        response.headers["HX-Reswap"] = "innerHTML"
    else:
        response = make_response(render_template("error.html", status=status, code=code,
                                                 **_notice_context(error)), status)
    if retry:
        response.headers["Retry-After"] = str(retry)
    return response


def _notice_context(error: dict) -> dict:
    return {"message": error["message"], "rule": error.get("rule"), "citation": error.get("citation"),
            "answer": error.get("answer"), "answer_lang": error.get("answer_lang"),
            "detail": error.get("detail")}


def init_app(app: Flask) -> None:
    @app.before_request
    def _options_as_json():
        # Flask answers OPTIONS itself with an empty HTML page and its Allow header; under /api/
        # it is JSON like every other answer there: the same Allow, and the methods as a list.
        # (An unknown path is still the JSON 404; no CORS is granted to anyone.)
        if (request.method == "OPTIONS" and wants_json() and request.routing_exception is None
                and getattr(request.url_rule, "provide_automatic_options", False)):
            allow = app.make_default_options_response().allow
            response = jsonify({"allow": sorted(allow)})
            response.allow.update(allow)
            return response
        return None

    @app.errorhandler(Exception)
    def _any_error(exc):
        if isinstance(exc, HTTPException) and (exc.code or 500) < 400:
            return exc  # redirects raised by routing are not errors
        # The error page links back to the game, unless the game is what was not found.
        code = None if isinstance(exc, NotFound) else (request.view_args or {}).get("code")
        return error_response(exc, code=code)
