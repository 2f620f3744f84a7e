"""The fight: both sides' combat strength, who is winning, rewards and the odds of escape.

``compute`` is a pure function of the cards in the fight. The game reducers call it with the
stored combat (docs/ENGINE.md, "Stored combat") and the players; the stateless calculator
calls it with players built by ``calculator_player``. It returns the public combat object:

    {"fighter", "helper", "helper_forced", "helper_counts", "level_only", "for_the_win",
     "monsters": [{"index", "source", "name", "level", "strength", "treasures", "levels",
                   "tags", "mate", "mate_of", "gone", "bonuses": [{"source", "value"}]}],
     "fighter_strength", "helper_strength", "players_strength", "monsters_strength",
     "winning", "needed", "wins_ties",
     "breakdown": {"fighter": [...], "helper": [...], "monsters": [...]},
     "rewards": {"treasures", "fighter_levels", "helper_levels", "shared_victory"},
     "stage", "escape": [{"player", "monster", "needs", "chance", "auto", "roll", "escaped",
                          "parts": [{"source", "value", "base"?}]}]}

``monsters[i]["index"]`` is the position in that list. Stored monsters keep their stored
index; a Mate's copy is appended after them with ``mate: true`` and ``mate_of`` set to the
stored index of the monster it copies, so the copy can be run from like any monster.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, NamedTuple

from . import character as ch
from .editions import Edition
from .rules import TableRules
from .vocab import SHARED_VICTORY
from .words import N_, said, said_plural

Card = dict[str, Any]
Player = dict[str, Any]

ESCAPE_ON = 5  # the bare roll that escapes, in every edition
DIE = 6


# ---------------------------------------------------------------- monster entries


def _entries(monsters: list[dict]) -> list[dict]:
    """Stored monsters, then one copy per Mate with every other enhancer on the monster.

    A monster and its Mate leave the fight one at a time (classic, Combat: one can be
    eliminated and the other still fought): the stored ``gone`` is the monster's own, and
    ``mates_gone`` holds one flag per Mate on it, in the order they were played.
    """
    out = []
    for i, m in enumerate(monsters):
        out.append({"card": m["card"], "enhancers": list(m.get("enhancers") or []),
                    "gone": bool(m.get("gone")), "mate": False, "source": i})
    for i, m in enumerate(monsters):
        enh = list(m.get("enhancers") or [])
        plain = [e for e in enh if not e.get("mate")]
        mates_gone = list(m.get("mates_gone") or [])
        for k, _mate in enumerate(e for e in enh if e.get("mate")):
            out.append({"card": m["card"], "enhancers": plain,
                        "gone": k < len(mates_gone) and bool(mates_gone[k]),
                        "mate": True, "source": i})
    return out


def _tags(entry: dict) -> list[str]:
    return list(entry["card"].get("tags") or [])


def _hurts(effect: dict) -> bool:
    """Whether a monster-side effect works against the players (a bonus for the monster).

    A lone class with Super Munchkin (lone race with Half-Breed) is spared these, while
    effects that help the players still apply.
    """
    stat, value = effect.get("stat"), effect.get("value", 0)
    if stat == "strength":
        return (value or 0) > 0
    if stat == "run_away":
        return (value or 0) < 0
    return stat == "level_only"


def _monster_meets(effect: dict, entry: dict, facing: list[Player], edition: Edition) -> bool:
    """Whether a monster's (or its enhancer's) effect is triggered.

    Tags are the monster's own; race, class and sex keys are met when any one player facing
    it meets them all, and the effect then applies once, however many players meet it.
    """
    cond = effect.get("if") or {}
    if "tag" in cond and not set(ch.as_list(cond["tag"])) & set(_tags(entry)):
        return False
    if not set(cond) - {"tag"}:
        return True
    hurts = _hurts(effect)
    return any(ch.meets(cond, p, edition, skip=("tag",), without_free=hurts) for p in facing)


def fight_rules(entry_or_card: dict, rule: str) -> list[dict]:
    """The monster card's ``fight_rules`` of one kind (``card_schema.FightRule``)."""
    card = entry_or_card.get("card", entry_or_card)
    return [r for r in card.get("fight_rules") or () if r.get("rule") == rule]


def _rule_meets(rule: dict, entry: dict, players: list[Player], edition: Edition) -> bool:
    """A fight rule's ``if`` is met by one of ``players`` (always, without one)."""
    return _monster_meets({"if": rule.get("if")}, entry, players, edition)


def _fight_tags(players: list[Player], one_shots: list[dict], edition: Edition) -> set[str]:
    """Tags of the cards on the players' side: the facing players' equipped items and the
    players' one-shots in the fight (a fire item or potion for the Large Angry Chicken)."""
    tags = {t for p in players for c in p.get("cards") or ()
            if c.get("equipped") and c["card"].get("kind") == "item"
            and ch.usable(c["card"], p, edition) is None for t in c["card"].get("tags") or ()}
    tags |= {t for s in one_shots if s.get("side") != "monsters"
             for t in s["card"].get("tags") or ()}
    return tags


# A card without a name (a bare inline card) is called by what it is, in the reader's words.
UNNAMED = {"monster": N_("Monster"), "enhancer": N_("Enhancer"), "one-shot": N_("One-shot")}


def _name(card: Card, kind: str) -> str | dict:
    """The card's name (a fact, never translated), or a said for a card that has none."""
    return card["name"] if "name" in card else said(UNNAMED[kind])


def _monster_effects(entry: dict) -> list[tuple[str | dict, dict]]:
    out = [(_name(entry["card"], "monster"), e) for e in entry["card"].get("effects") or []]
    for enh in entry["enhancers"]:
        out += [(_name(enh, "enhancer"), e) for e in enh.get("effects") or []]
    return out


# Words for an effect's ``if`` that are not card names (races and classes are: the reader's page
# shows each as printed in the reader's language, companion.web.words).
_ROLE_WORDS = {"fighting": N_("while fighting"), "helping": N_("while helping"),
               "helped": N_("with a helper")}
_TAG_WORDS = {"undead": N_("Undead"), "dragon": N_("a Dragon"), "plant": N_("a Plant")}
# A race or class card's name alone (translated as it is: the page puts the name itself in the
# reader's language, as printed there).
_CARD_NAMED = {"race": N_("%(race)s"), "class": N_("%(class)s")}


def _condition(key: str, value: Any) -> str | dict:
    """One key of an effect's ``if`` as the reader sees it: a race or class by its card's name
    (a said whose ``race``/``class`` the page puts in the reader's language), a sex, a role or
    a tag in words, a ``not_`` key saying so."""
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    kind = key.removeprefix("not_")
    if kind in ("race", "class"):
        named = [said(N_("Human")) if v == "human" else said(_CARD_NAMED[kind], **{kind: ch.title(str(v))})
                 for v in values]
    elif kind == "sex":
        named = [said(N_("male")) if v == "male" else said(N_("female")) if v == "female" else str(v)
                 for v in values]
    elif kind == "role":
        named = [said(_ROLE_WORDS[v]) if v in _ROLE_WORDS else str(v) for v in values]
    elif kind == "tag":
        named = [said(_TAG_WORDS[v]) if v in _TAG_WORDS else str(v) for v in values]
    else:
        named = [str(v) for v in values]
    what = named[0]
    for more in named[1:]:
        what = said(N_("%(one)s or %(other)s"), one=what, other=more)
    return said(N_("not %(what)s"), what=what) if key.startswith("not_") else what


def _describe(source: str | dict, effect: dict, times: int | None = None) -> str | dict:
    """``"Corral Snake (pony)"``, ``"Fighting Trees (2 empty hands)"``: why a number is there,
    as a said (the source alone when nothing conditions it)."""
    conditions = [_condition(k, v) for k, v in (effect.get("if") or {}).items()]
    condition = conditions[0] if conditions else None
    for more in conditions[1:]:
        condition = said(N_("%(condition)s, %(more)s"), condition=condition, more=more)
    if times is None:
        return said(N_("%(source)s (%(condition)s)"), source=source,
                    condition=condition) if conditions else source
    if conditions:
        return said_plural("%(source)s (%(condition)s, %(n)s empty hand)", "%(source)s (%(condition)s, %(n)s empty hands)", times,
                           source=source, condition=condition)
    return said_plural("%(source)s (%(n)s empty hand)", "%(source)s (%(n)s empty hands)",
                       times, source=source)


# ---------------------------------------------------------------- the players' side


def _shot_lines(card: Card, player: Player | None, edition: Edition, roles: set[str],
                tags: set[str], effect: dict | None = None) -> list[dict]:
    """Breakdown lines of a players' one-shot: its plain bonus (``player`` None), or one of
    its effects when ``player`` meets it (nothing when they do not)."""
    if player is None:
        return ([{"source": _name(card, "one-shot"), "value": card["bonus"]}]
                if card.get("bonus") else [])
    if effect.get("stat") != "strength" or not ch.meets(
            effect.get("if"), player, edition, roles=roles, tags=tags):
        return []
    return [{"source": _describe(_name(card, "one-shot"), effect),
             "value": ch.effect_value(effect, player, edition)}]


def _player_side(player: Player, edition: Edition, roles: set[str], tags: set[str],
                 level_only: bool, shot_lines: list[dict],
                 level_ignored: bool = False) -> tuple[int, list[dict], bool]:
    """A player's combat strength in this fight, its breakdown (one-shot lines last), and
    whether it wins ties. ``level_ignored``: a monster against which only bonuses count
    (Insurance Salesman): the Level line is left out."""
    lines = [] if level_ignored else [{"source": said(N_("Level")), "value": player.get("level") or 1}]
    ties = False
    for eff in ch.active_effects(player, edition):
        if not ch.meets(eff.get("if"), player, edition, roles=roles, tags=tags):
            continue
        if eff.get("stat") == "wins_ties" and eff.get("value", True):
            ties = True
        if eff.get("stat") != "strength":
            continue
        if level_only and eff["card_kind"] == "item":
            continue
        times = ch.empty_hands(player, edition) if eff.get("per") == "empty_hand" else None
        lines.append({"source": _describe(eff["source"], eff, times),
                      "value": ch.effect_value(eff, player, edition)})
    if player.get("gear_adjust") and not level_only:
        lines.append({"source": said(N_("Gear")), "value": player["gear_adjust"]})
    lines += shot_lines
    return sum(line["value"] for line in lines), lines, ties


def _holder_effects(player: Player, edition: Edition, stat: str, roles: set[str],
                    tags: Iterable[str]) -> list[dict]:
    return [e for e in ch.active_effects(player, edition) if e.get("stat") == stat
            and ch.meets(e.get("if"), player, edition, roles=roles, tags=set(tags))]


# ---------------------------------------------------------------- compute


def compute(*, fighter: Player, helper: Player | None, monsters: list[dict], one_shots: list[dict],
            helper_forced: bool = False, stage: str = "fighting", escapes: Iterable[dict] = (),
            rules: TableRules) -> dict:
    """The public combat object for this fight (see the module docstring), by the table's
    ``rules``: a fight that reaches its winning level is one for the win."""
    ed = rules.edition
    entries = _entries(monsters)
    alive = [e for e in entries if not e["gone"]]
    fighter_id = fighter.get("id", "fighter")
    helper_id = None if helper is None else helper.get("id", "helper")

    for_the_win = _for_the_win(fighter, alive, rules)
    helper_counts = helper is not None and not (
        helper_forced and ed.forced_help_never_wins and for_the_win)
    facing = [fighter] + ([helper] if helper_counts else [])
    fight_tags = {t for e in alive for t in _tags(e)}
    level_only, level_ignored = _whole_fight_rules(alive, facing, ed)
    players = _players(fighter, helper if helper_counts else None, helper_id, one_shots, ed,
                       fight_tags, level_only, level_ignored)
    # a fighter alone with nothing but their Level (Pukachu: no help, no bonus)
    alone = helper is None and not level_ignored and len(players.fighter_lines) == 1
    out_monsters = [_monster_column(pos, entry, facing, ed, players.empty_hands, alone,
                                    players.tags,
                                    [s for s in players.monster_shots if s.get("monster") == pos])
                    for pos, entry in enumerate(entries)]
    side_lines, monsters_strength = _monsters_side(out_monsters, players.monster_shots, len(alive), ed)
    winning, needed = _outcome(bool(alive), players.strength, monsters_strength, players.wins_ties)

    return {
        "fighter": fighter_id, "helper": helper_id, "helper_forced": bool(helper_forced),
        "helper_counts": helper_counts, "level_only": level_only, "for_the_win": for_the_win,
        "level_ignored": level_ignored,
        "monsters": out_monsters,
        "fighter_strength": players.fighter_strength,
        "helper_strength": players.helper_strength if helper_counts else None,
        "players_strength": players.strength,
        "monsters_strength": monsters_strength,
        "winning": winning, "needed": needed, "wins_ties": players.wins_ties,
        "breakdown": {"fighter": players.fighter_lines, "helper": players.helper_lines,
                      "monsters": side_lines},
        "rewards": _rewards(fighter, helper if helper_counts else None, alive, out_monsters,
                            fight_tags, rules),
        "stage": stage,
        "escape": _escape(ed, entries, fighter, helper if helper_counts else None,
                          fighter_id, helper_id, helper_counts, escapes, one_shots),
    }


def _for_the_win(fighter: Player, alive: list[dict], rules: TableRules) -> bool:
    """A fight that would give the fighter the winning level is one "for the win"; where forced
    help never counts in such a fight (Tails), a forced helper drops out of the sums until the
    table records them as staying by choice (helper_forced false)."""
    kill_levels = sum(e["card"].get("levels", 1) for e in alive)
    return (fighter.get("level") or 1) + kill_levels >= rules.winning_level and bool(alive)


def _whole_fight_rules(alive: list[dict], facing: list[Player], ed: Edition) -> tuple[bool, bool]:
    """``level_only`` (item bonuses do not count) and ``level_ignored`` (Levels do not count):
    a monster's rule holds for the whole fight (every rulebook, Fighting Multiple Monsters:
    special abilities apply to the entire fight)."""
    level_only = any(eff.get("stat") == "level_only" and _monster_meets(eff, e, facing, ed)
                     for e in alive for _src, eff in _monster_effects(e))
    level_ignored = any(_rule_meets(r, e, facing, ed)
                        for e in alive for r in fight_rules(e, "level_ignored"))
    return level_only, level_ignored


class _Players(NamedTuple):
    """The players' side of a fight worked out: each column's strength and lines, and what the
    monsters' side needs from it."""

    fighter_strength: int
    fighter_lines: list[dict]
    helper_strength: int
    helper_lines: list[dict]
    wins_ties: bool
    monster_shots: list[dict]  # the one-shots played on the monsters' side
    tags: set[str]  # what extra_levels rules look at: the cards on the players' side
    empty_hands: int  # of the players facing the monsters

    @property
    def strength(self) -> int:
        return self.fighter_strength + self.helper_strength


def _players(fighter: Player, helper: Player | None, helper_id: Any, one_shots: list[dict],
             ed: Edition, fight_tags: set[str], level_only: bool, level_ignored: bool) -> _Players:
    """The fighter's column and, when the helper counts (``helper`` given), the helper's."""
    helper_counts = helper is not None
    fighter_roles = {"fighting"} | ({"helped"} if helper_counts else set())
    side = [("fighter", fighter, fighter_roles)] + (
        [("helper", helper, {"helping"})] if helper_counts else [])
    shot_lines, monster_shots = _sort_one_shots(one_shots, side, helper_counts, helper_id, ed, fight_tags)
    f_total, f_lines, f_ties = _player_side(fighter, ed, fighter_roles, fight_tags, level_only,
                                            shot_lines["fighter"], level_ignored)
    h_total, h_lines, h_ties = 0, [], False
    if helper_counts:
        h_total, h_lines, h_ties = _player_side(helper, ed, {"helping"}, fight_tags,
                                                level_only, shot_lines["helper"], level_ignored)
    facing = [fighter] + ([helper] if helper_counts else [])
    return _Players(f_total, f_lines, h_total, h_lines, f_ties or h_ties, monster_shots,
                    _fight_tags(facing, one_shots, ed), sum(ch.empty_hands(p, ed) for p in facing))


def _outcome(any_alive: bool, players_strength: int, monsters_strength: int,
             wins_ties: bool) -> tuple[bool, int]:
    """Whether the players are winning, and how much more they need (0 when winning)."""
    if not any_alive:
        # every monster was charmed or sent away: the fight is won without a kill
        return True, 0
    needed = max(0, monsters_strength - players_strength + (0 if wins_ties else 1))
    return needed == 0, needed


def _rewards(fighter: Player, helper: Player | None, alive: list[dict], out_monsters: list[dict],
             fight_tags: set[str], rules: TableRules) -> dict:
    """What a win brings: the treasures, the fighter's levels, the helper's (an Elf helper in
    classic: one per monster slain), and whether the helper shares the victory (variant
    shared_victory: a win that gives the fighter the winning level). ``helper``: the one who
    counts in the fight, if any."""
    ed = rules.edition
    fighter_levels = sum(m["levels"] for m in out_monsters)
    helper_levels = 0
    if helper is not None and ed.elf_helper_levels and _holder_effects(
            helper, ed, "helper_levels", {"helping"}, fight_tags):
        helper_levels = len(alive)
    shared = rules.has(SHARED_VICTORY) and helper is not None and bool(alive) and (
        (fighter.get("level") or 1) + fighter_levels >= rules.winning_level)
    return {"treasures": sum(m["treasures"] for m in out_monsters), "fighter_levels": fighter_levels,
            "helper_levels": helper_levels, "shared_victory": shared}


def _sort_one_shots(one_shots: list[dict], side: list[tuple], helper_counts: bool, helper_id: Any,
                    ed: Edition, fight_tags: set) -> tuple[dict[str, list], list[dict]]:
    """The players' one-shots as breakdown lines in the fighter's and the helper's columns,
    and the one-shots played on the monsters' side, apart.

    A players' one-shot counts in the column of whom it is for: the calculator says so
    (``for``); at a table it is whoever played it (``by``), so a helper's own potion is
    judged against the helper (an "if Elf" bonus), anyone else's against the fighter. A bonus
    only some players get (Yuppie Water: Elves only) counts once, for the player it was played
    for if they qualify, else for the other player on the side who does."""
    shot_lines: dict[str, list] = {"fighter": [], "helper": []}
    monster_shots = []
    for shot in one_shots:
        target = shot.get("for", shot.get("by"))
        if shot.get("side") == "monsters":
            monster_shots.append(shot)
            continue
        first = "helper" if helper_counts and target is not None and target == helper_id else "fighter"
        ordered = sorted(side, key=lambda s: s[0] != first)
        shot_lines[first] += _shot_lines(shot["card"], None, ed, set(), fight_tags)
        for eff in shot["card"].get("effects") or []:
            for column, who, roles in ordered:
                lines = _shot_lines(shot["card"], who, ed, roles, fight_tags, effect=eff)
                if lines:
                    shot_lines[column] += lines
                    break
    return shot_lines, monster_shots


def _monsters_side(out_monsters: list[dict], monster_shots: list[dict], alive: int,
                   ed: Edition) -> tuple[list[dict], int]:
    """The monsters' total strength, and the lines of what was played on their side as a
    whole (a one-shot naming no monster of this fight)."""
    side_lines = [{"source": _name(s["card"], "one-shot"), "value": s["card"].get("bonus") or 0}
                  for s in monster_shots
                  if not isinstance(s.get("monster"), int) or not 0 <= s["monster"] < len(out_monsters)]
    strength = (sum(m["strength"] for m in out_monsters if not m["gone"])
                + sum(line["value"] for line in side_lines))
    if ed.monsters_never_below_level_one and alive and strength < alive:
        # a card played on the monsters' side as a whole may not take them below level 1 each
        side_lines.append({"source": said(N_("no card takes a monster below level 1")),
                           "value": alive - strength})
        strength = alive
    return side_lines, strength


def _monster_column(pos: int, entry: dict, facing: list[Player], ed: Edition, hands: int,
                    alone: bool, players_tags: set, shots: list[dict]) -> dict:
    """One monster as the fight shows it: its strength with every bonus named (enhancers, its
    own conditions on who it faces, one-shots played on it), the treasures and levels it
    gives."""
    card = entry["card"]
    bonuses = [{"source": _name(enh, "enhancer"), "value": enh["bonus"]}
               for enh in entry["enhancers"] if enh.get("bonus")]
    extra_treasures = 0
    extra_levels = 0
    for src, eff in _monster_effects(entry):
        if not _monster_meets(eff, entry, facing, ed):
            continue
        stat = eff.get("stat")
        if stat == "strength":
            if eff.get("per") == "empty_hand":
                bonuses.append({"source": _describe(src, eff, hands), "value": eff.get("value", 0) * hands})
            else:
                bonuses.append({"source": _describe(src, eff), "value": eff.get("value", 0)})
        elif stat == "treasures":
            extra_treasures += eff.get("value", 0)
        elif stat == "levels":
            extra_levels += eff.get("value", 0)
    for rule in fight_rules(entry, "extra_levels"):
        if not _rule_meets(rule, entry, facing, ed):
            continue
        if (rule.get("alone") and alone) or set(rule.get("tags") or ()) & players_tags:
            extra_levels += rule.get("value", 0)
    for shot in shots:
        if shot["card"].get("bonus"):
            bonuses.append({"source": _name(shot["card"], "one-shot"), "value": shot["card"]["bonus"]})
    level = card.get("level") or 0
    strength = level + sum(b["value"] for b in bonuses)
    if ed.monsters_never_below_level_one and strength < 1:
        bonuses.append({"source": said(N_("no card takes a monster below level 1")), "value": 1 - strength})
        strength = 1
    # An enhancer that takes treasures away (Baby) leaves a monster that had some with one.
    printed = card.get("treasures") or 0
    # The monster's own conditions (Lawyers give a Thief none) are not enhancers.
    m_treasures = max(min(1, printed), printed
                      + sum(e.get("treasures") or 0 for e in entry["enhancers"])) + extra_treasures
    m_levels = 0 if entry["gone"] else card.get("levels", 1) + extra_levels
    return {
        "index": pos, "source": entry["source"], "name": _name(card, "monster"),
        "level": level, "strength": strength,
        "treasures": max(0, m_treasures), "levels": m_levels, "tags": _tags(entry),
        "mate": entry["mate"], "mate_of": entry["source"] if entry["mate"] else None,
        "gone": entry["gone"], "bonuses": bonuses,
    }


# What a decided fight keeps showing: the numbers it was decided on, not numbers recomputed
# after the win moved the levels (the result's words name the same numbers).
DECIDED = ("fighter_strength", "helper_strength", "players_strength", "monsters_strength",
           "winning", "needed", "breakdown", "monsters", "rewards")


def decided(view: dict, *, won: bool) -> dict:
    """The part of a computed fight to keep when it is decided (stored with the fight). A
    lost fight keeps its sums only: its monsters are still run from, one by one."""
    keys = DECIDED if won else [k for k in DECIDED if k not in ("monsters", "rewards")]
    return {key: view[key] for key in keys}


def as_decided(view: dict, kept: dict | None) -> dict:
    """``view`` showing the numbers a fight was decided on, when it has been (``kept`` is
    what ``decided`` returned then); running away still reads the live escape rows."""
    if kept:
        view.update({key: kept[key] for key in DECIDED if key in kept})
    return view


def _escape(ed: Edition, entries: list[dict], fighter: Player, helper: Player | None,
            fighter_id: Any, helper_id: Any, helper_counts: bool,
            escapes: Iterable[dict], one_shots: Iterable[dict] = ()) -> list[dict]:
    """The roll each player in the fight needs against each monster still in it."""
    recorded = {(r.get("player"), r.get("monster")): r for r in escapes}
    runners = [(fighter, fighter_id, {"fighting"} | ({"helped"} if helper_counts else set()))]
    if helper is not None:
        runners.append((helper, helper_id, {"helping"}))
    out = []
    for pos, entry in enumerate(entries):
        if entry["gone"]:
            continue
        for player, pid, roles in runners:
            row = _escape_row(ed, entry, pos, player, pid, roles, one_shots)
            rec = recorded.get((pid, pos))
            if rec is not None:
                row["roll"] = rec.get("roll")
                row["escaped"] = rec.get("escaped")
                if rec.get("second_try"):
                    row["second_try"] = True  # caught unless a power rolls it again
            out.append(row)
    return out


def _escape_row(ed: Edition, entry: dict, pos: int, player: Player, pid: Any, roles: set,
                one_shots: Iterable[dict]) -> dict:
    """What ``player`` needs to escape the monster at ``pos``, and what makes up that number."""
    tags = _tags(entry)
    # What makes up the number needed: the bare roll, then each run-away bonus (the
    # player's cards, a power used for this roll, the monster's), shown as ``parts``.
    parts = [{"source": said(N_("Bare roll to escape")), "value": ESCAPE_ON, "base": True}]
    for e in _holder_effects(player, ed, "run_away", roles, tags):
        parts.append({"source": _describe(e["source"], e), "value": ch.effect_value(e, player, ed)})
    # A power used for one roll (the Wizard's Flight Spell, reducers/powers.py).
    parts += [{"source": _name(s["card"], "one-shot"), "value": e.get("value", 0)} for s in one_shots
              if s.get("power") and s.get("for") == pid and s.get("monster") == pos
              for e in s["card"].get("effects") or () if e.get("stat") == "run_away"]
    auto = bool(_holder_effects(player, ed, "auto_escape", roles, tags))
    conditions = _monster_escape_conditions(ed, entry, player)
    parts += conditions["parts"]
    auto = auto or conditions["auto"]
    blocked = conditions["blocked"]
    mod = sum(part["value"] for part in parts[1:])
    needs = 1 if auto else (DIE + 1 if blocked else min(DIE + 1, max(1, ESCAPE_ON - mod)))
    row = {"player": pid, "monster": pos, "needs": needs,
           "chance": round(max(0, DIE + 1 - needs) / DIE, 3), "auto": auto,
           "parts": [part for part in parts if part["value"] or part.get("base")]}
    if conditions["not_pursued"]:
        row["not_pursued"] = True
    if blocked and not auto:
        row["rule"] = "monster-no-escape"  # why a 7 is needed: the ruling to show
    # the way out the monster offers: drop an item with one of these tags (Pit Bull)
    drop = sorted({t for r in fight_rules(entry, "drop_to_escape")
                   if _rule_meets(r, entry, [player], ed) for t in r.get("tags") or ()})
    if drop and not auto:
        row["drop_to_escape"] = drop
    return row


def _monster_escape_conditions(ed: Edition, entry: dict, player: Player) -> dict:
    """What the monster's own conditions (monster_conditions.py) do to ``player``'s escape:
    run-away bonuses (``parts``), an escape without a roll (``auto``; ``not_pursued`` when it
    does not chase them), or none possible (``blocked``: a 7 is needed)."""
    found = {"parts": [], "auto": False, "not_pursued": False, "blocked": False}
    for _src, eff in _monster_effects(entry):
        if not _monster_meets(eff, entry, [player], ed):
            continue
        if eff.get("stat") == "run_away":
            found["parts"].append({"source": _describe(_src, eff), "value": eff.get("value", 0)})
        elif eff.get("stat") == "auto_escape" and eff.get("value", True):
            found["auto"] = True
        elif eff.get("stat") == "no_pursuit" and (player.get("level") or 1) <= eff.get("value", 0):
            found["auto"] = found["not_pursued"] = True
        elif eff.get("stat") == "no_escape" and eff.get("value", True):
            found["blocked"] = True
    return found


# ---------------------------------------------------------------- the calculator


def calculator_player(data: dict, resolve: Callable[[str, str], Card | None] | None = None
                      ) -> Player:
    """A player dict from the calculator's ``{"level", "gear", "items", "races", "classes",
    "sex"}``.

    ``gear`` is a plain bonus (``gear_adjust``); ``items`` are equipped. A race or class may
    be a card dict or a name; a name is looked up with ``resolve(kind, name)`` when given
    (the web layer passes a catalog lookup so abilities such as a Pony's come along), else
    it becomes a bare card with no abilities. Two races or classes bring Half-Breed or Super
    Munchkin with them, since the table has already played them.
    """
    cards = []

    def add(card: Card, equipped: bool = False) -> None:
        cards.append({"iid": len(cards) + 1, "card": card, "equipped": equipped})

    for kind, key in (("race", "races"), ("class", "classes")):
        named = data.get(key) or []
        for value in named:
            card = value if isinstance(value, dict) else (
                (resolve(kind, value) if resolve else None) or {"kind": kind, "name": value})
            add({**card, "kind": kind})
        if len(named) > 1:
            add({"kind": "half-breed" if kind == "race" else "super-munchkin",
                 "name": "Half-Breed" if kind == "race" else "Super Munchkin"})
    for item in data.get("items") or []:
        add({**item, "kind": item.get("kind", "item")}, equipped=True)
    return {
        "level": int(data.get("level") or 1), "sex": data.get("sex") or "male",
        "gear_adjust": int(data.get("gear") or 0), "cards": cards, "dead": False,
    }
