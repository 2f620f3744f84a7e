"""House cards (issue 4): a table's own cards."""

from __future__ import annotations

from typing import Any

from ..core import reducer
from ..errors import BadAction, TooLarge


def _house_card(state: dict, data: Any) -> dict:
    from companion.catalog import CatalogError, validate_card  # data validation, not I/O

    if not isinstance(data, dict):
        raise BadAction("A house card must be given as its facts (a JSON object).")
    data = dict(data, set="house")
    data.pop("id", None)
    try:
        card = validate_card(data, where="house card")
    except CatalogError as exc:
        raise BadAction(str(exc)) from None
    if any(c["id"] == card["id"] for c in state["house_cards"]):
        raise BadAction(f"This table already has a house card called {card['name']}.")
    return card


MAX_HOUSE_CARDS = 500  # far more than any table makes; keeps every game small to store


def _room_for_house_cards(state: dict, count: int) -> None:
    if len(state["house_cards"]) + count > MAX_HOUSE_CARDS:
        raise TooLarge(f"A table may have at most {MAX_HOUSE_CARDS} house cards; this one has "
                       f"{len(state['house_cards'])}.")


@reducer("add_house_card")
def _add_house_card(state, action, actor, ctx):
    _room_for_house_cards(state, 1)
    card = _house_card(state, action.get("card"))
    state["house_cards"].append(card)
    return f"House card added: {card['name']} ({card['kind']})"


@reducer("import_house_cards")
def _import_house_cards(state, action, actor, ctx):
    cards = action.get("cards")
    if not isinstance(cards, list) or not cards or len(cards) > 500:
        raise BadAction("'cards' must be a list of 1 to 500 house cards.")
    _room_for_house_cards(state, len(cards))
    added = []
    for data in cards:
        card = _house_card(state, data)
        state["house_cards"].append(card)
        added.append(card["name"])
    return f"House cards imported: {', '.join(added)}"
