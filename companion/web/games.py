"""Where a request finds its game: the app's store, the game code a path names, and the
seat's bearer token."""

from __future__ import annotations

import re

from flask import current_app, request

from companion.store import Store

CODE_RE = re.compile(r"^[A-Za-z0-9]{3,12}$")


def store() -> Store:
    return current_app.extensions["companion_store"]


def normal_code(code: str) -> str:
    return code.upper()


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None
