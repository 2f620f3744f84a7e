"""The action vocabulary as types: one pydantic model per action ``type``, in one union.

An action is parsed once, where it enters (``parse_action``, called by ``engine.apply``): a
JSON object from the API or the dict ``web.common.action_from_form`` builds from a form. A
malformed action is refused there with a ``BadAction`` whose one short sentence names the
field ("'delta' must be a whole number between -9 and 9."); the reducers then read data whose
shape is known. ``action_json_schema()`` is the same vocabulary as a JSON Schema (served at
``GET /api/schema``).

Field names are a public interface (phones, forms and the API post them): they are the names
the reducers in ``actions.py`` read. Every whole number has bounds, every string and list a
maximum length, no string may hold a lone surrogate, and unknown keys are refused (a typo such
as ``"ammount"`` is an error rather than silently ignored).

A card (``card``, or ``monster`` when a fight starts or grows) is a catalog id such as
``"classic/drooling-slime"`` or a card's facts inline: the catalog's card models
(``companion.catalog.schema``) with ``set`` optional (a card without one is a house card) and
no ``summary`` needed. ``monster`` is a card in ``fight``/``add_monster`` and a monster's
index in ``enhance``/``remove_monster``/``run_away``: each model says which.
"""

from __future__ import annotations

import copy
import types
from typing import Annotated, Any, Literal, Optional, Sequence, Union, get_args, get_origin

import annotated_types
from pydantic import (BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, StrictBool,
                      StrictInt, Tag, TypeAdapter, ValidationError, create_model)
from pydantic.fields import FieldInfo

from companion.catalog import schema as card_schema

from .errors import BadAction
from .vocab import KINDS, CardSet, LevelSource, Sex, Side, Variant

# --- bounds --------------------------------------------------------------------------------

ID_MAX = 1_000_000_000  # player and card instance ids come from the game's counter
MAX_MONSTERS = 100
MAX_NAME_INPUT = 200  # before spaces are folded; the engine then allows 40 characters
MAX_CARD_ID = 120
MAX_LIST = 100
MAX_HOUSE_IMPORT = 500

# --- field types ---------------------------------------------------------------------------

UnicodeText = card_schema.UnicodeText
PlayerId = Annotated[StrictInt, Field(ge=1, le=ID_MAX, description="a player id")]
InstanceId = Annotated[StrictInt, Field(ge=1, le=ID_MAX, description="a card instance id")]
MonsterIndex = Annotated[StrictInt, Field(ge=0, le=MAX_MONSTERS - 1,
                                          description="the index of a monster in the fight")]
PlayerName = Annotated[UnicodeText, Field(min_length=1, max_length=MAX_NAME_INPUT)]
CardId = Annotated[UnicodeText, Field(min_length=1, max_length=MAX_CARD_ID,
                                      description="a catalog or house card id, like 'classic/drooling-slime'")]

ID_TAG, INLINE_TAG = "catalog id", "inline card"  # union tags: a space never occurs in a field name


def _inline_model(model: type[BaseModel]) -> type[BaseModel]:
    """The catalog's model of one kind with ``set`` optional (no set: a house card)."""
    return create_model(f"Inline{model.__name__}", __base__=model, __module__=__name__,
                        set=(CardSet, "house"))


INLINE_MODELS: dict[str, type[BaseModel]] = {kind: _inline_model(card_schema.MODELS[kind]) for kind in KINDS}


def _card_tag(kind: Any) -> str | None:
    return f"{kind} card" if isinstance(kind, str) else None


def _inline_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        kind = value.get("kind")
        return _card_tag(card_schema.normalize_kind(kind) if isinstance(kind, str) else None)
    return _card_tag(getattr(value, "kind", None))


def _normalize_inline(value: Any) -> Any:
    """Kinds are matched loosely, as the catalog does ("Monster Enhancer" -> "enhancer")."""
    if isinstance(value, dict) and isinstance(value.get("kind"), str):
        kind = card_schema.normalize_kind(value["kind"])
        if kind != value["kind"]:
            value = dict(value, kind=kind)
    return value


InlineCard = Annotated[
    Union[tuple(Annotated[INLINE_MODELS[kind], Tag(_card_tag(kind))] for kind in KINDS)],  # type: ignore[misc]
    Discriminator(_inline_kind, custom_error_type="card_kind",
                  custom_error_message="a card needs a 'kind'"),
    BeforeValidator(_normalize_inline),
]


def _spec_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return ID_TAG
    if isinstance(value, (dict, BaseModel)):
        return INLINE_TAG
    return None


CardSpec = Annotated[
    Union[Annotated[CardId, Tag(ID_TAG)], Annotated[InlineCard, Tag(INLINE_TAG)]],
    Discriminator(_spec_kind, custom_error_type="card_spec",
                  custom_error_message="a card is a catalog id or a card's facts"),
]

# --- the actions ---------------------------------------------------------------------------


class ActionModel(BaseModel):
    """Base of every action: strict types, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=False)

    def data(self) -> dict:
        """The action as the JSON the API takes (only the fields that were given)."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class LevelAction(ActionModel):
    """Move a player's level; only a kill may bring the winning level."""
    type: Literal["level"]
    player: PlayerId
    delta: Annotated[StrictInt, Field(ge=-9, le=9)]
    source: LevelSource = "adjust"


class GearAction(ActionModel):
    """Adjust the gear bonus by hand (cards the app does not track)."""
    type: Literal["gear"]
    player: PlayerId
    delta: Annotated[StrictInt, Field(ge=-50, le=50)]


class SetSexAction(ActionModel):
    type: Literal["set_sex"]
    player: PlayerId
    sex: Sex


class SetTurnAction(ActionModel):
    """Give the turn to a player (the player whose turn it is, or the host)."""
    type: Literal["set_turn"]
    player: PlayerId


class EndTurnAction(ActionModel):
    """End the turn: Charity, then the next player. bigger_share: who gets the bigger shares."""
    type: Literal["end_turn"]
    player: PlayerId
    bigger_share: Optional[list[PlayerId]] = Field(default=None, max_length=20)


class SetHandAction(ActionModel):
    type: Literal["set_hand"]
    player: PlayerId
    count: Annotated[StrictInt, Field(ge=0, le=60)]


class SetVariantAction(ActionModel):
    """Switch an optional rule of the edition (host only)."""
    type: Literal["set_variant"]
    variant: Variant
    on: StrictBool


class RenameAction(ActionModel):
    type: Literal["rename"]
    player: PlayerId
    name: PlayerName


class RemovePlayerAction(ActionModel):
    """Take a seat away (host only)."""
    type: Literal["remove_player"]
    player: PlayerId


class LockTableAction(ActionModel):
    """Lock or unlock the table against new joins (host only)."""
    type: Literal["lock_table"]
    locked: StrictBool


class PlayAction(ActionModel):
    """Put a card in front of a player, or play a curse or Go Up a Level on them."""
    type: Literal["play"]
    player: PlayerId
    card: CardSpec


class DiscardAction(ActionModel):
    type: Literal["discard"]
    player: PlayerId
    instance: InstanceId


class EquipAction(ActionModel):
    type: Literal["equip"]
    player: PlayerId
    instance: InstanceId
    equipped: StrictBool


class SellAction(ActionModel):
    """Sell items in play (instances) and straight from the hand (hand_gold) for levels."""
    type: Literal["sell"]
    player: PlayerId
    instances: list[InstanceId] = Field(default_factory=list, max_length=MAX_LIST)
    hand_gold: Annotated[StrictInt, Field(ge=0, le=100_000)] = 0


class GiveAction(ActionModel):
    type: Literal["give"]
    player: PlayerId
    instance: InstanceId
    to: PlayerId


class DieAction(ActionModel):
    type: Literal["die"]
    player: PlayerId


class FightAction(ActionModel):
    """Start a fight; level overrides the printed level of the monster card."""
    type: Literal["fight"]
    player: PlayerId
    monster: CardSpec
    level: Optional[Annotated[StrictInt, Field(ge=0, le=99)]] = None


class AddMonsterAction(ActionModel):
    type: Literal["add_monster"]
    monster: CardSpec
    level: Optional[Annotated[StrictInt, Field(ge=0, le=99)]] = None


class EnhanceAction(ActionModel):
    """A monster enhancer on the monster at index monster (may be left out when there is one)."""
    type: Literal["enhance"]
    monster: MonsterIndex = None  # type: ignore[assignment]  # left out: the only monster
    card: CardSpec


class RemoveMonsterAction(ActionModel):
    type: Literal["remove_monster"]
    monster: MonsterIndex = None  # type: ignore[assignment]  # left out: the only monster


class OneShotAction(ActionModel):
    type: Literal["one_shot"]
    side: Side
    card: CardSpec


class HelpAction(ActionModel):
    type: Literal["help"]
    player: PlayerId
    forced: StrictBool = False


class StopHelpingAction(ActionModel):
    type: Literal["stop_helping"]


class ResolveAction(ActionModel):
    type: Literal["resolve"]


class RunAwayAction(ActionModel):
    """Roll to escape the monster at index monster; without a roll the app rolls."""
    type: Literal["run_away"]
    player: PlayerId
    monster: MonsterIndex = None  # type: ignore[assignment]  # left out: the only monster
    roll: Optional[Annotated[StrictInt, Field(ge=1, le=6)]] = None


class SacrificeAllyAction(ActionModel):
    type: Literal["sacrifice_ally"]
    player: PlayerId
    helper_too: StrictBool = False


class CloseFightAction(ActionModel):
    type: Literal["close_fight"]


class OfferAction(ActionModel):
    """The fighter's bribe to a possible helper (to): treasures, items, or both."""
    type: Literal["offer"]
    to: PlayerId
    treasures: Annotated[StrictInt, Field(ge=0, le=99)] = 0
    pick_first: StrictBool = False
    items: list[InstanceId] = Field(default_factory=list, max_length=MAX_LIST)


class AcceptOfferAction(ActionModel):
    type: Literal["accept_offer"]
    player: PlayerId


class DeclineOfferAction(ActionModel):
    type: Literal["decline_offer"]
    player: PlayerId


class AddHouseCardAction(ActionModel):
    """A table's own card, given as its facts (its id becomes house/<slug of its name>)."""
    type: Literal["add_house_card"]
    card: InlineCard


class ImportHouseCardsAction(ActionModel):
    type: Literal["import_house_cards"]
    cards: list[InlineCard] = Field(min_length=1, max_length=MAX_HOUSE_IMPORT)


MODELS: tuple[type[ActionModel], ...] = (
    LevelAction, GearAction, SetSexAction, SetTurnAction, EndTurnAction, SetHandAction,
    SetVariantAction, RenameAction, RemovePlayerAction, LockTableAction, PlayAction, DiscardAction,
    EquipAction, SellAction, GiveAction, DieAction, FightAction, AddMonsterAction, EnhanceAction,
    RemoveMonsterAction, OneShotAction, HelpAction, StopHelpingAction, ResolveAction,
    RunAwayAction, SacrificeAllyAction, CloseFightAction, OfferAction, AcceptOfferAction,
    DeclineOfferAction, AddHouseCardAction, ImportHouseCardsAction,
)
BY_TYPE: dict[str, type[ActionModel]] = {get_args(m.model_fields["type"].annotation)[0]: m for m in MODELS}
ACTION_TYPES: tuple[str, ...] = tuple(BY_TYPE)

Action = Annotated[Union[MODELS], Field(discriminator="type")]  # type: ignore[valid-type]
ACTION_ADAPTER: TypeAdapter = TypeAdapter(Action)


# --- parsing -------------------------------------------------------------------------------

def parse_action(data: Any) -> ActionModel:
    """The typed action for ``data`` (a dict, or an action model already parsed).

    Raises ``BadAction`` with one short sentence naming the field; never anything else.
    """
    if isinstance(data, ActionModel):
        return data
    if not isinstance(data, dict):
        raise BadAction("An action must be a JSON object with a 'type'.")
    kind = data.get("type")
    if kind is not None and not (isinstance(kind, str) and kind in BY_TYPE):
        # Answered here: pydantic would write the repr of any value into its error.
        raise BadAction(_describe({"type": "union_tag_invalid", "loc": ()}, data))
    try:
        return ACTION_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise BadAction(explain(exc, data)) from None
    except RecursionError:
        raise BadAction("That action is nested too deeply.") from None


_SCHEMA: list[dict] = []


def action_json_schema() -> dict:
    """Every action as a JSON Schema (a ``oneOf`` over the action types, keyed on ``type``)."""
    if not _SCHEMA:
        _SCHEMA.append(ACTION_ADAPTER.json_schema(ref_template="#/$defs/{model}"))
    return copy.deepcopy(_SCHEMA[0])


# --- words for what went wrong ------------------------------------------------------------

def _type_name(data: Any) -> str | None:
    kind = data.get("type") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


def _path(loc: Sequence[Any]) -> str:
    """``('card', 'inline card', 'item card', 'requires', 'race')`` -> ``card.requires.race``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif " " in str(part):  # a union tag of ours, not a field
            continue
        else:
            out += ("." if out else "") + str(part)
    return out


def _unwrap(tp: Any, meta: list) -> Any:
    """Strip Annotated (collecting its metadata) and Optional."""
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            args = get_args(tp)
            meta.extend(args[1:])
            tp = args[0]
        elif origin in (Union, types.UnionType):
            members = [a for a in get_args(tp) if a is not type(None)]
            if len(members) != 1:
                return tp
            tp = members[0]
        else:
            return tp


def _model_field(model: type[BaseModel], name: str) -> FieldInfo | None:
    for key, field in model.model_fields.items():
        if name in (key, field.alias):
            return field
    return None


def _union_member(tp: Any, key: Any) -> Any:
    """The member of a union that ``key`` (a tag of ours, or a field name) leads into."""
    members = get_args(tp)
    for member in members:  # a tag names the member
        if get_origin(member) is Annotated and any(getattr(m, "tag", None) == key for m in get_args(member)[1:]):
            return member
    for member in members:  # else the first model member that has the field
        inner = _unwrap(member, [])
        if get_origin(inner) in (Union, types.UnionType):
            found = _union_member(inner, key)
            if found is not None:
                return found
        elif isinstance(inner, type) and issubclass(inner, BaseModel) and _model_field(inner, str(key)):
            return member
    return None


def field_type(root: Any, loc: Sequence[Any]) -> tuple[Any, list]:
    """The type (and its Annotated metadata) at ``loc`` inside ``root``; (None, []) if unknown.

    ``loc`` is a pydantic error location or a form field's dotted path: field names, list
    indexes and our union tags ('inline card', 'item card').
    """
    meta: list = []
    tp = root
    for key in loc:
        tp = _unwrap(tp, meta)
        if get_origin(tp) in (Union, types.UnionType):
            tp = _union_member(tp, key)
            if tp is None:
                return None, []
            if isinstance(key, str) and " " in key:
                continue  # the tag only chose the member
            tp = _unwrap(tp, meta)
        if isinstance(key, int):
            if get_origin(tp) is not list:
                return None, []
            tp, meta = get_args(tp)[0], []
        elif isinstance(tp, type) and issubclass(tp, BaseModel):
            field = _model_field(tp, key)
            if field is None:
                return None, []
            meta = list(field.metadata) + ([field] if field.description else [])
            tp = field.annotation
        else:
            return None, []
    return _unwrap(tp, meta), meta


def _bounds(meta: list) -> tuple[Any, Any, str | None]:
    lo = hi = desc = None
    for m in meta:
        if isinstance(m, annotated_types.Ge):
            lo = m.ge
        elif isinstance(m, annotated_types.Le):
            hi = m.le
        elif isinstance(m, FieldInfo):
            desc = desc or m.description
            for inner in m.metadata:
                lo = inner.ge if isinstance(inner, annotated_types.Ge) else lo
                hi = inner.le if isinstance(inner, annotated_types.Le) else hi
    return lo, hi, desc


def _whole_number(field: str, meta: list) -> str:
    lo, hi, desc = _bounds(meta)
    if desc:
        return f"'{field}' must be {desc} (a whole number)."
    if lo is not None and hi is not None:
        return f"'{field}' must be a whole number between {lo} and {hi}."
    if lo is not None:
        return f"'{field}' must be a whole number, {lo} or more."
    return f"'{field}' must be a whole number."


_KIND_WORDS = ", ".join(KINDS)


def _card_kind_message(field: str, value: Any) -> str:
    where = field or "card"
    if not isinstance(value, dict):
        return f"'{where}' must be a card's facts (a JSON object with a 'kind')."
    kind = value.get("kind")
    if kind is None:
        return f"'{where}.kind' is required: one of {_KIND_WORDS}."
    if isinstance(kind, str) and len(kind) <= 40:
        return f"'{where}.kind': {kind!r} is not a kind; one of {_KIND_WORDS}."
    return f"'{where}.kind' must be one of {_KIND_WORDS}."


def _describe(err: dict, data: Any, root: Any = None) -> str:
    kind = err["type"]
    loc = tuple(err["loc"])
    ctx = err.get("ctx") or {}
    if root is not None:  # another request body (the calculator's): the loc is all fields
        return _describe_field(err, kind, loc, ctx, root, _path(loc), "the request")
    if not loc:  # the union on 'type' itself
        action_type = _type_name(data)
        if kind == "union_tag_not_found":
            return "An action needs a 'type' (like 'level' or 'play')."
        if action_type is not None and len(action_type) <= 40:
            return f"Unknown action type {action_type!r}."
        if action_type is not None:
            return "Unknown action type."
        return "'type' must be a string naming the action (like 'level' or 'play')."
    return _describe_field(err, kind, loc[1:], ctx, BY_TYPE.get(str(loc[0])), _path(loc[1:]),
                           f"a '{loc[0]}' action")


def _describe_field(err: dict, kind: str, loc: tuple, ctx: dict, root: Any, field: str,
                    what: str) -> str:
    _tp, meta = field_type(root, loc) if root is not None else (None, [])
    if not field:
        return f"The body of {what} must be a JSON object." if kind in (
            "model_type", "model_attributes_type", "dict_type") else f"{what.capitalize()} is not valid."
    if len(loc) >= 2 and loc[-1] == "[key]":  # a key of a mapping (the calculator's variants)
        key = loc[-2] if isinstance(loc[-2], str) and len(loc[-2]) <= 40 else "?"
        return f"'{_path(loc[:-2])}' has an unknown key {key!r}: the keys are {ctx.get('expected', '')}."
    if kind == "card_spec":
        return (f"'{field}' must be a catalog id (like 'classic/drooling-slime') "
                "or a card's facts (a JSON object).")
    if kind == "card_kind":
        return _card_kind_message(field, err.get("input"))
    if kind == "missing":
        return f"'{field}' is required."
    if kind == "extra_forbidden":
        parent = _path(loc[:-1])
        if parent:
            return f"'{field}' is not a field of '{parent}' (a typo?)."
        return f"'{field}' is not a field of {what} (a typo?)."
    if kind in ("int_type", "int_parsing", "int_from_float", "greater_than_equal",
                "less_than_equal", "greater_than", "less_than"):
        return _whole_number(field, meta)
    if kind in ("bool_type", "bool_parsing"):
        return f"'{field}' must be true or false."
    if kind == "string_type":
        return f"'{field}' must be a string."
    if kind == "string_too_short":
        return f"'{field}' must not be empty."
    if kind == "string_too_long":
        return f"'{field}' may have at most {ctx.get('max_length')} characters."
    if kind == "string_pattern_mismatch":
        return f"'{field}' needs letters or digits (a name like 'elf' or 'chess-club')."
    if kind in ("literal_error", "enum"):
        return f"'{field}' must be one of {ctx.get('expected', '')}."
    if kind == "list_type":
        return f"'{field}' must be a list."
    if kind == "too_long":
        if isinstance(err.get("input"), str):
            return f"'{field}' may have at most {ctx.get('max_length')} characters."
        return f"'{field}' may hold at most {ctx.get('max_length')} entries."
    if kind == "too_short":
        least = ctx.get("min_length")
        if isinstance(err.get("input"), str):
            return f"'{field}' must not be empty."
        return f"'{field}' needs at least {least} entr{'y' if least == 1 else 'ies'}."
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"'{field}' must be a JSON object."
    if kind == "recursion_loop":
        return f"'{field}' is nested too deeply."
    message = str(err.get("msg", "is not valid"))
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    if message == card_schema.LONE_SURROGATE:
        return f"'{field}' {message}."
    return f"'{field}': {message.rstrip('.')}."


def explain(exc: ValidationError, data: Any = None, root: Any = None) -> str:
    """One short sentence for the first thing wrong (and how many more there are).

    ``root`` is the model ``data`` was validated against, for a body that is not an action.
    """
    errors = exc.errors(include_url=False)
    message = _describe(errors[0], data, root)
    if len(errors) > 1:
        message = message.rstrip(".") + f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})."
    return message


__all__ = [
    "ACTION_ADAPTER", "ACTION_TYPES", "Action", "ActionModel", "BY_TYPE", "CardSpec", "INLINE_MODELS",
    "InlineCard", "MODELS", "action_json_schema", "explain", "field_type", "parse_action",
] + [m.__name__ for m in MODELS]
