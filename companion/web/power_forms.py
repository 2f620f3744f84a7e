"""The moves of one race or class power, as the phone offers them: a button each while they
are few, one form with choices where a power has many moves on the same player or monster.

The engine lists every accepted move whole (``power_moves``): a Thief's Theft is one move per
item of each other player, per number of cards discarded, per outcome, a dozen or more
buttons. Here the moves on one target become one form: the item and the cards to discard are
picked, and "it worked" or "it failed" sends it; a Backstab's player and cards are picked in
one form. A combination the list lacks is the engine's to refuse, with its reason, like any
tap."""

from __future__ import annotations

CHOICES = ("target", "monster", "item", "from_hand", "succeeded")  # what a form lets the player pick
BUTTONS_AT_MOST = 3  # classic Berserking's 1, 2 or 3 cards stay three buttons


def power_forms(moves: list[dict]) -> list[dict]:
    """``moves``: one power's accepted ``use_power`` entries, in the engine's order.

    Each answer is ``{"move": entry}`` (a button that sends it) or ``{"fixed": fields,
    "choices": {field: [values]}, "needs": [...]}`` (a form: the fixed fields hidden, a
    choice per field that varies among the moves it stands for)."""
    groups: dict[tuple, list[dict]] = {}
    for move in moves:
        # An item belongs to its holder: the items of one player make one form.
        fixed = ("target",) if "item" in move else ()
        key = tuple((k, v) for k, v in move.items() if (k not in CHOICES or k in fixed) and k != "needs")
        groups.setdefault(key, []).append(move)
    forms: list[dict] = []
    for key, group in groups.items():
        # A move that takes a number from the table (a die, the bonus on the card) is one
        # form with one field for it: a field per button was typed in and then another
        # button tapped, and the number was lost.
        if len(group) == 1 or (len(group) <= BUTTONS_AT_MOST and not group[0].get("needs")):
            forms.extend({"move": move} for move in group)
            continue
        fixed, choices = dict(key), {}
        for name in CHOICES:
            values = list(dict.fromkeys(move[name] for move in group if name in move))
            if len(values) > 1:
                choices[name] = values
            elif values:
                fixed[name] = values[0]
        forms.append({"fixed": fixed, "choices": choices, "needs": group[0].get("needs") or []})
    return forms
