"""JSON text, written and read fast (orjson, a maintained C library), for what the server
writes on every tap: a game's state, its event and patch, an answer.

``dumps`` falls back to the standard library where orjson refuses a value the standard one
writes (an integer wider than 64 bits or a lone surrogate, which only a hostile request sends),
so nothing that was written before is refused now.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # {1: ...} written as {"1": ...}, as the standard library does


def dumps_bytes(value: Any, default: Callable[[Any], Any] | None = None, options: int = 0) -> bytes:
    """``value`` as compact UTF-8 JSON."""
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS | options)
    except orjson.JSONEncodeError:
        return json.dumps(value, default=default, separators=(",", ":")).encode()


def dumps(value: Any) -> str:
    """``value`` as compact JSON text."""
    return dumps_bytes(value).decode()


def loads(text: str | bytes) -> Any:
    """JSON text the server wrote itself (a state, an event) read back; the standard library
    reads what orjson refuses (an escaped lone surrogate, written by the fallback above)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
