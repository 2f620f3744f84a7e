"""The hand count: how many cards a player holds (the app never sees them, only their number).

The count follows what the app knows, so that powers that pay with cards see the hand the table
sees; the sheet's + and - correct the rest (``set_hand``, which writes no line of the log:
``words.in_log``). Where each rule is applied:

- treasures won in a fight go to the hands they are drawn for (``reducers/fight.py``, rulings
  ``treasure-face-up-with-help``, ``helper-treasure-draw``);
- a dead player's new hand is drawn when their next turn begins (``core.begin_turn``, ruling
  ``dead-redraw``), and the hand is lost at death (``sheet.death``, ruling ``dead-keeps``);
- Charity gives the cards over the limit away (``reducers/table.py``, ruling ``charity``); a
  shared Bad Stuff hands them round (``bad_stuff.py``);
- a card played from the hand leaves it (``play``, ``enhance``, ``one_shot``, ``fight``,
  ``add_monster``, ``sell``: each action's ``from_hand`` says whether it came from the hand,
  its default is what a table mostly means); a power pays its cards (``reducers/powers.py``).

A count never goes below 0 (a card the app did not see drawn is still played) nor above
``MAX_HAND``, the most ``set_hand`` takes, so the sheet's - always works.
"""

from __future__ import annotations

from .errors import BadAction
from .rules import TableRules
from .vocab import FASTER_PLAY
from .words import N_, said_plural

MAX_HAND = 60  # set_hand's bound (action_models.SetHandAction)
# Classic's Faster Play deals four of each deck, at the start and on coming back from death
# (ruling faster-play-classic); otherwise the edition's number (ruling dead-redraw).
FASTER_PLAY_DEAL = 4


def add_to_hand(player: dict | None, n: int) -> None:
    """``n`` cards come into ``player``'s hand (nobody's when None); at most ``MAX_HAND``."""
    if player is None or n <= 0 or player.get("hand") is None:  # None: a hand not counted
        return
    player["hand"] = min(MAX_HAND, player["hand"] + n)


def take_from_hand(player: dict | None, n: int = 1) -> None:
    """``n`` cards leave ``player``'s hand (nobody's when None); never below 0."""
    if player is None or n <= 0 or player.get("hand") is None:
        return
    player["hand"] = max(0, player["hand"] - n)


def card_source(action, default: str) -> str:
    """Where a played card came from: ``source`` ("hand", "door", "body") when the phone said
    it, else the older ``from_hand`` (true: the hand; false: not a hand, the door), else
    ``default``, what the moment makes likely. The two fields must not disagree."""
    source, from_hand = getattr(action, "source", None), getattr(action, "from_hand", None)
    if source is not None and from_hand is not None and (source == "hand") != from_hand:
        raise BadAction(N_("'source' and 'from_hand' disagree: say where the card came from once."))
    if getattr(action, "body", None) is not None and source not in (None, "body"):
        raise BadAction(N_("'body' goes with 'source': \"body\" only."))
    if source is not None:
        return source
    if getattr(action, "body", None) is not None:
        return "body"
    if from_hand is not None:
        return "hand" if from_hand else "door"
    return default


def new_hand(rules: TableRules) -> int:
    """Cards drawn from each deck by a dead player's new character (rule dead-redraw), and
    at the start: the table's Faster Play where its box prints one, else the box's number."""
    if rules.has(FASTER_PLAY) and FASTER_PLAY in rules.edition.variants:
        return FASTER_PLAY_DEAL
    return rules.edition.dead_redraw


def draw_new_hand(player: dict) -> dict | None:
    """A dead player's turn begins: the new character draws the hand its death left owed
    (``player["redraw"]``, set by ``death.kill``; rule dead-redraw). The said, or None."""
    owed = player.pop("redraw", 0)
    if not owed:
        return None
    add_to_hand(player, owed)
    return said_plural("%(name)s draws %(n)s card for the new character",
                       "%(name)s draws %(n)s cards for the new character", owed, name=player["name"], sex=player.get("sex"))
