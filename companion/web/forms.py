"""How an HTML form becomes an action: the same JSON the API takes, each field typed by the
action's model."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, get_args, get_origin
from urllib.parse import parse_qsl

from werkzeug.datastructures import MultiDict

from companion.engine.card_schema import normalize_kind
from companion.engine.action_models import BY_TYPE, INLINE_TAG, field_type
from companion.engine.vocab import KINDS


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


def _with_pressed_button(form):
    """One form may offer several actions that share a choice (the card page: where the card
    came from, then Fight / Add to my cards ...): the pressed button's ``_fields`` holds its
    own fields as a query string, and ``_source`` ("hand", "door" or "body:<id>") becomes
    ``source`` (and ``body``)."""
    picked, source = form.get("_fields"), form.get("_source")
    if not picked and not source:
        return form
    merged = MultiDict(parse_qsl(picked or "", keep_blank_values=True))
    for key in form.keys():
        if key not in merged and key not in ("_fields", "_source"):
            merged.setlist(key, form.getlist(key))
    if source:
        kind, _, body = source.partition(":")
        merged["source"] = kind
        if body:
            merged["body"] = body
    return merged


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
    form = _with_pressed_button(form)
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
