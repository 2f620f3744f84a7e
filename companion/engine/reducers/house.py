"""House cards (issue 4): a table's own cards."""

from __future__ import annotations

from typing import Any

from ..core import reducer
from ..errors import BadAction, TooLarge
from ..words import N_, event, event_words, said

# A card's kind as the history names it (the same words as the pages' ``term`` macro).
KIND_WORDS = {
    "monster": N_("monster"), "curse": N_("curse"), "enhancer": N_("enhancer"), "item": N_("item"),
    "one-shot": N_("one-shot"), "race": N_("race"), "class": N_("class"), "half-breed": N_("half-breed"),
    "super-munchkin": N_("super munchkin"), "ally": N_("ally"), "go-up-a-level": N_("go up a level"),
    "other": N_("other"),
}


def kind_said(kind: str) -> dict | str:
    """A card kind in words (an unknown kind, which validation never lets through, as is)."""
    return said(KIND_WORDS[kind]) if kind in KIND_WORDS else kind


def _house_card(state: dict, data: Any) -> dict:
    from companion.catalog import CatalogError, validate_card  # data validation, not I/O

    if not isinstance(data, dict):
        raise BadAction(N_("A house card must be given as its facts (a JSON object)."))
    data = dict(data, set="house")
    data.pop("id", None)
    try:
        card = validate_card(data, where="house card")
    except CatalogError as exc:
        # What the catalog found, said here from its facts (its own message is for card files).
        if exc.field == "name":
            raise BadAction(N_("The house card %(card)s needs letters or digits in its name."),
                            card=exc.card) from None
        raise BadAction(N_("The house card %(card)s does not fit the card rules: check its field "
                           "'%(field)s'."), card=exc.card, field=exc.field or "?") from None
    if any(c["id"] == card["id"] for c in state["house_cards"]):
        raise BadAction(N_("This table already has a house card called %(card)s."), card=card["name"])
    return card


MAX_HOUSE_CARDS = 500  # far more than any table makes; keeps every game small to store


def _room_for_house_cards(state: dict, count: int) -> None:
    if len(state["house_cards"]) + count > MAX_HOUSE_CARDS:
        raise TooLarge(N_("A table may have at most %(most)s house cards; this one has %(count)s."),
                       most=MAX_HOUSE_CARDS, count=len(state["house_cards"]))


event_words("add_house_card", N_("House card added: %(card)s (%(card_kind)s)"))


@reducer("add_house_card")
def _add_house_card(state, action, actor, ctx):
    _room_for_house_cards(state, 1)
    card = _house_card(state, action.get("card"))
    state["house_cards"].append(card)
    return event("add_house_card", card=card["name"], card_id=card["id"], card_kind=kind_said(card["kind"]))


event_words("import_house_cards", N_("House cards imported: %(cards)s"))


@reducer("import_house_cards")
def _import_house_cards(state, action, actor, ctx):
    cards = action.get("cards")
    if not isinstance(cards, list) or not cards or len(cards) > 500:
        raise BadAction(N_("'cards' must be a list of %(lo)s to %(hi)s house cards."), lo=1, hi=500)
    _room_for_house_cards(state, len(cards))
    added = []
    for data in cards:
        card = _house_card(state, data)
        state["house_cards"].append(card)
        added.append(card["name"])
    return event("import_house_cards", cards=", ".join(added), count=len(added))
