"""The one in-memory game the engine tests drive, the way a table plays it.

``g = Game("tails", "Ann", "Bob")`` starts a game (``engine.new_game``) and seats the players
(``engine.add_player``; none named: Ann, Bob and Cid); ``g.ids`` maps names to ids. What sets
the game up is said there too: ``seed`` (every action's rolls come from ``random.Random(seed)``,
so a roll is the same whatever ran before; ``None``: fresh randomness from the OS each action,
as the store gives it), ``sex`` (of everyone seated) and ``official`` (the ``official_updates``
variant). ``g.seed`` may be changed between actions.

Acting, through ``engine.apply`` alone:

- ``g("Ann", type="fight", ...)`` applies an action as Ann (``"host"``: as the host; an
  ``Actor``: as that asker, e.g. ``Actor()``, a phone with no seat) and answers its event.
- ``g.line("Ann", type=...)`` does the same and answers the event's English line
  (``engine.words.render``; ``render(...)`` the event a helper below answers for its line).
- ``g.refused("Ann", type=...)`` expects a ``RuleViolation`` (``g.refused("Ann", BadAction,
  type=...)``: another error class), checks the state is unchanged and answers the error.
- ``g.join(name, sex)`` seats one more player the way the store does (no event is kept).

Everything is kept as it goes: ``g.actions`` and ``g.events`` (every action applied and its
event, in order), ``g.views`` (the public state after each action, worked out when read),
``g.refusals`` (every error ``refused`` caught).

Reading the game: ``g.p("Ann")`` is Ann as a phone sees her (``engine.public_state``),
``g.stored_p("Ann")`` as stored; ``g.view`` / ``g.stored`` the fight, public / stored;
``g.iid`` / ``g.names`` her cards, ``g.row`` an item's row on her sheet; ``g.allowed``,
``g.may`` and ``g.allowed_powers`` ask ``engine.allowed``.

Moves a test sets up with (each answers the game, to chain): ``g.play`` (the host puts cards
on a sheet), ``g.give`` (a player plays their own and sets their hand), ``g.level``,
``g.hand``, ``g.fight``. Moves whose event matters answer it: ``g.run_away``, ``g.lose_to``,
``g.power`` (``g.refused_power`` expects its refusal). An undo the way the store undoes:
``before = g.snapshot()`` ... ``g.undo_to(before)``.

Random play (the property tests): ``concrete(kind, entry, state)`` is the action an entry of
``engine.allowed`` stands for; ``FIGHT_MOVES`` the moves taken more often than their share,
``STEP_CARDS`` the cards a step asks ``allowed`` about.
"""

from __future__ import annotations

import copy
import random

import pytest

from companion import engine
from companion.engine import Actor, RuleViolation
from companion.engine.allowed import (SAMPLE_CARDS, SAMPLE_HAND_GOLD, SAMPLE_HOUSE_CARD,
                                      SAMPLE_TREASURES, lists)
from companion.engine.words import render

HOST = Actor(host=True)
OGRE = {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}


class Game:
    """A game held in memory, driven only through ``engine.apply``, asked only ``engine.allowed``."""

    CAST = ("Ann", "Bob", "Cid")  # who sits down when no names are given

    def __init__(self, edition="classic", *names, seed=7, sex="male", official=False):
        self.state = engine.new_game("TEST1", edition)
        if official:
            self.state["variants"]["official_updates"] = True
        self.seed, self.sex = seed, sex
        self.ids: dict[str, int] = {}
        self.actions: list[dict] = []
        self.events: list[dict] = []
        self.states: list[dict] = []  # the state after each action (``views`` reads them)
        self.refusals: list[Exception] = []
        for name in names or self.CAST:
            self.join(name)

    # --- acting ---------------------------------------------------------------------------

    def actor(self, who) -> Actor:
        if isinstance(who, Actor):
            return who
        return HOST if who == "host" else Actor(player=self.ids[who])

    def __call__(self, who, /, **action) -> dict:
        # A fresh rng per action: each roll is the same whatever ran before.
        seed = random.SystemRandom().getrandbits(64) if self.seed is None else self.seed
        after, happened = engine.apply(self.state, action, self.actor(who), rng=random.Random(seed))
        assert isinstance(happened, dict) and "kind" in happened, happened  # an event, never a string
        self.commit(after, happened)
        self.actions.append(action)
        self.events.append(happened)
        self.states.append(self.state)
        return happened

    def line(self, who, /, **action) -> str:
        """The action's event in English words (the history's line)."""
        return render(self(who, **action))

    def refused(self, who, exc=RuleViolation, /, **action):
        """The error (of class ``exc``) ``action`` is refused with; the state is unchanged by
        value (a deep snapshot: comparing identity could never fail, since a refusal reassigns
        nothing)."""
        before = copy.deepcopy(self.state)
        with pytest.raises(exc) as caught:
            self(who, **action)
        assert self.state == before  # a refusal changes nothing
        self.refusals.append(caught.value)
        return caught.value

    def join(self, name, sex=None) -> int:
        """Seat ``name`` (of ``sex``, else the game's) as the store seats a newcomer: the
        state with ``engine.add_player``'s new player, committed with the store's event."""
        after = copy.deepcopy(self.state)
        self.ids[name] = engine.add_player(after, name, sex or self.sex)
        self.commit(after, {"kind": "join", "player": self.ids[name], "name": name})
        return self.ids[name]

    def commit(self, after: dict, happened: dict) -> None:
        """Keep the state after a change (a subclass may keep it as the store does)."""
        self.state = after

    def snapshot(self) -> dict:
        return copy.deepcopy(self.state)

    def undo_to(self, before: dict) -> None:
        """What the store's undo does: the stored state before the change, all of it."""
        self.state = copy.deepcopy(before)

    # --- reading the game -------------------------------------------------------------------

    @property
    def views(self) -> list[dict]:
        return [engine.public_state(state) for state in self.states]

    def p(self, name) -> dict:
        return next(p for p in engine.public_state(self.state)["players"] if p["id"] == self.ids[name])

    def stored_p(self, name) -> dict:
        return next(p for p in self.state["players"] if p["id"] == self.ids[name])

    def iid(self, name, card_name) -> int:
        return next(c["iid"] for c in self.stored_p(name)["cards"] if c["card"]["name"] == card_name)

    def row(self, name, card_name) -> dict:
        return next(r for r in self.p(name)["items"] if r["name"] == card_name)

    def names(self, name, kind=None) -> list[str]:
        return [c["card"]["name"] for c in self.stored_p(name)["cards"]
                if kind is None or c["card"]["kind"] == kind]

    @property
    def view(self):
        return engine.public_state(self.state)["combat"]

    @property
    def stored(self):
        return self.state["combat"]

    def allowed(self, who, **kwargs) -> dict:
        return engine.allowed(self.state, self.actor(who), **kwargs)

    def may(self, who, action_type, **params) -> bool:
        return lists(self.allowed(who), action_type, **params)

    def allowed_powers(self, who) -> list[dict]:
        return self.allowed(who).get("use_power", [])

    # --- moves a test sets up with ----------------------------------------------------------

    def play(self, name, *cards):
        """The host puts ``cards`` on ``name``'s sheet."""
        for card in cards:
            self("host", type="play", player=self.ids[name], card=card)
        return self

    def give(self, who, *cards, hand=None):
        """``who`` plays ``cards`` and (``hand``) sets their hand count."""
        for card in cards:
            self(who, type="play", player=self.ids[who], card=card)
        if hand is not None:
            self(who, type="set_hand", player=self.ids[who], count=hand)
        return self

    def level(self, name, level):
        """The host sets ``name``'s level (one change by the difference)."""
        self("host", type="level", player=self.ids[name], delta=level - self.stored_p(name)["level"])
        return self

    def hand(self, name, count):
        self("host", type="set_hand", player=self.ids[name], count=count)
        return self

    def helps(self, name) -> dict:
        """``name`` offers to help and the fighter accepts (every edition, Asking For Help):
        the accept's event."""
        pid = self.ids[name]
        self(name, type="help", player=pid)
        fighter = self.state["combat"]["fighter"]
        return self(next(n for n, i in self.ids.items() if i == fighter), type="accept_help", player=pid)

    def fight(self, who="Ann", *monsters):
        """``who`` fights the first of ``monsters`` (an Ogre when none); the host adds the rest."""
        self(who, type="fight", player=self.ids[who], monster=monsters[0] if monsters else dict(OGRE))
        for extra in monsters[1:]:
            self("host", type="add_monster", monster=extra)
        return self

    # --- moves whose event matters ------------------------------------------------------------

    def run_away(self, who="Ann", monster=0, **params) -> dict:
        """``who`` runs from ``monster`` (``roll``: a real die's number; none: the app rolls)."""
        return self(who, type="run_away", player=self.ids[who], monster=monster, **params)

    def lose_to(self, monster, name="Ann", roll=1, level=None, **run_away) -> dict:
        """``name`` fights ``monster`` (at ``level``), loses, and rolls ``roll`` to run: what the
        roll answers."""
        if self.state["turn"] != self.ids[name]:
            self("host", type="set_turn", player=self.ids[name])
        fight = {"level": level} if level is not None else {}
        self("host", type="fight", player=self.ids[name], monster=monster, **fight)
        self("host", type="resolve")
        return self("host", type="run_away", player=self.ids[name], monster=0, roll=roll, **run_away)

    def power(self, who, power, **params) -> dict:
        return self(who, type="use_power", player=self.ids[who], power=power, **params)

    def refused_power(self, who, power, **params) -> RuleViolation:
        """The refusal of ``who``'s ``power``, which cites its rule and says why."""
        caught = self.refused(who, type="use_power", player=self.ids[who], power=power, **params)
        assert caught.citation and caught.message
        return caught


# --- random play: ``allowed``'s entries made actions ------------------------------------------

def concrete(kind: str, entry: dict, state: dict) -> dict:
    """The action an entry stands for, with its open parameters filled the way ``allowed``
    checked them (its documented sample values)."""
    action = {"type": kind, **{k: v for k, v in entry.items() if k not in ("needs", "kind")}}
    for need in entry.get("needs", ()):
        if need in ("monster", "card") and "kind" in entry:
            action[need] = SAMPLE_CARDS[entry["kind"]]
        elif need == "card":
            action[need] = SAMPLE_HOUSE_CARD
        elif need == "cards":
            action[need] = [SAMPLE_HOUSE_CARD]
        elif kind == "join":  # a new seat: a name no player has, and a sex
            action[need] = {"name": f"Seat {state.get('next_id', 1)}", "sex": "male"}[need]
        elif need == "name":
            action[need] = next((p["name"] for p in state["players"] if p["id"] == entry["player"]), "Nobody")
        elif need == "hand_gold":
            action[need] = SAMPLE_HAND_GOLD
        elif need == "treasures":
            action[need] = SAMPLE_TREASURES
    return action


# Moves taken more often than their share, so that the games have fights in them.
FIGHT_MOVES = ("fight", "add_monster", "offer", "accept_offer", "help", "resolve", "run_away",
               "sacrifice_ally", "stop_helping", "close_fight")
# The card a random step asks ``allowed`` about (``card=``), drawn with the game's rng.
STEP_CARDS = [
    lambda r: {"kind": "monster", "name": "Beast", "level": r.randint(1, 16), "treasures": r.randint(1, 3)},
    lambda r: {"kind": "enhancer", "name": "Enraged", "bonus": r.choice([-5, 5, 10])},
    lambda r: {"kind": "one-shot", "name": "Potion", "bonus": r.randint(1, 5)},
    lambda r: {"kind": "item", "name": "Helmet", "bonus": r.randint(1, 3), "slot": "headgear", "gold": 300},
    lambda r: {"kind": "item", "name": "Club", "bonus": 2, "slot": r.choice(["1-hand", "2-hands"]), "gold": 300,
               "big": r.random() < 0.3},
    lambda r: {"kind": "curse", "name": "Lose a level", "lose_levels": 1},
    lambda r: {"kind": "ally", "name": "Hound", "bonus": 1},
    lambda r: {"kind": "go-up-a-level", "name": "Bribe GM"},
]
