"""Creating games and players, and reading fields of an action: the basics every part of the
engine imports, so it imports none of the rules that use them (no combat, help or powers).

The stored state is plain JSON (see docs/ENGINE.md). What a phone shows that is computed from
it (the sheets, the fight) is ``public.py``'s.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import disarm

from . import editions, rulebook
from .errors import BadAction, RuleViolation
from .rules import RULEBOOK_WINNING_LEVEL, TableRules, check_winning_level
from .vocab import SEXES
from .words import N_, said, said_plural

MAX_NAME = 40


def new_game(code: str, edition_id: str, variants: Any = None, *, dice_seed: str | None = None,
             winning_level: Any = None) -> dict:
    """A new table. ``variants`` maps optional rules the edition offers to on/off, chosen at
    creation (e.g. ``{"official_updates": true}``); anything else is refused. ``dice_seed``:
    where the app's dice out of a fight come from (``engine/dice.py``), never shown.
    ``winning_level``: 10 (the rulebook, the default) or 20 (Epic Munchkin)."""
    top = RULEBOOK_WINNING_LEVEL if winning_level is None else check_winning_level(winning_level)
    if edition_id not in editions.EDITIONS:
        raise BadAction(N_("Unknown edition %(edition)s: choose one of %(editions)s."),
                        edition=repr(edition_id)[:60], editions=", ".join(editions.EDITIONS))
    return {
        "code": code,
        "edition": edition_id,
        "version": 0,
        "variants": starting_variants(editions.get(edition_id), variants),
        "winning_level": top,
        "locked": False,
        "turn": None,
        "winners": [],
        "next_id": 1,
        "players": [],
        "combat": None,
        "ledger": [],
        "house_cards": [],
        "chronicle": {"steps": 0, "players": []},  # engine/chronicle.py; a game without one predates it
        "log": [],
        **({"dice_seed": dice_seed} if dice_seed else {}),
    }


def starting_variants(edition: editions.Edition, variants: Any) -> dict[str, bool]:
    if variants is None:
        return {}
    if not isinstance(variants, dict):
        raise BadAction(N_("'%(field)s' must be an object."), field="variants")
    chosen = {}
    for name, on in variants.items():
        choice_field(name, "variant", edition.choosable_variants)
        if not isinstance(on, bool):
            raise BadAction(N_("'%(field)s' must be true or false."), field=f"variants.{name}"[:60])
        chosen[name] = on
    return chosen


# Default-ignorable code points (Unicode's Default_Ignorable_Code_Point property, which Python's
# unicodedata does not expose): drawn as nothing, so a name with one inside looks exactly like
# the name without it. U+034F COMBINING GRAPHEME JOINER and the variation selectors are not
# format characters (Mn), so the Cf filter below alone would keep them.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)


def invisible(ch: str) -> bool:
    """True for a character that shows nothing: a default-ignorable code point (zero-width
    joiners, variation selectors, U+034F, tags, ...) or a format, control or private-use one."""
    cp = ord(ch)
    if any(lo <= cp <= hi for lo, hi in DEFAULT_IGNORABLE):
        return True
    return unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cs")


def clean_name(value: Any) -> str:
    """A player's name as shown: as typed, less the invisible characters (default-ignorable
    code points such as zero-width joiners, variation selectors and U+034F; format, control
    and private-use characters), runs of spaces folded. Lone surrogates are refused."""
    if not isinstance(value, str) or not value.strip():
        raise BadAction(N_("A player needs a name."))
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise BadAction(N_("A name must be valid text (it has a broken character)."))
    visible = "".join(ch for ch in value if not invisible(ch))
    name = " ".join(visible.split())
    if not name:
        raise BadAction(N_("A player needs a name."))
    if len(name) > MAX_NAME:
        raise BadAction(said_plural("A name may have at most %(n)s character.", "A name may have at most %(n)s characters.", MAX_NAME))
    return name


# Letters and pairs of ASCII that read as another in most phone fonts, which Unicode's
# confusables (UTS #39) leave apart: "B0b" and "Bob", "Tirn" and "Tim", "vvill" and "will".
# The pairs are lowercase only ("Clara" is not "Dara"; "clara" is).
_ASCII_LOOKALIKES = (("rn", "m"), ("vv", "w"), ("cl", "d"), ("0", "o"), ("O", "o"), ("1", "l"),
                     ("|", "l"))


def _ascii_folded(text: str) -> str:
    for pair, letter in _ASCII_LOOKALIKES:
        text = text.replace(pair, letter)
    return text


def name_keys(name: str) -> tuple[str, str]:
    """What two names that look the same have in common: the confusable skeleton of Unicode
    UTS #39 (disarm's ``skeleton_key``: NFKC, each homoglyph mapped to its prototype), taken
    after the invisible characters are gone and the ASCII lookalikes folded, once after case
    folding ("Ann", "ANN", a full-width "Ａｎｎ", "Аnn" with a Cyrillic А and "Αnn" with a
    Greek Α are one name) and once before it (a capital I reads as a small l: "Ian" and "lan").
    Two names look the same when either key is the same; "Anna" and "Аня" do not."""
    visible = unicodedata.normalize("NFKC", "".join(ch for ch in name if not invisible(ch)))
    folded = unicodedata.normalize("NFKC", _ascii_folded(visible).casefold())
    as_typed = _ascii_folded(visible)
    return (disarm.skeleton_key(folded, on_empty="") or folded,
            disarm.skeleton_key(as_typed, on_empty="") or as_typed)


def lookalike(state: dict, name: str, *, besides: dict | None = None) -> str | None:
    """The name of the seat that ``name`` looks the same as, if any (``besides``, the
    player being renamed, does not count)."""
    keys = name_keys(name)
    for p in state["players"]:
        if p is not besides and any(a == b for a, b in zip(name_keys(p["name"]), keys)):
            return p["name"]
    return None


def refuse_lookalike(state: dict, name: str, *, besides: dict | None = None) -> None:
    """Refuse a name that looks the same as a seated player's, naming that seat."""
    seat = lookalike(state, name, besides=besides)
    if seat is not None:
        raise BadAction(N_("%(given)s looks the same as %(name)s, who is already at the table; "
                           "pick another name."), given=name, name=seat)


def clean_sex(value: Any) -> str:
    if value not in SEXES:
        raise BadAction(N_("Sex must be 'male' or 'female'."))
    return value


def next_id(state: dict) -> int:
    value = state["next_id"]
    state["next_id"] = value + 1
    return value


def check_new_player(state: dict, name: Any, sex: Any) -> tuple[str, str]:
    """Whether a new player may sit down (read only): a name and sex that are valid, a seat
    left in the edition, a name nobody at the table has. Returns the name and sex as kept."""
    name, sex = clean_name(name), clean_sex(sex)
    rules = TableRules.of(state)
    edition = rules.edition
    if len(state["players"]) >= edition.max_players:
        raise rulebook.fill(RuleViolation(
            "player-count", N_("%(edition)s is for %(lo)s to %(hi)s players"),
            edition=said(edition.name), lo=edition.min_players, hi=edition.max_players), rules)
    refuse_lookalike(state, name)
    return name, sex


def add_player(state: dict, name: Any, sex: Any, *, phone: bool = True) -> int:
    """Seat a new player (in place; ``check_new_player`` says whether one may); the first
    player seated has the first turn."""
    name, sex = check_new_player(state, name, sex)
    pid = next_id(state)
    state["players"].append({
        "id": pid, "name": name, "sex": sex, "level": 1, "gear_adjust": 0,
        "hand": 0, "dead": False, "phone": bool(phone), "cards": [],
    })
    if state["turn"] is None:
        state["turn"] = pid
    return pid


def find_player(state: dict, pid: Any, field: str = "player") -> dict:
    if isinstance(pid, bool) or not isinstance(pid, int):
        raise BadAction(N_("'%(field)s' must be a player id (a whole number)."), field=field)
    for player in state["players"]:
        if player["id"] == pid:
            return player
    raise BadAction(N_("There is no player %(player)s at this table."), player=pid)


def check_not_dead(player: dict) -> None:
    """A dead player receives no card and goes up no level until their next turn (rule
    dead-no-cards: Oz, Spell Skool, Russia, Tails, Death; classic follows it)."""
    if player["dead"]:
        raise RuleViolation("dead-no-cards", N_("%(name)s is dead until the next turn"),
                            name=player["name"], sex=player.get("sex"))


def name_of(state: dict, pid: Any) -> str:
    """A player's name, seated or since removed (``state["left"]``: a winner who went home is
    still named as the winner); "?" for an id the table never had."""
    for player in (*state["players"], *(state.get("left") or ())):
        if player["id"] == pid:
            return player["name"]
    return "?"


def find_card(player: dict, iid: Any, field: str = "instance") -> dict:
    if isinstance(iid, bool) or not isinstance(iid, int):
        raise BadAction(N_("'%(field)s' must be a card instance id (a whole number)."), field=field)
    for entry in player["cards"]:
        if entry["iid"] == iid:
            return entry
    raise BadAction(N_("%(name)s has no card %(instance)s in front of them."),
                    name=player["name"], player=player["id"], instance=iid, sex=player.get("sex"))


def monster_index(value: int | None, count: int, field: str = "monster") -> int:
    """The index of one of the ``count`` monsters in the fight (``value``; None: left out,
    which names the only one). The action's model bounds it by the most a fight holds; how
    many this fight holds is known here."""
    if value is None:
        if count == 1:
            return 0
        raise BadAction(N_("'%(field)s' is required."), field=field)
    if not 0 <= value <= count - 1:
        raise BadAction(N_("'%(field)s' must be between %(lo)s and %(hi)s."), field=field, lo=0, hi=count - 1)
    return value


def choice_field(value: Any, field: str, choices: tuple) -> Any:
    """``value`` if it is one of ``choices`` (which depend on the game, e.g. its edition)."""
    if value not in choices:
        raise BadAction(N_("'%(field)s' must be one of: %(choices)s."), field=field,
                        choices=", ".join(map(str, choices)))
    return value


def seat_order(state: dict) -> list[int]:
    return [p["id"] for p in state["players"]]


def next_looter(body: dict) -> int | None:
    """Who takes the next card from a body: the first in its order who has not taken one."""
    return next((pid for pid in body["order"] if pid not in body["looted"]), None)
