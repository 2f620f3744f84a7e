"""A request's JSON body, checked before anything reads it: an object, not nested too deeply,
no text too long or with a broken character."""

from __future__ import annotations

import re
from typing import Any

from flask import request

from companion.engine import BadAction

MAX_JSON_DEPTH = 12  # an action is at most an action > card > requires > list: 4 deep
MAX_JSON_STRING = 20_000
_SURROGATE = re.compile("[\ud800-\udfff]")


def read_json_object() -> dict:
    """The request's JSON body as an object, or a clear BadAction (400): not JSON, not an
    object, nested too deeply, or text with a broken character (a lone surrogate, which no
    database can store)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise BadAction("The request is nested too deeply.") from None
    if not isinstance(data, dict):
        raise BadAction("The request body must be a JSON object.")
    check_json_value(data)
    return data


def check_json_value(value: Any) -> None:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise BadAction("The request is nested too deeply.")
        if isinstance(item, str):
            if len(item) > MAX_JSON_STRING:
                raise BadAction(f"A text in the request is longer than {MAX_JSON_STRING} characters.")
            if _SURROGATE.search(item):
                raise BadAction("A text in the request has a broken character (a lone surrogate).")
        elif isinstance(item, dict):
            stack.extend((k, depth + 1) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
