"""House cards: a table's own cards."""

from __future__ import annotations

import json
from typing import Any

from .. import cards
from ..action_models import card_facts
from ..core import checks, reducer
from ..errors import BadAction, RuleViolation, TooLarge
from ..frozen import is_frozen
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


def _house_cards(state: dict, many: list) -> list[dict]:
    """House cards from their facts, each checked and given its id (read only); refused if
    the table, or an earlier one of ``many``, already has that name."""
    found: list[dict] = []
    for facts in many:
        found.append(_house_card(state, facts, besides=found))
    return found


def _house_card(state: dict, facts: Any, *, besides: list = ()) -> dict:
    """A house card from its facts (an inline card model, or its JSON), checked and given its
    id; refused if the table (or ``besides``) already has one of that name."""
    data = dict(card_facts(facts), set="house")
    data.pop("id", None)
    try:
        card = cards.supplied().validate(data)
    except cards.InvalidCard as exc:
        if exc.field == "name":
            raise BadAction(N_("The house card %(card)s needs letters or digits in its name."),
                            card=exc.card) from None
        raise BadAction(N_("The house card %(card)s does not fit the card rules: check its field "
                           "'%(field)s'."), card=exc.card, field=exc.field or "?") from None
    if any(c["id"] == card["id"] for c in (*state["house_cards"], *besides)):
        raise BadAction(N_("This table already has a house card called %(card)s."), card=card["name"])
    return card


MAX_HOUSE_CARDS = 500  # far more than any table makes; keeps every game small to store
# What a table's house cards may take as stored (JSON). The store keeps a game under 1 MB
# (store.MAX_STATE_BYTES) and refuses any change past it: with house cards bounded here, and
# what one event may name bounded too (NAMED_IN_EVENT), a long game and its log still have
# more than half of that, so house cards can never make every action answer 413.
MAX_HOUSE_CARDS_BYTES = 400_000
NAMED_IN_EVENT = 10  # card names an import's history line gives; the count says the rest

_SIZES: dict[int, tuple[dict, int]] = {}  # id of a frozen card -> (the card, its size)


def card_size(card: dict) -> int:
    """A card's size as the store writes it. A frozen card (the stored state's) is measured
    once: it is shared by every version of the game and can never change."""
    if not is_frozen(card):
        return len(json.dumps(card))
    found = _SIZES.get(id(card))
    if found is None or found[0] is not card:
        if len(_SIZES) > 50_000:
            _SIZES.clear()
        found = _SIZES[id(card)] = (card, len(json.dumps(card)))
    return found[1]


def _room_for_house_cards(state: dict, count: int) -> None:
    if len(state["house_cards"]) + count > MAX_HOUSE_CARDS:
        raise TooLarge(N_("A table may have at most %(most)s house cards; this one has %(count)s."),
                       most=MAX_HOUSE_CARDS, count=len(state["house_cards"]))


def _held(state: dict) -> int:
    return sum(card_size(c) for c in state["house_cards"])


def _room_for_bytes(held: int, new_cards: list[dict]) -> None:
    """Refused whole (nothing is added): the table's house cards stay within their bound."""
    if held + sum(card_size(c) for c in new_cards) > MAX_HOUSE_CARDS_BYTES:
        raise TooLarge(N_("These house cards do not fit: a table's house cards may take %(most)s KB, "
                          "and this table's take %(held)s KB. Remove some house cards first."),
                       most=MAX_HOUSE_CARDS_BYTES // 1000, held=-(-held // 1000))


def _added_by(state: dict, cards: list[dict], actor) -> None:
    """Who added each card, for remove_house_card: a seat, or nobody for the host's cards."""
    if actor.host or actor.player is None:
        return
    owners = dict(state.get("house_card_owners") or {})
    owners.update({card["id"]: actor.player for card in cards})
    state["house_card_owners"] = owners


event_words("add_house_card", N_("House card added: %(card)s (%(card_kind)s)"))


@checks("add_house_card")
def _add_house_card_check(state, action, actor, ctx):
    _room_for_house_cards(state, 1)
    _room_for_bytes(_held(state), [_house_card(state, action.card)])


@reducer("add_house_card")
def _add_house_card(state, action, actor, ctx):
    card = _house_card(state, action.card)
    state["house_cards"].append(card)
    _added_by(state, [card], actor)
    return event("add_house_card", card=card["name"], card_id=card["id"], card_kind=kind_said(card["kind"]))


event_words("import_house_cards", N_("House cards imported: %(cards)s"))
event_words("import_house_cards_more", N_("House cards imported: %(cards)s and %(more)s more"))


@checks("import_house_cards")
def _import_house_cards_check(state, action, actor, ctx):
    _room_for_house_cards(state, len(action.cards))
    _room_for_bytes(_held(state), _house_cards(state, action.cards))


@reducer("import_house_cards")
def _import_house_cards(state, action, actor, ctx):
    added = _house_cards(state, action.cards)
    state["house_cards"].extend(added)
    _added_by(state, added, actor)
    names = [card["name"] for card in added]
    if len(names) > NAMED_IN_EVENT:  # a history line stays small, however many were imported
        return event("import_house_cards_more", cards=", ".join(names[:NAMED_IN_EVENT]),
                     more=len(names) - NAMED_IN_EVENT, count=len(names))
    return event("import_house_cards", cards=", ".join(names), count=len(names))


event_words("remove_house_card", N_("House card removed: %(card)s (%(card_kind)s)"))


@checks("remove_house_card")
def _remove_house_card_check(state, action, actor, ctx):
    """Take a house card off the table: the host, or the seat that added it.

    Ruling (owner-last-word): a house card is a house rule, and the rulebooks leave house
    rules to the table with the game's owner having the last word. Here the host is the
    owner; a player may take back a card they added themselves, not one somebody else did.
    """
    card_id = action.card
    card = next((c for c in state["house_cards"] if c["id"] == card_id), None)
    if card is None:
        raise BadAction(N_("This table has no house card %(card)s."), card=card_id)
    owners = state.get("house_card_owners") or {}
    added_by = owners.get(card_id)
    if not actor.host and (added_by is None or added_by != actor.player):
        by = next((p for p in state["players"] if p["id"] == added_by), None)
        if by is None:
            raise RuleViolation("owner-last-word", N_("only the host takes %(card)s off the table"),
                                card=card["name"])
        raise RuleViolation("owner-last-word", N_("%(name)s added %(card)s: only %(name)s or the host "
                                                  "takes it off the table"),
                            name=by["name"], card=card["name"], player=by["id"], sex=by["sex"])


@reducer("remove_house_card")
def _remove_house_card(state, action, actor, ctx):
    card_id = action.card
    card = next(c for c in state["house_cards"] if c["id"] == card_id)
    owners = state.get("house_card_owners") or {}
    state["house_cards"] = [c for c in state["house_cards"] if c["id"] != card_id]
    if card_id in owners:
        state["house_card_owners"] = {k: v for k, v in owners.items() if k != card_id}
    return event("remove_house_card", card=card["name"], card_id=card_id, card_kind=kind_said(card["kind"]))
