"""Race and class powers as data, one table per edition.

A power belongs to whoever has its race or class card in play (``holder``). Using one is the
``use_power`` action (``reducers/powers.py``): the engine checks who has it, when it may be
used, its limit and its cost in discards, then applies its effect. This module only says what
each power is; the reducer enforces it, and ``candidates`` lists what a seat could try, for
``allowed``.

What each field means:

- ``cost``: discards. ``least``/``most`` cards in all, from the hand (``from_hand``, a count)
  or from the cards in play (``from_play``, instance ids); ``whole_hand``: the whole hand and
  nothing else, at least ``least`` cards; ``swap``: the Cleric's Resurrection, a card taken for
  each card discarded, so the hand count stays. A race or class card never pays for its own
  power, and a curse kept as a reminder never pays for any (``discard-to-power``).
- ``when``: ``fight`` (a fight still being fought, by a player in it), ``fight_any`` (a fight
  still being fought, used by anyone on a player in it: Backstab), ``running`` (running away,
  for a roll not yet made), ``no_fight`` (no fight at the table), ``not_fighting`` (neither
  the user nor the target is in a fight), ``any``.
- ``limit``: ``once_per_combat``, ``cards_per_combat`` (at most ``cost.most`` cards in one
  fight, over any number of uses), ``once_per_victim`` (per fight), ``once_per_monster`` (per
  run-away roll).
- ``effect``: ``strength`` (``per_card`` x cards for the user in this fight, only when a
  monster has ``tag``; no ``per_card``: the table enters the card's ``bonus``, or records it),
  ``backstab`` (``value`` off the target's strength; no ``value``: the table's ``bonus``),
  ``flight`` (+``per_card`` x cards to one run-away roll, then the roll; with the official
  updates the die comes first and the cards are paid only when the bare roll failed, rule
  ``wizard-flight-timing``), ``second_try``
  (a failed roll is rolled again, then the roll), ``charm`` (one monster leaves: its
  treasures are won, its level is not), ``theft`` (a Small item of another player: on
  ``roll_needs`` or more it is the thief's, else the thief loses a level; no ``roll_needs``:
  the table says whether it worked), ``resurrection`` and ``recorded`` (the app cannot see the
  effect: the cost is applied and the use written down), ``sell`` (the Halfling's double
  sale: the ``sell`` action's ``doubled`` does it, with its own once-a-turn rule), ``passive``
  (works by itself and is already counted). ``sell`` and ``passive`` powers are listed for the
  pages but are not ``use_power`` actions.
- ``rule``: the ruling (``companion/rulebase/rulings/powers.json``) a refusal about this
  power's timing or limit names; the ruling carries each edition's citation.

Numbers come from the edition's rulebook where it prints them, else from the classic cards
the catalog describes (``cards/classic.json``); where neither gives a number (most powers of
the newer boxes are printed only on their cards) the power is still an action: its cost is
applied and its effect is recorded, or entered by the table.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from .character import card_slug
from .frozen import freeze
from .words import N_, said

EFFECTS = ("strength", "backstab", "flight", "second_try", "charm", "theft", "resurrection",
           "recorded", "sell", "passive")
# face_up_draw: when a card would be drawn face up (a door kicked open, the treasures of a
# helped kill), never while a fight is fought or run from.
TIMINGS = ("fight", "fight_any", "running", "no_fight", "not_fighting", "face_up_draw", "any")
LIMITS = ("once_per_combat", "cards_per_combat", "once_per_victim", "once_per_monster")
MAX_BONUS = 20  # the most a table may enter for a power whose number is on its card


@dataclass(frozen=True)
class Cost:
    least: int = 0
    most: int | None = 0  # None: no printed maximum
    whole_hand: bool = False
    swap: bool = False


FREE = Cost()
ONE = Cost(least=1, most=1)
UP_TO_THREE = Cost(least=1, most=3)
ANY = Cost(least=0, most=None)  # as the card asks (the app cannot read the card)


@dataclass(frozen=True)
class Power:
    id: str
    kind: str  # "race" or "class" (Spell Skool's clubs are classes)
    holder: str  # the race or class slug
    name: str  # msgid: the power's name
    summary: str  # msgid: what it does, in our words
    effect: str
    rule: str
    cost: Cost = FREE
    when: str = "any"
    limit: str | None = None
    per_card: int | None = None
    value: int | None = None
    tag: str | None = None
    roll_needs: int | None = None
    # Where the card's printings differ: "current" is on the publisher's current card only
    # (a table on the box's printed rules has no such power; ``character.printing_holds``).
    printing: str | None = None

    def __post_init__(self):
        assert self.effect in EFFECTS and self.when in TIMINGS, self.id
        assert self.limit is None or self.limit in LIMITS, self.id

    @property
    def passive(self) -> bool:
        return self.effect == "passive"

    @property
    def action(self) -> str | None:
        """The action that uses it: ``use_power``, another action (``sell``), or None."""
        return None if self.passive else ("sell" if self.effect == "sell" else "use_power")

    @property
    def targets_player(self) -> bool:
        return self.effect in ("backstab", "theft")

    @property
    def needs_monster(self) -> bool:
        return self.effect in ("flight", "second_try", "charm")

    @property
    def rolls(self) -> bool:
        """The action may carry a die result (``roll``); without one the app rolls."""
        return self.effect in ("flight", "second_try") or (self.effect == "theft" and bool(self.roll_needs))

    @property
    def table_bonus(self) -> bool:
        """The number is on the card, not in the rulebook: the table may enter it (``bonus``)."""
        return (self.effect == "strength" and self.per_card is None) or (
            self.effect == "backstab" and self.value is None)


def _recorded(holder: str, name: str, kind: str = "class") -> Power:
    """A power printed only on its card: the app applies the discards and records the use."""
    return Power(f"{holder}-ability", kind, holder, name,
                 N_("Its card's ability: discard what the card asks; the table applies the rest."),
                 "recorded", "power-needs-card", cost=ANY)


CHARM_SUMMARY = N_("Discard your whole hand to charm one monster away: you win its Treasures "
                   "but no level for it.")

# --- classic: the classic cards (cards/classic.json), the classic rulebook for the rest -------
CLASSIC = (
    Power("warrior-berserking", "class", "warrior", N_("Berserking"),
          N_("In a fight, discard 1 to 3 cards: +1 each to your combat strength. Once per fight."),
          "strength", "power-once-per-combat", cost=UP_TO_THREE, when="fight",
          limit="once_per_combat", per_card=1),
    Power("warrior-ties", "class", "warrior", N_("Wins ties"),
          N_("The players win a tie when a Warrior is fighting or helping (already counted)."),
          "passive", "power-passive"),
    Power("cleric-resurrection", "class", "cleric", N_("Resurrection"),
          N_("When you would draw a card face up, take the top card of that discard pile "
             "instead and discard a card from your hand for it (the app records it)."),
          "resurrection", "cleric-resurrection-face-up", cost=Cost(least=1, most=None, swap=True),
          when="face_up_draw"),
    Power("cleric-turning", "class", "cleric", N_("Turning"),
          N_("Against Undead, discard up to 3 cards in a fight: +3 each."),
          "strength", "power-turning-undead", cost=UP_TO_THREE, when="fight",
          limit="cards_per_combat", per_card=3, tag="undead"),
    Power("thief-backstab", "class", "thief", N_("Backstab"),
          N_("Discard a card: -2 to another player in a fight, once per victim per fight."),
          "backstab", "power-backstab-once", cost=ONE, when="fight_any",
          limit="once_per_victim", value=2),
    Power("thief-theft", "class", "thief", N_("Theft"),
          N_("Out of any fight, discard a card and roll for a Small item another player has "
             "in play: 4 or more and it is yours, else you lose a level."),
          "theft", "thief-no-steal-in-combat", cost=ONE, when="no_fight", roll_needs=4),
    Power("wizard-flight", "class", "wizard", N_("Flight Spell"),
          N_("Running away, discard up to 3 cards: +1 each to that roll."),
          "flight", "power-running", cost=UP_TO_THREE, when="running",
          limit="once_per_monster", per_card=1),
    Power("wizard-charm", "class", "wizard", N_("Charm Spell"), CHARM_SUMMARY,
          "charm", "power-charm", cost=Cost(least=1, most=None, whole_hand=True), when="fight"),
    Power("halfling-double-sale", "race", "halfling", N_("Double sale"),
          N_("Once per turn, one item you sell counts double its gold (mark it when you sell)."),
          "sell", "halfling-double-sale"),
    Power("halfling-second-try", "race", "halfling", N_("Second try"),
          N_("When a run-away roll fails, discard a card and roll once more."),
          "second_try", "power-running", cost=ONE, when="running", limit="once_per_monster",
          printing="current"),
    Power("elf-helper-levels", "race", "elf", N_("Levels for helping"),
          N_("+1 to run away, and a level per monster killed when you help (already counted)."),
          "passive", "power-passive"),
    Power("dwarf-big-and-hand", "race", "dwarf", N_("Strong back"),
          N_("Any number of Big items and six cards in hand (already counted)."),
          "passive", "power-passive"),
)

# --- Oz: the Charm Spell is in its rulebook (three cards at least); the rest on the cards ----
OZ = (
    Power("wizard-charm", "class", "wizard", N_("Charm Spell"),
          N_("Discard your whole hand, three cards at least, to charm one monster away: you "
             "win its Treasures but no level for it."),
          "charm", "power-charm", cost=Cost(least=3, most=None, whole_hand=True), when="fight"),
    _recorded("professor", N_("Professor ability")),
    _recorded("royalty", N_("Royalty ability")),
    _recorded("soldier", N_("Soldier ability")),
)

# --- Spell Skool: its clubs' abilities are printed on the club cards only -----------------
SPELL_SKOOL = (
    _recorded("chess-club", N_("Chess Club ability")),
    _recorded("forbidden-magic-club", N_("Forbidden Magic Club ability")),
    _recorded("potions-club", N_("Potions Club ability")),
    _recorded("sports-club", N_("Sports Club ability")),
)

# --- Russia: the Oligarch's Charity share is in the rulebook (and in end_turn) --------------
RUSSIA = (
    Power("oligarch-charity", "class", "oligarch", N_("First at Charity"),
          N_("Takes one card of another player's Charity before it is shared (already counted)."),
          "passive", "power-passive"),
    _recorded("oligarch", N_("Oligarch ability")),
    _recorded("cossack", N_("Cossack ability")),
    _recorded("athlete", N_("Athlete ability")),
    _recorded("hacker", N_("Hacker ability")),
)

# --- Tails: the rulebook names Berserk (once per fight), the Charm Spell, Backstab and
# stealing; their numbers are on the cards, so the table enters them ------------------------
TAILS = (
    Power("warrior-berserking", "class", "warrior", N_("Berserking"),
          N_("In a fight, discard cards for the bonus your Warrior card gives. Once per fight."),
          "strength", "power-once-per-combat", cost=Cost(least=1, most=None), when="fight",
          limit="once_per_combat"),
    Power("warrior-ties", "class", "warrior", N_("Wins ties"),
          N_("The players win a tie when a Warrior is fighting or helping (already counted)."),
          "passive", "power-passive"),
    Power("wizard-charm", "class", "wizard", N_("Charm Spell"), CHARM_SUMMARY,
          "charm", "power-charm", cost=Cost(least=1, most=None, whole_hand=True), when="fight"),
    Power("thief-backstab", "class", "thief", N_("Backstab"),
          N_("Pay what your Thief card asks: the penalty it gives to a player in a fight."),
          "backstab", "power-in-fight", cost=ANY, when="fight_any"),
    Power("thief-theft", "class", "thief", N_("Theft"),
          N_("When neither you nor the target is fighting, try to steal a Small item as your "
             "Thief card says; tell the app whether it worked."),
          "theft", "thief-no-steal-in-combat", cost=ANY, when="not_fighting"),
    _recorded("cleric", N_("Cleric ability")),
    Power("dog-helping", "race", "dog", N_("Helping bonus"),
          N_("+4 to your combat strength when you help (already counted)."),
          "passive", "power-passive"),
    Power("pony-helped", "race", "pony", N_("Helped bonus"),
          N_("+3 to your combat strength when someone helps you (already counted)."),
          "passive", "power-passive"),
    _recorded("fox", N_("Fox ability"), "race"),
    _recorded("mouse", N_("Mouse ability"), "race"),
)

POWERS: dict[str, dict[str, Power]] = {
    edition: {p.id: p for p in table}
    for edition, table in (("classic", CLASSIC), ("oz", OZ), ("spell-skool", SPELL_SKOOL),
                           ("russia", RUSSIA), ("tails", TAILS))
}
# Every power id of any edition, in a stable order (the action model's choices).
POWER_IDS: tuple[str, ...] = tuple(sorted({pid for table in POWERS.values() for pid in table}))


def for_edition(edition_id: str) -> dict[str, Power]:
    return POWERS.get(edition_id, {})


def get(edition_id: str, power_id: str) -> Power | None:
    return for_edition(edition_id).get(power_id)


@functools.lru_cache(maxsize=None)  # fixed per edition; callers read it, never change it
def public(edition_id: str) -> dict[str, dict]:
    """What a page shows about each power of the edition: name and summary (saids), who has
    it, and whether it is an action at all."""
    # Frozen: shared by every page of the edition, and put into words once per language.
    return freeze({p.id: {"name": said(p.name), "summary": said(p.summary), "kind": p.kind,
                          "holder": p.holder, "passive": p.passive, "action": p.action,
                          "rolls": p.rolls, "table_bonus": p.table_bonus, "effect": p.effect,
                          "pays_with_cards": p.cost.least > 0 or p.cost.whole_hand}
                   for p in for_edition(edition_id).values()})


def held(player: dict, edition_id: str) -> list[str]:
    """The powers ``player`` may use at some point: those of the race and class cards in front
    of them that are actions (passive ones are already counted)."""
    return [p.id for p in for_edition(edition_id).values()
            if p.action == "use_power" and _holds(player, p)]


# --- candidates for ``allowed`` ------------------------------------------------------------
#
# Built from the state only (the cards in front of the seat, the other players and their
# items, the fight's monsters); the engine decides which are accepted. Counts of discards are
# tried at their everyday steps: 1, 2 and 3 where the power takes up to three, the least the
# power takes otherwise. ``needs`` names what the table may add (a die result, a bonus from the
# card, other items sold): the action is accepted without it.

def _holds(player: dict, power: Power) -> bool:
    return any(e["card"].get("kind") == power.kind and card_slug(e["card"]) == power.holder
               for e in player["cards"])


def _counts(power: Power) -> list[int]:
    cost = power.cost
    if cost.whole_hand:
        return []
    top = cost.most if cost.most is not None else cost.least + (0 if cost.swap else 2)
    return list(range(cost.least, min(top, cost.least + 2) + 1)) if top else [0]


def candidates(state: dict, pid: int, *, monsters: int = 0) -> list[tuple[dict, dict]]:
    """(params listed, extra fields the check fills in) for every power ``pid`` holds.

    ``monsters``: how many monsters a fight's escapes may name (Mate copies included)."""
    player = next((p for p in state["players"] if p["id"] == pid), None)
    if player is None:
        return []
    out: list[tuple[dict, dict]] = []
    others = [p for p in state["players"] if p["id"] != pid]
    for power in for_edition(state["edition"]).values():
        if power.action != "use_power" or not _holds(player, power):
            continue
        base: dict[str, Any] = {"player": pid, "power": power.id}
        needs = (["roll"] if power.rolls else []) + (["bonus"] if power.table_bonus else [])
        counts = _counts(power)
        shapes: list[dict] = [{"from_hand": n} for n in counts] or [{}]
        if power.effect == "backstab":
            shapes = [{**s, "target": o["id"]} for o in others for s in shapes]
        elif power.effect == "theft":
            outcomes = [{}] if power.roll_needs else [{"succeeded": True}, {"succeeded": False}]
            shapes = [{**s, **w, "target": o["id"], "item": e["iid"]} for o in others
                      for e in o["cards"] if e["card"].get("kind") == "item"
                      for s in shapes for w in outcomes]
        elif power.needs_monster:
            shapes = [{**s, "monster": i} for i in range(monsters) for s in shapes]
        for shape in shapes:
            listed = {**base, **shape}
            if needs:
                listed["needs"] = needs
            out.append((listed, {}))
    return out


__all__ = ["Cost", "EFFECTS", "LIMITS", "MAX_BONUS", "POWERS", "POWER_IDS", "Power", "TIMINGS",
           "candidates", "for_edition", "get", "public"]
