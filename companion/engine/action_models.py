"""The action vocabulary as types: one pydantic model per action ``type``, in one union.

An action is parsed once, where it enters (``parse_action``, called by ``engine.apply``): a
JSON object from the API or the dict ``web.forms.action_from_form`` builds from a form. A
malformed action is refused there with a ``BadAction`` whose one short sentence (a said, see
``words.py``) names the field ("'delta' must be a whole number between -9 and 9."); the reducers then get
the model itself and read its attributes, whose types and bounds are known.
``action_json_schema()`` is the same vocabulary as a JSON Schema (served at
``GET /api/schema``).

Field names are a public interface (phones, forms and the API post them): they are the
attributes the reducers (``reducers/``) read. A field left out reads as its default (mostly
None), so a reducer that must tell "left out" from a given value reads ``None``. Every whole number has bounds, every string and list a
maximum length, no string may hold a lone surrogate, and unknown keys are refused (a typo such
as ``"ammount"`` is an error rather than silently ignored).

A card (``card``, or ``monster`` when a fight starts or grows) is a catalog id such as
``"classic/drooling-slime"`` or a card's facts inline: the card schema's models
(``card_schema``) with ``set`` optional (a card without one is a house card) and
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

from . import card_schema
from .errors import BadAction
from .powers import MAX_BONUS as MAX_POWER_BONUS, POWER_IDS
from .words import N_, said, said_plural
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

# Where a card played comes from, as the phone asks it: the seat's own hand, the door (kicked
# open or drawn face up), or a dead player's body (``body`` names whose). Said alongside the
# older ``from_hand`` (hand: true; door, body: false), which stays.
CardSource = Literal["hand", "door", "body"]

ID_TAG, INLINE_TAG = "catalog id", "inline card"  # union tags: a space never occurs in a field name


def _inline_model(model: type[BaseModel]) -> type[BaseModel]:
    """The card schema's model of one kind with ``set`` optional (no set: a house card)."""
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
    """Kinds are matched loosely, as the card schema does ("Monster Enhancer" -> "enhancer")."""
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


def card_facts(spec: Any) -> Any:
    """A card spec as the card resolver takes it: a catalog id as it is, an inline card as
    its facts in plain JSON (the fields given), so the state and events hold JSON only."""
    if isinstance(spec, BaseModel):
        return spec.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return spec


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


class SetWinningLevelAction(ActionModel):
    """The level that wins: 10 (the rulebook) or 20 (Epic Munchkin); host only."""
    type: Literal["set_winning_level"]
    level: Literal[10, 20]


class JoinAction(ActionModel):
    """Take a seat at the table: a phone's own player, or (host only) a player with no phone.
    Sent by ``POST /api/games/<code>/players``, which gives the new seat its token. A missing
    name or sex is refused by the engine's own checks (``clean_name``, ``clean_sex``)."""
    type: Literal["join"]
    name: Optional[PlayerName] = None
    sex: Optional[Annotated[UnicodeText, Field(max_length=16)]] = None  # clean_sex names the two
    phone: StrictBool = True


class RemovePlayerAction(ActionModel):
    """Take a seat away (host only)."""
    type: Literal["remove_player"]
    player: PlayerId


class LockTableAction(ActionModel):
    """Lock or unlock the table against new joins (host only)."""
    type: Literal["lock_table"]
    locked: StrictBool


class PlayAction(ActionModel):
    """Put a card in front of a player, or play a curse or Go Up a Level on them.
    from_hand: whether the card leaves a hand (the owner's; a curse's or Go Up a Level's:
    the seat that plays it). Left out: yes, but for a curse on oneself and Divine
    Intervention, which come straight from the door (reducers/sheet.py)."""
    type: Literal["play"]
    player: PlayerId
    card: CardSpec
    from_hand: Optional[StrictBool] = None
    source: Optional[CardSource] = None
    body: Optional[PlayerId] = None


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
    """Sell items in play (instances) and straight from the hand (hand_gold) for levels;
    doubled: the one of them a Halfling sells at double price (once a turn); from_hand: how
    many cards hand_gold came from (left out: one, when there is hand_gold)."""
    type: Literal["sell"]
    player: PlayerId
    instances: list[InstanceId] = Field(default_factory=list, max_length=MAX_LIST)
    hand_gold: Annotated[StrictInt, Field(ge=0, le=100_000)] = 0
    doubled: Optional[InstanceId] = None
    from_hand: Optional[Annotated[StrictInt, Field(ge=0, le=60)]] = None


class DrawAction(ActionModel):
    """player takes count cards face down into the hand: looting the room, a door card kept
    after kicking the door, a card a rule deals. deck: which deck, when it matters (the log)."""
    type: Literal["draw"]
    player: PlayerId
    count: Annotated[StrictInt, Field(ge=1, le=20)] = 1
    deck: Optional[Literal["door", "treasure"]] = None


class LootAction(ActionModel):
    """player (the looter) takes one card from the body of the dead player body: the card
    instance the body had in play, or from_hand true: one unseen card of the body's hand. It
    goes into the looter's hand (engine/looting.py)."""
    type: Literal["loot"]
    player: PlayerId
    body: PlayerId
    instance: Optional[InstanceId] = None
    from_hand: Optional[StrictBool] = None


class EndLootingAction(ActionModel):
    """Looting the body of body ends (left out: the only body); what is left is discarded."""
    type: Literal["end_looting"]
    body: Optional[PlayerId] = None


class GiveAction(ActionModel):
    type: Literal["give"]
    player: PlayerId
    instance: InstanceId
    to: PlayerId


class DieAction(ActionModel):
    type: Literal["die"]
    player: PlayerId


class FightAction(ActionModel):
    """Start a fight; level overrides the printed level of the monster card. from_hand: the
    monster comes from the fighter's hand (looking for trouble); left out: no, from the door."""
    type: Literal["fight"]
    player: PlayerId
    monster: CardSpec
    level: Optional[Annotated[StrictInt, Field(ge=0, le=99)]] = None
    from_hand: Optional[StrictBool] = None
    source: Optional[CardSource] = None
    body: Optional[PlayerId] = None


class AddMonsterAction(ActionModel):
    """Another monster joins the fight. from_hand: it comes from the hand of the seat that
    adds it; left out: yes. wandering: a Wandering Monster card brought it, a second card
    from the same hand; left out: yes when the monster comes from a hand (a monster joins a
    fight from a hand only through a Wandering Monster, classic: Combat)."""
    type: Literal["add_monster"]
    monster: CardSpec
    level: Optional[Annotated[StrictInt, Field(ge=0, le=99)]] = None
    from_hand: Optional[StrictBool] = None
    source: Optional[CardSource] = None
    body: Optional[PlayerId] = None
    wandering: Optional[StrictBool] = None


class EnhanceAction(ActionModel):
    """A monster enhancer on the monster at index monster (may be left out when there is one).
    from_hand: it comes from the hand of the seat that plays it; left out: yes."""
    type: Literal["enhance"]
    monster: MonsterIndex = None  # type: ignore[assignment]  # left out: the only monster
    card: CardSpec
    from_hand: Optional[StrictBool] = None
    source: Optional[CardSource] = None
    body: Optional[PlayerId] = None


class RemoveMonsterAction(ActionModel):
    type: Literal["remove_monster"]
    monster: MonsterIndex = None  # type: ignore[assignment]  # left out: the only monster


class OneShotAction(ActionModel):
    """Play a one-shot into the fight: a card from the hand, or (player + instance) one lying
    on the table in front of that player. from_hand: whether a card named by card leaves the
    hand of the seat that plays it (false: straight from a fresh draw); left out: yes."""
    type: Literal["one_shot"]
    side: Side
    card: Optional[CardSpec] = None
    player: Optional[PlayerId] = None
    instance: Optional[InstanceId] = None
    from_hand: Optional[StrictBool] = None
    source: Optional[CardSource] = None
    body: Optional[PlayerId] = None


class HelpAction(ActionModel):
    """player helps in the fight. Sent by the fighter (or the host): their own choice, at once.
    Sent by the helper's own seat: an offer to help for free, which waits for the fighter's
    accept_help or decline_help (every edition, Asking For Help). forced: a card makes them
    help (Tails), at once."""
    type: Literal["help"]
    player: PlayerId
    forced: StrictBool = False


class ChaseAwayAction(ActionModel):
    """player, facing the monster at index monster, takes its card's option to chase it away
    (a Cleric and the Wannabe Vampire): its treasures count, no level for it."""
    type: Literal["chase_away"]
    player: PlayerId
    monster: MonsterIndex = None  # type: ignore[assignment]  # left out: the only monster


class AcceptHelpAction(ActionModel):
    """The fighter accepts the help player offered."""
    type: Literal["accept_help"]
    player: PlayerId


class DeclineHelpAction(ActionModel):
    """The fighter turns down the help player offered (or the volunteer takes the offer back)."""
    type: Literal["decline_help"]
    player: PlayerId


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
    # the die a Bad Stuff asks for (3,872 Orcs); without it the app rolls
    bad_stuff_roll: Optional[Annotated[StrictInt, Field(ge=1, le=6)]] = None


class SacrificeAllyAction(ActionModel):
    type: Literal["sacrifice_ally"]
    player: PlayerId
    helper_too: StrictBool = False


class CloseFightAction(ActionModel):
    type: Literal["close_fight"]


class ConfirmBadStuffAction(ActionModel):
    """The table has done by hand a Bad Stuff the app cannot (pending is its note's id)."""
    type: Literal["confirm_bad_stuff"]
    player: PlayerId
    pending: InstanceId


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


PowerId = Literal[POWER_IDS]  # type: ignore[valid-type]


class UsePowerAction(ActionModel):
    """Use a race or class power (``companion/engine/powers.py``), paying its discards:
    from_hand cards from the hand (a whole-hand power: the hand, when left out) and from_play
    cards in front of the player. target: the player it is used on; item: the item stolen;
    monster: the monster charmed or run from; roll: a real die's result (left out: the app
    rolls); bonus: the number a card prints where the rulebook gives none; succeeded: whether
    a theft worked, where the card decides."""
    type: Literal["use_power"]
    player: PlayerId
    power: PowerId
    from_hand: Optional[Annotated[StrictInt, Field(ge=0, le=60)]] = None
    from_play: list[InstanceId] = Field(default_factory=list, max_length=MAX_LIST)
    target: Optional[PlayerId] = None
    item: Optional[InstanceId] = None
    monster: Optional[MonsterIndex] = None
    roll: Optional[Annotated[StrictInt, Field(ge=1, le=6)]] = None
    bonus: Optional[Annotated[StrictInt, Field(ge=1, le=MAX_POWER_BONUS)]] = None
    succeeded: Optional[StrictBool] = None


class AddHouseCardAction(ActionModel):
    """A table's own card, given as its facts (its id becomes house/<slug of its name>)."""
    type: Literal["add_house_card"]
    card: InlineCard


class ImportHouseCardsAction(ActionModel):
    type: Literal["import_house_cards"]
    cards: list[InlineCard] = Field(min_length=1, max_length=MAX_HOUSE_IMPORT)


class RemoveHouseCardAction(ActionModel):
    """Take a house card off the table (the host, or the seat that added it)."""
    type: Literal["remove_house_card"]
    card: CardId


MODELS: tuple[type[ActionModel], ...] = (
    LevelAction, GearAction, SetSexAction, SetTurnAction, EndTurnAction, SetHandAction,
    SetVariantAction, SetWinningLevelAction, RenameAction, JoinAction, RemovePlayerAction, LockTableAction, PlayAction, DiscardAction,
    EquipAction, SellAction, GiveAction, DieAction, DrawAction, LootAction, EndLootingAction, FightAction, AddMonsterAction, EnhanceAction,
    RemoveMonsterAction, OneShotAction, HelpAction, AcceptHelpAction, DeclineHelpAction, ChaseAwayAction, StopHelpingAction, ResolveAction,
    RunAwayAction, SacrificeAllyAction, CloseFightAction, ConfirmBadStuffAction, OfferAction, AcceptOfferAction,
    DeclineOfferAction, AddHouseCardAction, ImportHouseCardsAction, RemoveHouseCardAction,
    UsePowerAction,
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
        raise BadAction(N_("An action must be a JSON object with a 'type'."))
    kind = data.get("type")
    if kind is not None and not (isinstance(kind, str) and kind in BY_TYPE):
        # Answered here: pydantic would write the repr of any value into its error.
        raise BadAction(_describe({"type": "union_tag_invalid", "loc": ()}, data))
    try:
        return ACTION_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise BadAction(explain(exc, data)) from None
    except RecursionError:
        raise BadAction(N_("That action is nested too deeply.")) from None


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


# Whole numbers described by their field (``description``), each said in a whole sentence.
_NUMBER_WORDS = {
    "a player id": N_("'%(field)s' must be a player id (a whole number)."),
    "a card instance id": N_("'%(field)s' must be a card instance id (a whole number)."),
    "the index of a monster in the fight": N_("'%(field)s' must be the index of a monster in the "
                                              "fight (a whole number)."),
}


def _whole_number(field: str, meta: list) -> dict:
    lo, hi, desc = _bounds(meta)
    if desc in _NUMBER_WORDS:
        return said(_NUMBER_WORDS[desc], field=field)
    if lo is not None and hi is not None:
        return said(N_("'%(field)s' must be a whole number between %(lo)s and %(hi)s."),
                    field=field, lo=lo, hi=hi)
    if lo is not None:
        return said(N_("'%(field)s' must be a whole number, %(lo)s or more."), field=field, lo=lo)
    return said(N_("'%(field)s' must be a whole number."), field=field)


_KIND_WORDS = ", ".join(KINDS)


def _card_kind_message(field: str, value: Any) -> dict:
    where = field or "card"
    if not isinstance(value, dict):
        return said(N_("'%(field)s' must be a card's facts (a JSON object with a 'kind')."), field=where)
    kind = value.get("kind")
    if kind is None:
        return said(N_("'%(field)s.kind' is required: one of %(kinds)s."), field=where, kinds=_KIND_WORDS)
    if isinstance(kind, str) and len(kind) <= 40:
        return said(N_("'%(field)s.kind': %(given)s is not a kind; one of %(kinds)s."),
                    field=where, given=repr(kind), kinds=_KIND_WORDS)
    return said(N_("'%(field)s.kind' must be one of %(kinds)s."), field=where, kinds=_KIND_WORDS)


def _choices(tp: Any) -> list[str]:
    """The values a literal allows, each quoted; [] when ``tp`` is not a literal."""
    return [repr(v) for v in get_args(tp)] if get_origin(tp) is Literal else []


def _one_of(field: str, tp: Any, ctx: dict) -> dict:
    """'field' must be one of 'a', 'b' or 'c' (the "or" is in the sentence, not in a param)."""
    choices = _choices(tp)
    if len(choices) == 1:
        return said(N_("'%(field)s' must be %(choice)s."), field=field, choice=choices[0])
    if choices:
        return said(N_("'%(field)s' must be one of %(choices)s or %(last)s."), field=field,
                    choices=", ".join(choices[:-1]), last=choices[-1])
    # Not a literal of ours (pydantic's own list of what it expected).
    return said(N_("'%(field)s' must be one of %(expected)s."), field=field,
                expected=str(ctx.get("expected", "")))


def _key_type(root: Any, loc: Sequence[Any]) -> Any:
    """The key type of the mapping at ``loc`` (the calculator's variants), or None."""
    tp, _meta = field_type(root, loc) if root is not None else (None, [])
    args = get_args(tp) if get_origin(tp) is dict else ()
    return _unwrap(args[0], []) if args else None


def _describe(err: dict, data: Any, root: Any = None) -> dict:
    kind = err["type"]
    loc = tuple(err["loc"])
    ctx = err.get("ctx") or {}
    if root is not None:  # another request body (the calculator's): the loc is all fields
        return _describe_field(err, kind, loc, ctx, root, _path(loc), None)
    if not loc:  # the union on 'type' itself
        action_type = _type_name(data)
        if kind == "union_tag_not_found":
            return said(N_("An action needs a 'type' (like 'level' or 'play')."))
        if action_type is not None and len(action_type) <= 40:
            return said(N_("Unknown action type %(type)s."), type=repr(action_type))
        if action_type is not None:
            return said(N_("Unknown action type."))
        return said(N_("'type' must be a string naming the action (like 'level' or 'play')."))
    return _describe_field(err, kind, loc[1:], ctx, BY_TYPE.get(str(loc[0])), _path(loc[1:]), str(loc[0]))


def _describe_field(err: dict, kind: str, loc: tuple, ctx: dict, root: Any, field: str,
                    action_type: str | None) -> dict:
    """What is wrong with ``field``; ``action_type`` names the action, None is another request."""
    tp, meta = field_type(root, loc) if root is not None else (None, [])
    if not field:
        return _whole_body(kind, action_type)
    if len(loc) >= 2 and loc[-1] == "[key]":  # a key of a mapping (the calculator's variants)
        return _unknown_key(loc, ctx, root)
    if kind == "card_spec":
        return said(N_("'%(field)s' must be a catalog id (like 'classic/drooling-slime') "
                       "or a card's facts (a JSON object)."), field=field)
    if kind == "card_kind":
        return _card_kind_message(field, err.get("input"))
    if kind == "missing":
        return said(N_("'%(field)s' is required."), field=field)
    if kind == "extra_forbidden":
        return _not_a_field(field, loc, action_type)
    return _wrong_value(err, kind, ctx, field, tp, meta) or _validator_reason(err, kind, field)


def _whole_body(kind: str, action_type: str | None) -> dict:
    """The body as a whole is wrong (not an object, or no field to blame)."""
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        if action_type is None:
            return said(N_("The body of the request must be a JSON object."))
        return said(N_("The body of a '%(type)s' action must be a JSON object."), type=action_type)
    if action_type is None:
        return said(N_("The request is not valid."))
    return said(N_("A '%(type)s' action is not valid."), type=action_type)


def _unknown_key(loc: tuple, ctx: dict, root: Any) -> dict:
    """A key a mapping does not take, and the keys it does."""
    key = loc[-2] if isinstance(loc[-2], str) and len(loc[-2]) <= 40 else "?"
    keys = _choices(_key_type(root, loc[:-2]))
    if len(keys) > 1:
        return said(N_("'%(field)s' has an unknown key %(key)s: the keys are %(keys)s or %(last)s."),
                    field=_path(loc[:-2]), key=repr(key), keys=", ".join(keys[:-1]), last=keys[-1])
    return said(N_("'%(field)s' has an unknown key %(key)s: the keys are %(keys)s."),
                field=_path(loc[:-2]), key=repr(key), keys=", ".join(keys) or str(ctx.get("expected", "")))


def _not_a_field(field: str, loc: tuple, action_type: str | None) -> dict:
    """A field nobody asked for (a typo, most likely)."""
    parent = _path(loc[:-1])
    if parent:
        return said(N_("'%(field)s' is not a field of '%(parent)s' (a typo?)."), field=field, parent=parent)
    if action_type is None:
        return said(N_("'%(field)s' is not a field of the request (a typo?)."), field=field)
    return said(N_("'%(field)s' is not a field of a '%(type)s' action (a typo?)."),
                field=field, type=action_type)


def _wrong_value(err: dict, kind: str, ctx: dict, field: str, tp: Any, meta: list) -> dict | None:
    """A value of the wrong type, size or choice, said from the field's type; None for any
    other error."""
    if kind in ("int_type", "int_parsing", "int_from_float", "greater_than_equal",
                "less_than_equal", "greater_than", "less_than"):
        return _whole_number(field, meta)
    if kind in ("bool_type", "bool_parsing"):
        return said(N_("'%(field)s' must be true or false."), field=field)
    if kind == "string_type":
        return said(N_("'%(field)s' must be a string."), field=field)
    if kind == "string_too_short":
        return said(N_("'%(field)s' must not be empty."), field=field)
    if kind == "string_too_long" or (kind == "too_long" and isinstance(err.get("input"), str)):
        return said_plural("'%(field)s' may have at most %(n)s character.", "'%(field)s' may have at most %(n)s characters.",
                           int(ctx.get("max_length") or 0), field=field)
    if kind == "string_pattern_mismatch":
        return said(N_("'%(field)s' needs letters or digits (a name like 'elf' or 'chess-club')."), field=field)
    if kind in ("literal_error", "enum"):
        return _one_of(field, tp, ctx)
    if kind == "list_type":
        return said(N_("'%(field)s' must be a list."), field=field)
    if kind == "too_long":
        return said_plural("'%(field)s' may hold at most %(n)s entry.", "'%(field)s' may hold at most %(n)s entries.",
                           int(ctx.get("max_length") or 0), field=field)
    if kind == "too_short":
        if isinstance(err.get("input"), str):
            return said(N_("'%(field)s' must not be empty."), field=field)
        return said_plural("'%(field)s' needs at least %(n)s entry.", "'%(field)s' needs at least %(n)s entries.",
                           int(ctx.get("min_length") or 0), field=field)
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return said(N_("'%(field)s' must be a JSON object."), field=field)
    if kind == "recursion_loop":
        return said(N_("'%(field)s' is nested too deeply."), field=field)
    return None


def _validator_reason(err: dict, kind: str, field: str) -> dict:
    """What a validator of the card schema refused, in our sentence where we have one."""
    message = str(err.get("msg", ""))
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    given = err.get("input")
    if kind == "value_error" and isinstance(given, dict) and "stat" in given and given.get("value") is None:
        return said(N_("'%(field)s': an effect on '%(stat)s' needs a 'value'."), field=field,
                    stat=str(given["stat"])[:40])
    if message == card_schema.LONE_SURROGATE:
        return said(N_("'%(field)s' has a broken character (a lone surrogate): send proper Unicode text."),
                    field=field)
    if not message:
        return said(N_("'%(field)s' is not valid."), field=field)
    # A validator's own reason that none of the sentences above says (none is known today; the
    # card schema's words, in English): passed on as it is.
    return said(N_("'%(field)s': %(problem)s."), field=field, problem=message.rstrip("."))


def explain(exc: ValidationError, data: Any = None, root: Any = None) -> dict:
    """One short sentence for the first thing wrong (and how many more there are), as a said.

    ``root`` is the model ``data`` was validated against, for a body that is not an action.
    """
    errors = exc.errors(include_url=False)
    message = _describe(errors[0], data, root)
    if len(errors) > 1:
        message = said_plural("%(problem)s (There is %(n)s more problem.)", "%(problem)s (There are %(n)s more problems.)",
                              len(errors) - 1, problem=message)
    return message


__all__ = [
    "ACTION_ADAPTER", "ACTION_TYPES", "Action", "ActionModel", "BY_TYPE", "CardSpec", "card_facts", "INLINE_MODELS",
    "InlineCard", "MODELS", "action_json_schema", "explain", "field_type", "parse_action",
] + [m.__name__ for m in MODELS]
