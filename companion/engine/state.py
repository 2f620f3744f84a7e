"""Creating games and players, reading fields of an action, and the public view of a state.

The stored state is plain JSON (see docs/ENGINE.md). Everything a phone shows that can be
computed (gear bonus, combat strength, the fight's numbers) is derived here from the stored
state on every read, so nothing derived can go stale.
"""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from typing import Any

import disarm

from . import character, combat, editions, help as helping, powers, rulebook, sheet as sheet_rules
from .errors import BadAction, RuleViolation
from .frozen import freeze, is_frozen
from .rules import RULEBOOK_WINNING_LEVEL, TableRules, check_winning_level
from .vocab import OFFICIAL_UPDATES, SEXES
from .words import N_, said, said_plural

MAX_NAME = 40
LOG_KEEP = 50


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


def name_taken(state: dict, name: str, *, besides: dict | None = None) -> bool:
    return lookalike(state, name, besides=besides) is not None


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


def add_player(state: dict, name: Any, sex: Any, *, phone: bool = True) -> int:
    """Seat a new player (in place); the first player seated has the first turn."""
    name, sex = clean_name(name), clean_sex(sex)
    rules = TableRules.of(state)
    edition = rules.edition
    if len(state["players"]) >= edition.max_players:
        raise rulebook.fill(RuleViolation(
            "player-count", N_("%(edition)s is for %(lo)s to %(hi)s players"),
            edition=said(edition.name), lo=edition.min_players, hi=edition.max_players), rules)
    refuse_lookalike(state, name)
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


def combat_view(state: dict, *, helpers: bool = True) -> dict | None:
    """The computed fight (the API's ``combat`` object), or None when nobody is fighting.

    ``helpers`` adds who could help and a bribe for each (two more computations per player);
    the reducers only need the numbers and leave it out.
    """
    stored = state.get("combat")
    if not stored:
        return None
    rules = TableRules.of(state)
    by_id = {p["id"]: p for p in state["players"]}
    fighter = by_id[stored["fighter"]]
    helper = by_id.get(stored["helper"]) if stored.get("helper") is not None else None
    view = combat.compute(
        rules=rules, fighter=fighter, helper=helper, monsters=stored["monsters"],
        one_shots=stored["one_shots"], helper_forced=stored.get("helper_forced", False),
        stage=stored["stage"], escapes=stored.get("escapes", ()),
    )
    view = combat.as_decided(view, stored.get("decided"))
    if not helpers:
        return view
    others = [p for p in state["players"] if p["id"] != fighter["id"]]
    common = {"rules": rules, "fighter": fighter, "monsters": stored["monsters"],
              "one_shots": stored["one_shots"]}
    options = helping.helper_options(helper=helper, others=others, **common)
    offers = {o["to"]: o for o in stored.get("offers", [])}
    for option, other in zip(options, others):
        option["offer"] = offers.get(option["player"])
        option["suggestion"] = (helping.suggest_bribe(helper=other, **common)
                                if option["can_help"] and option["would_win"] and not view["winning"]
                                else None)
    view["helpers"] = options
    view["offers"] = stored.get("offers", [])
    view["volunteers"] = stored.get("volunteers", [])  # offers to help waiting for the fighter
    view["deal"] = stored.get("deal")
    view["escapes"] = stored.get("escapes", [])
    view["result"] = stored.get("result")
    return view


SHEETS_KEPT = 1024  # frozen player records whose sheets are remembered (least recently used go)
_sheets: OrderedDict = OrderedDict()  # id(player) -> (player, edition id, sheet)
_sheets_lock = threading.Lock()


def _of_the_player(player: dict, edition: editions.Edition) -> dict:
    """What a phone shows of a player that depends on that player alone: the character
    sheet, the powers they hold, the items a curse makes them pick from."""
    return {**character.sheet(player, edition), "powers": powers.held(player, edition.id),
            # Items a curse takes where the victim has to pick which (classic, Curses).
            "pending_losses": sheet_rules.pending_losses_view(player)}


def _sheet_of(player: dict, edition: editions.Edition) -> dict:
    """``_of_the_player``, remembered for a frozen player record: the store's states share an
    unchanged player between versions (``freeze_like``), so a tap works out again only the
    players it changed. Read-only (frozen)."""
    if not is_frozen(player):
        return _of_the_player(player, edition)
    with _sheets_lock:
        found = _sheets.get(id(player))
        if found is not None and found[0] is player and found[1] == edition.id:
            _sheets.move_to_end(id(player))
            return found[2]
    worked_out = freeze(_of_the_player(player, edition))
    with _sheets_lock:  # the record is kept with its sheet, so its id names no other meanwhile
        _sheets[id(player)] = (player, edition.id, worked_out)
        while len(_sheets) > SHEETS_KEPT:
            _sheets.popitem(last=False)
    return worked_out


def next_looter(body: dict) -> int | None:
    """Who takes the next card from a body: the first in its order who has not taken one."""
    return next((pid for pid in body["order"] if pid not in body["looted"]), None)


def public_state(state: dict) -> dict:
    """The stored state plus everything a phone shows that is derived from it."""
    rules = TableRules.of(state)
    edition = rules.edition
    out = dict(state)
    out.pop("chronicle", None)  # the table screen's bookkeeping (engine/chronicle.py), not for phones
    out.pop("dice_seed", None)  # a phone must not work out a roll before it is made
    out["winner"] = state["winners"][0] if state["winners"] else None
    out["winning_level"] = rules.winning_level  # a game from before the choice: 10
    players = []
    for player in state["players"]:
        view = dict(player)
        view.update(_sheet_of(player, edition))
        # A Halfling's sale may still mark one item doubled this turn (classic, Items).
        view["double_sale"] = sheet_rules.double_sale_open(state, player, edition)
        if player["id"] == state["turn"]:
            # Shown on the End turn button, so the player sees Charity before committing.
            view["charity_preview"] = sheet_rules.charity(state, player, edition)["text"] or None
        players.append(view)
    out["players"] = players
    out["combat"] = combat_view(state)
    # A body to loot, with whose pick is next (engine/looting.py): pages only show it.
    out["bodies"] = [{**body, "next": next_looter(body)} for body in state.get("bodies") or ()]
    out["edition_name"] = said(edition.name)  # the web layer says it in the reader's language
    out["powers"] = powers.public(edition.id)  # names and summaries of the race and class powers
    # What the edition has, so pages offer only what its rules allow.
    out["features"] = {"allies": edition.allies, "races": bool(edition.races),
                       "half_breed": edition.half_breed, "super_munchkin": edition.super_munchkin,
                       "variants": list(edition.choosable_variants)}
    # The optional rules this table plays, as every phone lists them (the rulings apart).
    out["variants_on"] = [v for v in edition.choosable_variants if v != OFFICIAL_UPDATES and rules.has(v)]
    return out
