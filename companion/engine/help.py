"""Who could turn a losing fight by helping, and what a fair bribe would be.

Both functions only read: they run ``combat.compute`` with each candidate as the helper, so
a candidate's strength includes their own abilities (a Dog helping) and the fighter's (a
Pony being helped), and the monster effects the candidate would trigger (an Elf against a
monster that hates Elves, unless the fighter already triggered it). The rules that bind a
deal (one helper, the living only, the ledger) live in ``deals``.
"""

from __future__ import annotations

from . import character, combat
from .deals import help_forbidden_by, items_said
from .editions import Edition
from .rules import TableRules
from .words import N_, said, said_plural

# What one treasure card is taken to be worth when a bribe is paid in items instead. Items
# in the five rulebooks' decks are mostly worth 100 to 600 gold and many treasures are not
# items at all, so a round 300 is a figure the table can argue with, not a rule.
GOLD_PER_TREASURE = 300


def _name(player: dict) -> str | dict:
    return player.get("name") or said(N_("Player %(id)s"), id=player.get("id", "?"))


def helper_options(*, fighter: dict, others: list[dict], monsters: list[dict],
                   one_shots: list[dict], helper: dict | None = None,
                   rules: TableRules) -> list[dict]:
    """For each other player: could they help, how strong would they be, would that win, by
    the table's ``rules``.

    Returns ``[{"player", "name", "can_help", "why_not", "strength", "would_win", "margin",
    "needed"}]`` in the order of ``others``. ``margin`` is the players' side minus the
    monsters' with that player as the helper (positive: winning by that much; a Warrior
    side also wins at 0, see ``would_win``). A dead player or one already in the fight
    cannot help; while someone else helps, the numbers show what a swap would give.
    """
    out = []
    helper_id = None if helper is None else helper.get("id")
    lone = help_forbidden_by(monsters)
    for other in others:
        why = None
        if lone is not None:  # Gazebo: nobody is asked, the finder says why (monster-no-help)
            why = said(N_("nobody may help against %(monster)s"),
                       monster=lone["card"].get("name") or said(N_("Monster")))
        elif other.get("id") == fighter.get("id"):
            why = said(N_("%(name)s is the one fighting"), name=_name(other), sex=other.get("sex"))
        elif helper_id is not None and other.get("id") == helper_id:
            why = said(N_("%(name)s is already helping"), name=_name(other), sex=other.get("sex"))
        elif other.get("dead"):
            why = said(N_("%(name)s is dead until their next turn"), name=_name(other),
                           sex=other.get("sex"))
        elif helper is not None:
            why = said(N_("only one player can help and %(name)s already does"), name=_name(helper), sex=helper.get("sex"))
        view = combat.compute(rules=rules, fighter=fighter, helper=other, monsters=monsters,
                              one_shots=one_shots)
        out.append({
            "player": other.get("id"), "name": _name(other), "can_help": why is None,
            "why_not": why, "strength": view["helper_strength"],
            "would_win": view["winning"],
            "margin": view["players_strength"] - view["monsters_strength"],
            "needed": view["needed"],
        })
    return out


def _round_half_up(x: float) -> int:
    return int(x + 0.5)


def _pick_items(fighter: dict, target_gold: int, edition: Edition) -> list[dict]:
    """Carried items worth at least ``target_gold``, sparing what the fighter fights with.

    One item if a single one is enough (the cheapest such), else the fewest from the most
    valuable down; items that give the fighter nothing right now go first.
    """
    rows = [r for r in character.item_rows(fighter, edition) if (r["gold"] or 0) > 0]
    if not rows or target_gold <= 0:
        return []
    enough = [r for r in rows if r["gold"] >= target_gold]
    if enough:
        best = min(enough, key=lambda r: (r["counts"], r["gold"], str(r["iid"])))
        return [best]
    chosen, total = [], 0
    for r in sorted(rows, key=lambda r: (r["counts"], -r["gold"], str(r["iid"]))):
        chosen.append(r)
        total += r["gold"]
        if total >= target_gold:
            return chosen
    return []


def suggest_bribe(*, fighter: dict, helper: dict, monsters: list[dict], one_shots: list[dict],
                  rules: TableRules) -> dict:
    """A deterministic bribe for ``helper`` to help ``fighter`` win this fight, by the table's
    ``rules``.

    The helper's share of the fight's treasures follows their share of the players'
    strength (rounded half up, at least one); they pick first when they bring half or more.
    A fight that gives the fighter the game is worth every treasure. An Elf helper who gains
    levels anyway (classic) is offered one treasure less. The same value is also offered in
    carried items at ``GOLD_PER_TREASURE`` gold per treasure. ``explanation`` says all this
    in one line.
    """
    with_helper = combat.compute(rules=rules, fighter=fighter, helper=helper, monsters=monsters,
                                 one_shots=one_shots)
    alone = combat.compute(rules=rules, fighter=fighter, helper=None, monsters=monsters,
                           one_shots=one_shots)
    h, f = _name(helper), _name(fighter)
    total = with_helper["rewards"]["treasures"]
    base = {"helper": helper.get("id"), "would_win": with_helper["winning"], "treasures": 0,
            "of": total, "pick_first": False, "items": [], "items_gold": 0, "share": 0.0}
    no_bribe = _no_bribe_needed(with_helper, alone, h, f)
    if no_bribe is not None:
        return {**base, "explanation": no_bribe}
    treasures, pick_first, share, why = _fair_share(with_helper, h, f)
    items = _pick_items(fighter, treasures * GOLD_PER_TREASURE, rules.edition)
    gold = sum(r["gold"] for r in items)
    terms = {"treasures": said_plural("%(n)s treasure", "%(n)s treasures", treasures),
             "picker": h if pick_first else f}
    if items:
        offer = said(N_("offer %(treasures)s, %(picker)s picks first - or %(items)s"), **terms,
                     items=items_said([r["name"] for r in items], gold))
    else:
        offer = said(N_("offer %(treasures)s, %(picker)s picks first"), **terms)
    return {**base, "treasures": treasures, "pick_first": pick_first,
            "items": [{"iid": r["iid"], "name": r["name"], "gold": r["gold"]} for r in items],
            "items_gold": gold, "share": round(share, 3),
            "explanation": said(N_("%(why)s: %(offer)s."), why=why, offer=offer)}


def _no_bribe_needed(with_helper: dict, alone: dict, h: str | dict, f: str | dict) -> dict | None:
    """Why no bribe is worth offering (the help would not win, or the fighter wins alone), or
    None when one is."""
    if not with_helper["winning"]:
        return said(N_("Even with %(helper)s the monsters still lead; the players would need "
                       "%(needed)s more, so no bribe buys this fight."),
                    helper=h, needed=with_helper["needed"])
    if alone["winning"]:
        return said(N_("%(fighter)s already wins without help: no bribe needed."), fighter=f)
    return None


def _fair_share(with_helper: dict, h: str | dict, f: str | dict) -> tuple[int, bool, float, dict]:
    """The treasures the helper is offered, whether they pick first, their share of the
    players' strength and why, as a said."""
    hs = max(0, with_helper["helper_strength"] or 0)
    fs = max(0, with_helper["fighter_strength"])
    share = hs / (hs + fs) if hs + fs else 0.5
    total = with_helper["rewards"]["treasures"]
    helper_levels = with_helper["rewards"]["helper_levels"]
    if with_helper["for_the_win"]:
        why = said_plural("this fight wins %(fighter)s the game, so it is worth its %(n)s treasure", "this fight wins %(fighter)s the game, so it is worth all %(n)s treasures",
                          total, fighter=f)
        return total, True, share, why
    treasures = min(total, max(1 if total else 0, _round_half_up(share * total)))
    if helper_levels and treasures:
        treasures -= 1
    brings = {"helper": h, "strength": hs, "of": hs + fs, "percent": round(share * 100),
              "worth": said_plural("%(n)s treasure", "%(n)s treasures", total)}
    if helper_levels:
        why = said(N_("%(helper)s brings %(strength)s of %(of)s strength (%(percent)s%%) to a "
                      "fight worth %(worth)s and gains %(levels)s anyway"), **brings,
                   levels=said_plural("%(n)s level", "%(n)s levels", helper_levels))
    else:
        why = said(N_("%(helper)s brings %(strength)s of %(of)s strength (%(percent)s%%) to a "
                      "fight worth %(worth)s"), **brings)
    return treasures, share >= 0.5, share, why
