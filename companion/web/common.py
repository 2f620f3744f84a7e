"""What the API and the pages share: the store, tokens, the join URL, QR codes, actions."""

from __future__ import annotations

import io
import ipaddress
import re
import socket
import subprocess
from typing import Any

import qrcode
import qrcode.image.svg
from flask import current_app, request

from companion.store import Store

CODE_RE = re.compile(r"^[A-Za-z0-9]{3,12}$")


def store() -> Store:
    return current_app.extensions["companion_store"]


def normal_code(code: str) -> str:
    return code.upper()


def _is_loopback(host: str) -> bool:
    name = host.rsplit(":", 1)[0].strip("[]") if host.count(":") <= 1 or host.startswith("[") else host
    if name in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's LAN IPv4 address, found without sending any packet."""
    try:
        out = subprocess.run(["ip", "-o", "-4", "addr", "show", "scope", "global"],
                             capture_output=True, text=True, timeout=2).stdout
        for line in out.splitlines():
            match = re.search(r"inet (\d+\.\d+\.\d+\.\d+)/", line)
            if match:
                return match.group(1)
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        for addr in socket.gethostbyname_ex(socket.gethostname())[2]:
            if not addr.startswith("127."):
                return addr
    except OSError:
        pass
    return None


def base_url() -> str:
    """Where a phone can reach this site: configured URL, else the request's host if a phone
    could use it, else this machine's LAN address with the request's port."""
    configured = current_app.config.get("COMPANION_PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    host = request.host
    if not _is_loopback(host):
        return f"{request.scheme}://{host}"
    port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else None
    lan = lan_address()
    if lan:
        return f"{request.scheme}://{lan}" + (f":{port}" if port else "")
    return f"{request.scheme}://{host}"


def join_url(code: str) -> str:
    return f"{base_url()}/join/{code}"


def qr_svg(data: str) -> str:
    """An inline SVG QR code (no Pillow needed)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    svg = buffer.getvalue().decode()
    return svg[svg.index("<svg"):]  # drop the XML declaration so it can sit inside HTML


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


# Form fields whose values are whole numbers / booleans / lists of whole numbers.
INT_FIELDS = {"player", "delta", "count", "instance", "to", "roll", "treasures", "hand_gold", "level"}
BOOL_FIELDS = {"equipped", "pick_first", "forced", "on", "helper_too"}
LIST_FIELDS = {"instances", "items", "bigger_share"}
MONSTER_INDEX_TYPES = {"enhance", "run_away", "remove_monster"}


def _number(value: str) -> Any:
    value = value.strip()
    return int(value) if re.fullmatch(r"-?\d{1,6}", value) else value


def action_from_form(form) -> dict:
    """Turn an HTML form into the same action JSON the API takes.

    ``card.name=Sword`` style fields build an inline card; a plain ``card``/``monster`` field
    is a catalog id. Empty fields are left out, so one form can offer both.
    """
    action: dict[str, Any] = {}
    kind = form.get("type", "")
    for key in form.keys():
        if key in ("csrf_token", "next") or key.startswith("_"):
            continue
        values = [v for v in form.getlist(key) if v != ""]
        if not values:
            continue
        if "." in key:
            outer, inner = key.split(".", 1)
            target = action.setdefault(outer, {})
            if isinstance(target, dict):
                if inner in ("big", "mate"):
                    target[inner] = values[-1] in ("true", "on", "1")
                elif inner.startswith("requires."):
                    target.setdefault("requires", {})[inner.split(".", 1)[1]] = values[-1]
                else:
                    target[inner] = _number(values[-1])
            continue
        value = values[-1]
        if key in LIST_FIELDS:
            action[key] = [_number(v) for v in values]
        elif key in INT_FIELDS or (key == "monster" and kind in MONSTER_INDEX_TYPES):
            action[key] = _number(value)
        elif key in BOOL_FIELDS:
            action[key] = value in ("true", "on", "1")
        else:
            action[key] = value
    return action
