"""A count that never drifts: a 40-turn game through the JSON API in which the test holds every
player's true hand. Each card played says where it came from (``source``: the hand, the door,
a body), every card drawn face down is a ``draw``, a death is looted card by card (``loot``),
and Charity is worked out here from the rulebook (classic, Charity): at the end of every turn
the app's count must be the true one, for every player."""

from __future__ import annotations

import random
from collections import Counter

from .helpers import ApiTable

PLAYERS = (("Ann", "female"), ("Boris", "male"), ("Dmitri", "male"), ("Eva", "female"))
HAND_LIMIT = 5  # classic: nobody here is a Dwarf
DEALT = 4  # classic: two from each deck, at the start and for a new character


def item(n: int) -> dict:
    return {"kind": "item", "name": f"Stick {n}", "bonus": 1, "slot": "other", "gold": 300}


def monster(n: int, level: int, treasures: int) -> dict:
    return {"kind": "monster", "name": f"Beast {n}", "level": level, "treasures": treasures}


class TrueTable:
    """The real table: what each player truly holds, played through the API."""

    def __init__(self, client, seed: int):
        self.rng = random.Random(seed)
        self.api = ApiTable(client, "classic", winning_level=20)
        for name, sex in PLAYERS:
            self.api.join(name, sex)
        self.names = [name for name, _ in PLAYERS]
        self.hand = {name: DEALT for name in self.names}
        self.owed = {name: 0 for name in self.names}  # a dead character's new hand, drawn at its turn
        self.serial = 0
        self.seen: Counter = Counter()  # what the game went through, so none of it is skipped

    # --- the app's side ----------------------------------------------------------------------

    def act(self, who, **action):
        self.seen[action["type"] + (":" + action["source"] if "source" in action else "")] += 1
        return self.api.act(who, action)

    def id(self, name):
        return self.api.ids[name]

    def app_hands(self) -> dict:
        return {p["name"]: p["hand"] for p in self.api.state()["players"]}

    def me(self, name) -> dict:
        return self.api.player(name)

    def next_serial(self) -> int:
        self.serial += 1
        return self.serial

    # --- one turn ------------------------------------------------------------------------------

    def turn(self, name: str) -> None:
        rng = self.rng
        if rng.random() < 0.5 and self.hand[name]:
            self.act(name, type="play", player=self.id(name), card=item(self.next_serial()), source="hand")
            self.hand[name] -= 1
        door = rng.random()
        if door < 0.6:
            self.fight(name)
        elif door < 0.75:  # a curse straight from the door, on the one who kicked it open
            self.act(name, type="play", player=self.id(name), source="door",
                     card={"kind": "curse", "name": f"Hex {self.next_serial()}", "lose_levels": 1})
        else:  # a door card kept, then looting the room: two cards face down
            self.act(name, type="draw", player=self.id(name), deck="door")
            self.act(name, type="draw", player=self.id(name), deck="door")
            self.hand[name] += 2
        me = self.me(name)
        if rng.random() < 0.3 and self.hand[name] >= 2 and me["level"] < 17:
            self.act(name, type="sell", player=self.id(name), hand_gold=1000, from_hand=2)
            self.hand[name] -= 2
        if rng.random() < 0.15:
            self.die(name)
        self.end_turn(name)

    def fight(self, name: str) -> None:
        rng = self.rng
        me = self.me(name)
        strength = me["level"] + me.get("gear", 0) + sum(1 for it in me["items"] if it.get("counts"))
        level = rng.randint(1, max(1, strength + (2 if rng.random() < 0.2 else 0)))
        treasures = rng.randint(1, 2)
        self.act(name, type="fight", player=self.id(name), monster=monster(self.next_serial(), level, treasures),
                 source="door")
        others = [n for n in self.names if n != name and not self.me(n)["dead"]]
        if rng.random() < 0.25:
            wanderer = rng.choice(others)
            if self.hand[wanderer] >= 2:  # a Wandering Monster and the monster it brings
                self.act(wanderer, type="add_monster", monster=monster(self.next_serial(), 1, 1), source="hand")
                self.hand[wanderer] -= 2
                treasures += 1
        if rng.random() < 0.25:
            spoiler = rng.choice(others)
            if self.hand[spoiler]:
                self.act(spoiler, type="enhance", monster=0, source="hand",
                         card={"kind": "enhancer", "name": "Angry", "bonus": 1})
                self.hand[spoiler] -= 1
        fight = self.api.state()["combat"]
        if fight["winning"]:
            self.act(name, type="resolve")
            self.hand[name] += fight["rewards"]["treasures"]
        else:
            self.act(name, type="resolve")  # no win: every monster is run from, and escaped
            for index, _ in enumerate(fight["monsters"]):
                self.act(name, type="run_away", player=self.id(name), monster=index, roll=6)
        self.act(name, type="close_fight")

    def die(self, name: str) -> None:
        body = self.act(name, type="die", player=self.id(name))["state"]["bodies"]
        self.hand[name] = 0
        self.owed[name] = DEALT
        if not body:
            return
        body = body[0]
        by_id = {self.id(n): n for n in self.names}
        cards = [e["iid"] for e in body["cards"]]
        hand = body["hand"]
        for looter_id in body["order"]:
            looter = by_id[looter_id]
            if cards:
                self.act(looter, type="loot", player=looter_id, body=body["player"], instance=cards.pop(0))
            elif hand:
                self.act(looter, type="loot", player=looter_id, body=body["player"], from_hand=True)
                hand -= 1
            else:
                break
            self.hand[looter] += 1
        assert not self.api.state()["bodies"]  # every looter took a card, or nothing was left

    def end_turn(self, name: str) -> None:
        """Charity as the rulebook says it, worked out here: the cards over the limit go to the
        lowest-level living others, shared evenly in seat order; the lowest discards them."""
        players = {p["name"]: p for p in self.api.state()["players"]}
        excess = max(0, self.hand[name] - HAND_LIMIT)
        if excess and not players[name]["dead"]:
            others = [n for n in self.names if n != name and not players[n]["dead"]]
            lowest = min(players[n]["level"] for n in others)
            if players[name]["level"] > lowest:
                receivers = [n for n in others if players[n]["level"] == lowest]
                share, extra = divmod(excess, len(receivers))
                for i, n in enumerate(receivers):
                    self.hand[n] += share + (1 if i < extra else 0)
            self.hand[name] -= excess
            self.seen["charity"] += 1
        after = self.act(name, type="end_turn", player=self.id(name))["state"]
        # The next player's turn begins: a new character draws its hand then (classic, Death).
        following = next(n for n in self.names if self.id(n) == after["turn"])
        self.hand[following] += self.owed[following]
        self.owed[following] = 0


def test_forty_turns_and_the_app_counts_every_hand_as_the_table_holds_it(client):
    table = TrueTable(client, seed=2026)
    for turn in range(40):
        name = table.names[turn % len(table.names)]
        assert table.api.state()["turn"] == table.id(name)
        table.turn(name)
        assert table.app_hands() == table.hand, f"after turn {turn + 1} ({name})"
    wanted = {"play:hand", "play:door", "fight:door", "add_monster:hand", "enhance:hand", "draw",
              "sell", "die", "loot", "run_away", "charity"}
    assert wanted <= set(table.seen), wanted - set(table.seen)
