"""The one in-memory game the engine tests drive, the way a table plays it.

``g = Game("tails", "Ann", "Bob")`` starts a game (``engine.new_game``) and seats the players
(``engine.add_player``; ``g.ids`` maps names to ids); ``g("Ann", type="fight", ...)`` applies an
action as Ann (``"host"``: as the host) through ``engine.apply`` alone. ``g.refused(...)``
expects a refusal, checks it changed nothing and returns it. ``g.p("Ann")`` is a player,
``g.view`` the public combat, ``g.stored`` the stored one, ``g.may(...)`` / ``g.allowed(...)``
ask ``engine.allowed``.

Keyword options keep what each test file relied on: the game ``code``, the ``seed`` of every
roll, the players' ``sex``, the ``cast`` seated when no names are given, the
``official_updates`` variant (``official``), what a call answers (``answer``: the event's
English ``"line"``, the ``"event"`` itself, or the ``"game"`` to chain), whether ``p`` reads the
``"public"`` view or the ``"stored"`` state (``players``), the error ``refused`` expects
(``refusal``), which action types' events are kept in ``events`` (``record``: all when None),
and whether the public state after each action is kept in ``views`` (``record_views``).
"""

from __future__ import annotations

import copy
import random

import pytest

from companion import engine
from companion.engine import Actor, RuleViolation
from companion.engine.allowed import lists
from companion.engine.words import render

HOST = Actor(host=True)
OGRE = {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}


class Game:
    """A game held in memory, driven only through ``engine.apply``, asked only ``engine.allowed``."""

    def __init__(self, edition="classic", *names, code="TEST1", seed=7, sex="male",
                 cast=("Ann", "Bob", "Cid"), official=False, answer="line", players="public",
                 refusal=RuleViolation, record=None, record_views=False):
        assert answer in ("line", "event", "game") and players in ("public", "stored")
        self.state = engine.new_game(code, edition)
        if official:
            self.state["variants"]["official_updates"] = True
        self.ids = {n: engine.add_player(self.state, n, sex) for n in names or cast}
        self.seed, self.answer, self.players, self.refusal = seed, answer, players, refusal
        self.record, self.record_views = record, record_views
        self.events: list[dict] = []
        self.views: list[dict] = []
        self.refusals: list[Exception] = []

    def actor(self, who) -> Actor:
        return HOST if who == "host" else Actor(player=self.ids[who])

    def __call__(self, who, **action):
        # A fresh rng per action: each roll is the same whatever ran before.
        self.state, happened = engine.apply(self.state, action, self.actor(who),
                                            rng=random.Random(self.seed))
        assert isinstance(happened, dict) and "kind" in happened, happened  # an event, never a string
        if self.record is None or action["type"] in self.record:
            self.events.append(happened)
        if self.record_views:
            self.views.append(engine.public_state(self.state))
        if self.answer == "game":
            return self
        # The engine answers with an event (data); the history line is its English words.
        return render(happened) if self.answer == "line" else happened

    def refused(self, who, exc=None, **action):
        """The error ``action`` is refused with; the state is unchanged by value (a deep
        snapshot: comparing identity could never fail, since a refusal reassigns nothing)."""
        before = copy.deepcopy(self.state)
        with pytest.raises(exc or self.refusal) as caught:
            self(who, **action)
        assert self.state == before  # a refusal changes nothing
        self.refusals.append(caught.value)
        return caught.value

    # --- reading the game -------------------------------------------------------------------

    def p(self, name) -> dict:
        players = (engine.public_state(self.state) if self.players == "public" else self.state)["players"]
        return next(p for p in players if p["id"] == self.ids[name])

    def iid(self, name, card_name) -> int:
        return next(c["iid"] for c in self.p(name)["cards"] if c["card"]["name"] == card_name)

    def row(self, name, card_name) -> dict:
        return next(r for r in self.p(name)["items"] if r["name"] == card_name)

    def names(self, name, kind=None) -> list[str]:
        return [c["card"]["name"] for c in self.p(name)["cards"]
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

    def give(self, who, *cards, hand=None):
        """``who`` plays ``cards`` and (``hand``) sets their hand count; the game, to chain."""
        for card in cards:
            self(who, type="play", player=self.ids[who], card=card)
        if hand is not None:
            self(who, type="set_hand", player=self.ids[who], count=hand)
        return self

    def level(self, name, level):
        self("host", type="level", player=self.ids[name], delta=level - self.p(name)["level"])

    def hand(self, name, count):
        self("host", type="set_hand", player=self.ids[name], count=count)

    def fight(self, who="Ann", *monsters):
        """``who`` fights the first of ``monsters`` (an Ogre when none); the host adds the rest."""
        self(who, type="fight", player=self.ids[who], monster=monsters[0] if monsters else dict(OGRE))
        for extra in monsters[1:]:
            self("host", type="add_monster", monster=extra)
        return self

    def lose_to(self, monster, name="Ann", roll=1, level=None, **run_away):
        """``name`` fights ``monster`` (at ``level``), loses, and rolls ``roll`` to run: what the
        roll answers."""
        if self.state["turn"] != self.ids[name]:
            self("host", type="set_turn", player=self.ids[name])
        fight = {"level": level} if level is not None else {}
        self("host", type="fight", player=self.ids[name], monster=monster, **fight)
        self("host", type="resolve")
        return self("host", type="run_away", player=self.ids[name], monster=0, roll=roll, **run_away)

    def power(self, who, power, **params):
        return self(who, type="use_power", player=self.ids[who], power=power, **params)

    def refused_power(self, who, power, **params) -> RuleViolation:
        """The refusal of ``who``'s ``power``, which cites its rule and says why."""
        caught = self.refused(who, type="use_power", player=self.ids[who], power=power, **params)
        assert caught.citation and caught.message
        return caught
