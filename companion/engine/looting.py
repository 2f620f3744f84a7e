"""Looting the body: a dead player's hand and the cards they had in play, taken one card each.

Every rulebook with a Death section says it alike (classic, Oz, Spell Skool, Tails: Death,
Looting The Body; Russia prints no Death section and plays as classic, ruling
``death-looting``): the dead player's hand is laid out beside the cards they had in play;
starting with the highest level (ties: a die), each other living player takes one card;
whatever is left is discarded. Oz, Spell Skool and Tails add that looted cards go into the
looters' hands; classic does not say where they go, and the app follows the newer books there
(an item taken is then played from the hand as usual).

The body is ``state["bodies"]``: one entry per death whose looting is open::

    {"player": id, "name": ..., "cards": [card entries in play], "hand": n | None,
     "order": [looter ids], "looted": [looter ids that took a card]}

``hand`` None: the table did not count the dead player's hand, so the body's hand is unknown
(any number of unseen cards may be taken from it). Looting ends when every looter in the order
has taken a card, when the body is empty, when a player ends it (``end_looting``), or when a
new turn begins; what is left is discarded.
"""

from __future__ import annotations

from .character import is_divine_intervention
from .errors import BadAction, RuleViolation
from .hand import add_to_hand
from .state import check_not_dead, find_player, next_looter
from .words import N_

RULE = "death-looting"


def bodies(state: dict) -> list[dict]:
    return state.get("bodies") or []


def lay_out(state: dict, dead: dict, in_play: list[dict], hand: int | None,
            order: list[int]) -> dict | None:
    """The body of ``dead``: the cards lost in play and the hand, with its looting order.
    None when there is nothing to loot or nobody to loot it."""
    for other in bodies(state):  # a dead player loots no more (dead characters receive no cards)
        if dead["id"] in other["order"] and dead["id"] not in other["looted"]:
            other["order"] = [pid for pid in other["order"] if pid != dead["id"]]
    state["bodies"] = [b for b in bodies(state) if not done(b)]
    if not order or (not in_play and hand == 0):
        return None
    body = {"player": dead["id"], "name": dead["name"], "sex": dead["sex"],
            "cards": list(in_play), "hand": hand, "order": list(order), "looted": []}
    state["bodies"] = [b for b in bodies(state) if b["player"] != dead["id"]] + [body]
    return body


def find_body(state: dict, pid: int | None) -> dict:
    """The open body of player ``pid`` (the only open one when ``pid`` is None)."""
    open_ = bodies(state)
    if pid is None:
        if len(open_) == 1:
            return open_[0]
        raise BadAction(N_("Name the body ('body': the dead player's id)."))
    for body in open_:
        if body["player"] == pid:
            return body
    raise RuleViolation(RULE, N_("there is no body of %(name)s to loot"),
                        name=find_player(state, pid, "body")["name"], sex=find_player(state, pid, 'body').get("sex"))


def is_empty(body: dict) -> bool:
    return not body["cards"] and body["hand"] == 0


def check_turn(state: dict, body: dict, looter: dict) -> None:
    """A looter takes one card, in the order (highest level first, ties by a die)."""
    if looter["id"] == body["player"]:
        raise RuleViolation(RULE, N_("%(name)s cannot loot their own body"), name=looter["name"],
                            sex=looter["sex"])
    if looter["id"] in body["looted"]:
        raise RuleViolation(RULE, N_("%(name)s has already taken a card from this body"),
                            name=looter["name"], sex=looter["sex"])
    if looter["id"] not in body["order"]:
        raise RuleViolation(RULE, N_("%(name)s is not in the looting order"), name=looter["name"],
                            sex=looter["sex"])
    first = next_looter(body)
    if first != looter["id"]:
        waiting = find_player(state, first)
        raise RuleViolation(RULE, N_("%(name)s chooses first"), name=waiting["name"],
                            sex=waiting["sex"])
    check_not_dead(looter)


def check_take(state: dict, body: dict, looter: dict, *, instance: int | None = None,
               card_id: str | None = None, unseen: bool = False) -> dict | None:
    """Whether ``looter`` may take that card now (read only): the card in play it names, or
    None for an unseen card of the hand; refuses otherwise."""
    check_turn(state, body, looter)
    taken = None
    if instance is not None or card_id is not None:
        taken = next((e for e in body["cards"]
                      if (instance is not None and e["iid"] == instance)
                      or (instance is None and e["card"].get("id") == card_id)), None)
        if taken is None and instance is not None:
            raise BadAction(N_("The body of %(name)s has no card %(instance)s."),
                            name=body["name"], sex=body.get("sex"), instance=instance)
    if taken is None:
        if not (unseen or card_id is not None):
            raise BadAction(N_("Name the card taken: 'instance' (a card the body had in play) or "
                               "'from_hand': true (an unseen card of its hand)."))
        # A card named but not lying in play came from the dead player's hand.
        if body["hand"] == 0:
            raise RuleViolation(RULE, N_("the hand of %(name)s has no cards left"), name=body["name"], sex=body.get("sex"))
    return taken


def take(state: dict, body: dict, looter: dict, *, instance: int | None = None,
         card_id: str | None = None, unseen: bool = False) -> dict | None:
    """``looter`` takes one card: the card in play ``instance`` (or the one whose catalog id
    is ``card_id``), or one unseen card of the hand (``check_take`` says whether it may).
    Returns the card taken from play (None for a card of the hand). The looter's pick is
    spent; the caller puts the card where it goes."""
    taken = check_take(state, body, looter, instance=instance, card_id=card_id, unseen=unseen)
    if taken is not None:
        body["cards"] = [e for e in body["cards"] if e is not taken]
    elif body["hand"] is not None:
        body["hand"] -= 1
    body["looted"] = body["looted"] + [looter["id"]]
    return taken


def into_hand(looter: dict) -> None:
    """A looted card goes into the looter's hand (Oz, Spell Skool, Tails: Death)."""
    add_to_hand(looter, 1)


def done(body: dict) -> bool:
    """Looting ends once every looter has taken a card, or nothing is left."""
    return next_looter(body) is None or is_empty(body)


def close(state: dict, body: dict) -> dict:
    """The body's looting ends: it leaves the table; returns what was left (discarded)."""
    state["bodies"] = [b for b in bodies(state) if b["player"] != body["player"]]
    return {"cards": [e["card"]["name"] for e in body["cards"]], "hand": body["hand"]}


def close_all(state: dict) -> None:
    """A new turn begins: any looting still open ends, its leftovers discarded."""
    if state.get("bodies"):
        state["bodies"] = []


def bodies_for(state: dict, pid: int | None) -> list[dict]:
    """The open bodies ``pid`` may take its next card from now (its pick is next)."""
    if pid is None:
        return []
    return [b for b in bodies(state) if next_looter(b) == pid]


def likely_source(state: dict, pid: int | None, card: dict) -> str:
    """Where a card a phone is about to play most likely came from, the choice shown first
    ("hand", "door", or "body:<dead player's id>"): a card lying on a body this seat loots
    next comes from there; a monster outside a fight was just kicked open (the door), and so
    was Divine Intervention (played as soon as it is drawn: the engine's own default for it);
    a monster, an enhancer, a one-shot or anything else played otherwise comes from the hand,
    unless the seat's hand is counted at 0 (then the door: no card is left in that hand)."""
    for body in bodies_for(state, pid):
        if any(e["card"].get("id") == card.get("id") for e in body["cards"]):
            return f"body:{body['player']}"
    fight = state.get("combat")
    if card.get("kind") == "monster" and not (fight and fight.get("stage") == "fighting"):
        return "door"
    if is_divine_intervention(card):
        return "door"
    holder = next((p for p in state["players"] if p["id"] == pid), None)
    if holder is not None and holder.get("hand") == 0:
        return "door"
    return "hand"
