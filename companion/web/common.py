"""What the API and the pages share: the store, tokens, the join URL, QR codes, actions."""

from __future__ import annotations

import io
import ipaddress
import re
import socket
import subprocess
from typing import Annotated, Any, Literal, get_args, get_origin

import qrcode
import qrcode.image.svg
from flask import current_app, request

from companion.engine import BadAction
from companion.catalog.schema import normalize_kind
from companion.engine.action_models import BY_TYPE, INLINE_TAG, field_type
from companion.engine.vocab import KINDS
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


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


def _form_int(value: str) -> Any:
    """A whole number typed in a form; anything else is left as text for the model to refuse."""
    value = value.strip()
    return int(value) if re.fullmatch(r"[-+]?\d{1,12}", value) else value


def _form_bool(value: str) -> bool:
    return value.strip().lower() in ("true", "on", "1", "yes")


def _form_shape(tp: Any) -> str:
    """How a form's text becomes the JSON value of a field of this type."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if tp is bool:
        return "bool"
    if tp is int:
        return "int"
    origin = get_origin(tp)
    if origin is list:
        return "list:" + _form_shape(get_args(tp)[0])
    if origin is Literal:
        if all(isinstance(a, bool) for a in get_args(tp)):
            return "bool"
        return "int" if all(type(a) is int for a in get_args(tp)) else "str"  # e.g. a winning level
    return "str"  # text, a word of the vocabulary, or a card's catalog id


def _convert(shape: str, values: list[str]) -> Any:
    if shape.startswith("list:"):
        return [_convert(shape[5:], [v]) for v in values]
    value = values[-1]
    if shape == "int":
        return _form_int(value)
    if shape == "bool":
        return _form_bool(value)
    return value


def action_from_form(form) -> dict:
    """Turn an HTML form into the same action JSON the API takes.

    The action's model (``companion.engine.action_models``) says what each field is: a whole
    number (``delta``, ``player``; ``monster`` where it is a monster's index), true/false
    (``on``, ``equipped``), a list (``instances``, ``items``: a checkbox per entry), or a card.
    A card is a catalog id in a plain ``card``/``monster`` field, or built from dotted fields
    (``card.name=Sword``, ``card.bonus=2``, ``card.requires.race=elf``, ``monster.level=8``),
    typed by the catalog's model of its ``kind``. Empty fields are left out, so one form can
    offer both. Text that is not a number where one is needed is passed on as it is, for the
    engine to refuse with a message naming the field. Never raises.
    """
    kind = form.get("type", "")
    model = BY_TYPE.get(kind)
    action: dict[str, Any] = {}

    def shape(path: tuple) -> str:
        tp, _meta = field_type(model, path) if model is not None else (None, [])
        return _form_shape(tp) if tp is not None else "guess"

    for key in form.keys():
        if key in ("csrf_token", "next") or key.startswith("_"):
            continue
        values = [v for v in form.getlist(key) if v != ""]
        if not values:
            continue
        if key == "type":
            action[key] = values[-1]
            continue
        outer, *inner = key.split(".")
        if not inner:
            found = shape((key,))
            action[key] = (_convert(found, values) if found != "guess"
                           else _form_int(values[-1]))  # unknown field: the model refuses it
            continue
        # A dotted field builds a card inline (card.name, monster.level, card.requires.race).
        card = action.setdefault(outer, {})
        if not isinstance(card, dict):
            continue  # both a catalog id and inline facts were sent: the id wins
        card_kind = normalize_kind(form.get(f"{outer}.kind", ""))
        tags = (INLINE_TAG, f"{card_kind} card") if card_kind in KINDS else ()
        found = shape((outer, *tags, *inner))
        target = card
        for part in inner[:-1]:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                break
        else:
            target[inner[-1]] = (_convert(found, values) if found != "guess"
                                 else _form_int(values[-1]))
    return action
