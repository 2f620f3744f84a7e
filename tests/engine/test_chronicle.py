"""The chronicle (``engine.chronicle``): the level race and the summary's counts, kept at each
change the way the store keeps them, never replayed. (Undo is the store's: see
tests/test_table_screen.py.)"""

from __future__ import annotations

import json

from companion.engine import chronicle

from .driver import Game

CURSE = {"kind": "curse", "name": "Bad Luck", "duration": "once"}


class StoredGame(Game):
    """The driver's game kept the way ``Store._commit`` keeps it: the state as stored (JSON),
    then ``chronicle.record(before, after, happened)`` for every change, a seat included. Its
    players sit down one by one, each arrival a step."""

    CAST = ()

    def __init__(self, *names):
        super().__init__("classic", *names, sex="female")

    def commit(self, after: dict, happened: dict) -> None:
        before = json.loads(json.dumps(self.state))
        chronicle.record(before, after, happened)
        assert before == json.loads(json.dumps(self.state))  # the state before stays as it was
        self.state = json.loads(json.dumps(after))

    @property
    def steps(self) -> int:
        return self.state["chronicle"]["steps"]

    def level_line(self, name) -> dict:
        """``name``'s line in the race: the (step, level) points and the last step seated."""
        return next(line for line in chronicle.levels(self.state["chronicle"])
                    if line["player"] == self.ids[name])

    def tally(self, name) -> dict:
        return next(row for row in chronicle.tallies(self.state["chronicle"], self.state)
                    if row["player"] == self.ids[name])


def test_a_new_game_has_an_empty_chronicle_and_every_change_is_a_step():
    table = StoredGame()
    assert table.state["chronicle"] == {"steps": 0, "players": []}
    table.join("Ann")
    table("host", type="gear", player=table.ids["Ann"], delta=1)  # a change that moves no level still counts
    table("host", type="set_hand", player=table.ids["Ann"], count=3)
    assert table.steps == 3


def test_a_level_is_kept_on_arrival_and_then_only_where_it_changed():
    table = StoredGame("Ann", "Bob")  # steps 1 and 2
    table.level("Ann", 3)  # step 3
    table("host", type="gear", player=table.ids["Ann"], delta=1)  # step 4: no level moves
    table.level("Bob", 2)  # step 5
    table.level("Ann", 2)  # step 6
    assert table.level_line("Ann") == {"player": table.ids["Ann"], "name": "Ann",
                                       "points": [(1, 1), (3, 3), (6, 2)], "until": 6}
    assert table.level_line("Bob")["points"] == [(2, 1), (5, 2)]
    assert [line["name"] for line in chronicle.levels(table.state["chronicle"])] == ["Ann", "Bob"]


def test_players_come_in_order_of_arrival_by_their_latest_name():
    table = StoredGame("Ann", "Bob")
    table("host", type="rename", player=table.ids["Ann"], name="Annie")
    table.join("Cid")
    assert [row["name"] for row in chronicle.tallies(table.state["chronicle"], table.state)] == \
        ["Annie", "Bob", "Cid"]
    assert table.level_line("Cid")["points"] == [(4, 1)]


def test_who_left_keeps_their_last_level_and_name_and_their_line_stops_there():
    table = StoredGame("Ann", "Bob")
    table.level("Bob", 4)  # step 3
    table("host", type="remove_player", player=table.ids["Bob"])  # step 4
    table.level("Ann", 2)  # step 5
    assert table.level_line("Bob") == {"player": table.ids["Bob"], "name": "Bob",
                                       "points": [(2, 1), (3, 4)], "until": 3}
    bob = table.tally("Bob")
    assert bob["level"] == 4 and not bob["seated"]
    ann = table.tally("Ann")
    assert ann["level"] == 2 and ann["seated"] and table.level_line("Ann")["until"] == 5


def test_a_death_is_a_player_turning_dead_by_the_die_button_or_by_bad_stuff():
    table = StoredGame("Ann", "Bob")
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    table("host", type="die", player=ann)
    table("host", type="gear", player=bob, delta=1)  # Ann stays dead: no second death
    assert table.tally("Ann")["deaths"] == 1
    table("host", type="end_turn", player=ann)  # Bob's turn begins: Ann's new character appears
    table("host", type="die", player=ann)
    assert table.tally("Ann")["deaths"] == 2
    # Bob meets a monster whose Bad Stuff is death, and fails to run.
    table("host", type="fight", player=bob, monster={"kind": "monster", "name": "Doom", "level": 12,
                                                     "bad_stuff": {"death": True}})
    table("host", type="resolve")
    table("host", type="run_away", player=bob, roll=1)
    assert table.tally("Bob")["deaths"] == 1 and table.state["players"][1]["dead"]


def test_a_won_fight_counts_its_monsters_for_the_fighter_and_a_win_for_the_helper():
    table = StoredGame("Ann", "Bob", "Cid")
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    table.level("Ann", 4)
    table("host", type="fight", player=ann, monster={"kind": "monster", "name": "Ogre", "level": 2, "treasures": 2})
    table("host", type="add_monster", monster={"kind": "monster", "name": "Troll", "level": 2})
    table("host", type="offer", to=bob, treasures=1)
    table("host", type="accept_offer", player=bob)
    won = table("host", type="resolve")
    assert won["kind"] == "fight_won"
    assert table.tally("Ann")["kills"] == 2 and table.tally("Ann")["helped"] == 0
    assert table.tally("Bob")["helped"] == 1 and table.tally("Bob")["kills"] == 0
    assert table.tally("Cid")["kills"] == table.tally("Cid")["helped"] == 0
    # The deal is in the ledger: the summary counts it from there for both.
    assert table.tally("Ann")["deals"] == table.tally("Bob")["deals"] == 1


def test_a_curse_counts_for_the_player_it_lands_on():
    table = StoredGame("Ann", "Bob")
    table("host", type="play", player=table.ids["Bob"], card=CURSE)
    table("host", type="play", player=table.ids["Bob"], card=CURSE)
    assert table.tally("Bob")["curses"] == 2 and table.tally("Ann")["curses"] == 0


def test_a_game_stored_before_the_chronicle_gets_none_and_is_replayed_instead():
    table = StoredGame()
    del table.state["chronicle"]
    table.join("Ann")
    table.level("Ann", 2)
    assert "chronicle" not in table.state and chronicle.of(table.state) is None


def test_a_pathological_game_stays_small():
    table = StoredGame("Ann", "Bob")
    for _ in range(1000):  # 2,000 level changes for Ann
        table.level("Ann", 2)
        table.level("Ann", 1)
    table.level("Ann", 5)
    points = table.level_line("Ann")["points"]
    assert len(points) <= chronicle.MAX_POINTS
    assert points[0] == (1, 1) and points[-1] == (table.steps, 5)  # the start and now stay exact
    assert table.tally("Ann")["level"] == 5
    assert table.level_line("Bob")["points"] == [(2, 1)]
    for n in range(chronicle.MAX_DEPARTED + 5):  # a stream of players who come and go
        table.join(f"Guest {n}")
        table("host", type="remove_player", player=table.ids[f"Guest {n}"])
    names = [line["name"] for line in chronicle.levels(table.state["chronicle"])]
    assert names[:2] == ["Ann", "Bob"] and len(names) == 2 + chronicle.MAX_DEPARTED
    assert names[-1] == f"Guest {chronicle.MAX_DEPARTED + 4}"  # the ones who left first go first
    assert len(json.dumps(table.state["chronicle"])) < 8000
