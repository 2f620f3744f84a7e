"""Joining a fight as the helper, bribe offers, and carrying out the accepted deal.

``help`` works out who could turn a fight and what a fair bribe is; this module holds the
rules that bind: one helper, the living only, what may be promised, and the ledger.
"""

from __future__ import annotations

from .editions import Edition
from .errors import BadAction, RuleViolation


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_join(state: dict, fight: dict, player: dict, edition: Edition) -> None:
    if fight["stage"] != "fighting":
        raise RuleViolation("no-combat", "the fight has already been decided")
    if player["id"] == fight["fighter"]:
        raise RuleViolation("helper-not-fighter", f"{player['name']} is the one fighting")
    if player["dead"]:
        raise RuleViolation("dead-cannot-help", f"{player['name']} is dead until the next turn")
    if fight.get("helper") not in (None, player["id"]):
        helper = next(p for p in state["players"] if p["id"] == fight["helper"])
        raise RuleViolation("helper-limit", f"{helper['name']} is already helping")


def check_leave(state: dict, fight: dict, helper: dict, edition: Edition) -> None:
    """A helper forced in by a card may back out (Tails); a volunteer stays to the end."""
    if fight.get("helper_forced") and edition.forced_help_never_wins:
        return
    raise RuleViolation("voluntary-helper-stays", f"{helper['name']} agreed to help")


def make_offer(state: dict, fight: dict, action: dict, edition: Edition, view: dict) -> dict:
    by_id = {p["id"]: p for p in state["players"]}
    to = action.get("to")
    if isinstance(to, bool) or not isinstance(to, int) or to not in by_id:
        raise BadAction("'to' must be the id of the player you are asking.")
    check_join(state, fight, by_id[to], edition)
    total = view["rewards"]["treasures"]
    treasures = action.get("treasures", 0)
    if isinstance(treasures, bool) or not isinstance(treasures, int) or treasures < 0:
        raise BadAction("'treasures' must be a whole number, 0 or more.")
    if treasures > total:
        raise RuleViolation("bribe-treasure-limit", f"this fight yields {total} treasures")
    pick_first = action.get("pick_first", False)
    if not isinstance(pick_first, bool):
        raise BadAction("'pick_first' must be true or false.")
    iids = action.get("items", [])
    if not isinstance(iids, list) or not all(_whole(i) for i in iids):
        raise BadAction("'items' must be a list of card instance ids.")
    fighter = by_id[fight["fighter"]]
    owned = {c["iid"]: c for c in fighter["cards"] if c["card"]["kind"] == "item"}
    names, gold = [], 0
    for iid in iids:
        if iid not in owned:
            raise RuleViolation("bribe-own-items", f"{fighter['name']} carries no item {iid}")
        names.append(owned[iid]["card"]["name"])
        gold += owned[iid]["card"].get("gold") or 0
    if not treasures and not iids:
        raise BadAction("An offer promises treasures, items, or both.")
    return {"by": fighter["id"], "to": to, "treasures": treasures, "pick_first": pick_first,
            "items": list(iids), "item_names": names, "gold": gold}


def describe_offer(state: dict, offer: dict, prefix: str) -> str:
    names = {p["id"]: p["name"] for p in state["players"]}
    parts = []
    if offer["treasures"]:
        parts.append(f"{offer['treasures']} treasure{'s' if offer['treasures'] != 1 else ''}"
                     f" ({'helper picks first' if offer['pick_first'] else 'fighter picks first'})")
    if offer["items"]:
        parts.append(", ".join(offer["item_names"]) + f" ({offer['gold']} gold)")
    return f"{prefix} {names[offer['to']]}: " + " and ".join(parts)


def carry_out_deal(state: dict, fight: dict, rewards: dict) -> str | None:
    """At a won fight: hand over promised items and write the deal into the ledger."""
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
    text = describe_offer(state, dict(deal, treasures=treasures), "Deal kept: "
                          f"{fighter['name']} pays")
    state.setdefault("ledger", []).append({
        "fighter": fighter["id"], "helper": helper["id"], "treasures": treasures,
        "pick_first": deal["pick_first"], "items": moved, "text": text,
    })
    return text
