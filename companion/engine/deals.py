"""Joining a fight as the helper, bribe offers, and carrying out the accepted deal.

``help`` works out who could turn a fight and what a fair bribe is; this module holds the
rules that bind: one helper, the living only, what may be promised, and the ledger.
"""

from __future__ import annotations

from .action_models import OfferAction
from .combat import fight_rules
from .errors import BadAction, RuleViolation
from .rules import TableRules
from .words import N_, said, said_plural


def help_forbidden_by(monsters: list[dict]) -> dict | None:
    """The monster in the fight that nobody may help against (Gazebo: ``no_help``), or None."""
    return next((m for m in monsters or () if not m.get("gone") and fight_rules(m, "no_help")), None)


def check_no_help(fight: dict) -> None:
    """Asked before anyone is asked: joining, an offer, a bribe (card rule monster-no-help)."""
    lone = help_forbidden_by(fight.get("monsters"))
    if lone is not None:
        raise RuleViolation("monster-no-help", N_("nobody may help against %(monster)s"),
                            monster=lone["card"].get("name") or said(N_("Monster")))


def check_join(state: dict, fight: dict, player: dict) -> None:
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", N_("the fight has already been decided"))
    if player["id"] == fight["fighter"]:
        raise RuleViolation("helper-not-fighter", N_("%(name)s is the one fighting"), name=player["name"], sex=player.get("sex"))
    if player["dead"]:
        raise RuleViolation("dead-cannot-help", N_("%(name)s is dead until the next turn"),
                            name=player["name"], sex=player["sex"])
    if fight.get("helper") not in (None, player["id"]):
        helper = next(p for p in state["players"] if p["id"] == fight["helper"])
        raise RuleViolation("helper-limit", N_("%(name)s is already helping"), name=helper["name"], sex=helper.get("sex"))
    check_no_help(fight)


# The rule that keeps forced help out of a fight for the win: printed in Tails, and the official
# update for a table of another edition that chose it (the ruling's official part gives that
# answer and its source, ``rulebook.fill``).
FORCED_HELP_RULE = "forced-helper-may-leave"


def check_forced(state: dict, fight: dict, player: dict, rules: TableRules, for_the_win: bool) -> None:
    """A card that makes someone help does not work in a fight for the win, where the table's
    rules say so (Tails, Asking For Help; every edition under the official updates)."""
    if for_the_win and rules.edition.forced_help_never_wins:
        fighter = next(p for p in state["players"] if p["id"] == fight["fighter"])
        raise RuleViolation(FORCED_HELP_RULE,
                            N_("this fight would give %(fighter)s the winning level, so %(name)s "
                               "cannot be made to help"), fighter=fighter["name"], name=player["name"],
                            sex=player["sex"])


def check_leave(state: dict, fight: dict, helper: dict, rules: TableRules, for_the_win: bool) -> None:
    """A volunteer stays to the end. A helper forced in by a card may back out once the fight
    has become one for the win, and only then, where the table's rules do not count forced
    help in such a fight (Tails, Asking For Help)."""
    if fight.get("helper_forced") and rules.edition.forced_help_never_wins:
        if for_the_win:
            return
        raise RuleViolation(FORCED_HELP_RULE,
                            N_("%(name)s was made to help and may back out only once the fight "
                               "would give the winning level"), name=helper["name"], sex=helper["sex"])
    raise RuleViolation("voluntary-helper-stays", N_("%(name)s agreed to help"), name=helper["name"], sex=helper.get("sex"))


def make_offer(state: dict, fight: dict, action: OfferAction, view: dict) -> dict:
    by_id = {p["id"]: p for p in state["players"]}
    to = action.to
    if to not in by_id:
        raise BadAction(N_("'to' must be the id of the player you are asking."))
    check_join(state, fight, by_id[to])
    total = view["rewards"]["treasures"]
    treasures = action.treasures
    if treasures > total:
        raise RuleViolation("bribe-treasure-limit", said_plural("this fight yields %(n)s treasure", "this fight yields %(n)s treasures", total))
    pick_first = action.pick_first
    iids = action.items
    fighter = by_id[fight["fighter"]]
    owned = {c["iid"]: c for c in fighter["cards"] if c["card"]["kind"] == "item"}
    names, gold = [], 0
    for iid in iids:
        if iid not in owned:
            raise RuleViolation("bribe-own-items", N_("%(name)s carries no item %(iid)s"),
                                name=fighter["name"], sex=fighter.get("sex"), iid=iid)
        names.append(owned[iid]["card"]["name"])
        gold += owned[iid]["card"].get("gold") or 0
    if not treasures and not iids:
        raise BadAction(N_("An offer promises treasures, items, or both."))
    return {"by": fighter["id"], "to": to, "treasures": treasures, "pick_first": pick_first,
            "items": list(iids), "item_names": names, "gold": gold}


def items_said(names: list[str], gold: int) -> dict:
    """``"Samovar, Cloak (700 gold)"``: items (card names, facts) and what they are worth."""
    return said(N_("%(items)s (%(gold)s gold)"), items=", ".join(names), gold=gold)


def offer_terms(offer: dict) -> dict:
    """What an offer promises, as a said: ``"2 treasures (helper picks first) and Samovar
    (300 gold)"``."""
    treasures = items = None
    if offer["treasures"]:
        if offer["pick_first"]:
            treasures = said_plural("%(n)s treasure (helper picks first)", "%(n)s treasures (helper picks first)", offer["treasures"])
        else:
            treasures = said_plural("%(n)s treasure (fighter picks first)", "%(n)s treasures (fighter picks first)", offer["treasures"])
    if offer["items"]:
        items = items_said(offer["item_names"], offer["gold"])
    if treasures and items:
        return said(N_("%(treasures)s and %(items)s"), treasures=treasures, items=items)
    return treasures or items or said(N_("nothing"))


def carry_out_deal(state: dict, fight: dict, rewards: dict) -> dict | None:
    """At a won fight: hand over promised items and write the deal into the ledger; the
    ledger line (a said) is returned for the fight's result."""
    deal = fight.get("deal")
    if not deal or fight.get("helper") != deal["to"]:
        return None
    by_id = {p["id"]: p for p in state["players"]}
    fighter, helper = by_id[deal["by"]], by_id[deal["to"]]
    moved = []
    for iid in deal["items"]:
        entry = next((c for c in fighter["cards"] if c["iid"] == iid), None)
        if entry is not None:  # an item lost during the fight cannot be handed over
            fighter["cards"].remove(entry)
            helper["cards"].append({"iid": iid, "card": entry["card"], "equipped": False})
            moved.append(entry["card"]["name"])
    treasures = min(deal["treasures"], rewards["treasures"])
    text = said(N_("Deal kept: %(name)s pays %(to_name)s: %(terms)s"), name=fighter["name"], sex=fighter.get("sex"),
                to_name=helper["name"], terms=offer_terms(dict(deal, treasures=treasures)))
    state.setdefault("ledger", []).append({
        "fighter": fighter["id"], "helper": helper["id"], "treasures": treasures,
        "pick_first": deal["pick_first"], "items": moved, "text": text,
    })
    return text
