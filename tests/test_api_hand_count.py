"""The hand count through the JSON API: what the app knows moves it, and
correcting it by hand writes no line of the game's log (the history and undo keep it)."""

from __future__ import annotations

from .helpers import ApiTable

BOTH_DATABASES = True  # every test here that uses the database runs on SQLite and PostgreSQL

RAT = {"kind": "monster", "name": "Rat", "level": 1, "treasures": 2}
SWORD = {"kind": "item", "name": "Sword", "bonus": 2, "slot": "1-hand", "gold": 400}


def test_a_seat_starts_with_the_cards_dealt_at_the_start(client):
    # Every rulebook's setup: two from each deck in classic, four with its Faster Play and in
    # the newer boxes.
    for edition, variants, dealt in (("classic", None, 4), ("classic", {"faster_play": True}, 8),
                                     ("oz", None, 8), ("tails", None, 8)):
        ann = ApiTable(client, edition, variants=variants).join("Ann", "female")
        assert ann["state"]["players"][0]["hand"] == dealt, (edition, variants)


def test_treasures_won_go_into_the_hand_and_a_card_played_from_it_leaves_it(table):
    table.join("Ann")
    ann = table.ids["Ann"]
    dealt = table.player("Ann")["hand"]  # two from each deck, classic
    table.act("Ann", {"type": "level", "player": ann, "delta": 2})
    table.act("Ann", {"type": "fight", "player": ann, "monster": RAT})
    won = table.act("Ann", {"type": "resolve"})
    assert "2 treasures face down" in won["event"]["text"]
    assert table.player("Ann")["hand"] == dealt + 2
    table.act("Ann", {"type": "close_fight"})
    table.act("Ann", {"type": "play", "player": ann, "card": SWORD})
    assert table.player("Ann")["hand"] == dealt + 1
    # Played straight from a fresh draw: the hand keeps its count.
    table.act("Ann", {"type": "play", "player": ann, "card": dict(SWORD, name="Dagger"), "from_hand": False})
    assert table.player("Ann")["hand"] == dealt + 1


def test_correcting_the_hand_by_hand_writes_no_log_line_and_undo_takes_it_back_quietly(table):
    table.join("Ann")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": ann, "delta": 1})
    log = table.state()["log"]
    for count in (1, 2, 3):
        answer = table.act("Ann", {"type": "set_hand", "player": ann, "count": count})
        assert answer["event"]["kind"] == "set_hand"  # the tapper still hears what it did
        assert answer["state"]["log"] == log  # the log (the answer's tail too) has no new line
    state = table.state()
    assert state["log"] == log and table.player("Ann")["hand"] == 3
    table.undo("Ann")
    state = table.state()
    assert state["log"] == log and table.player("Ann")["hand"] == 2
    events = table.history()
    assert [e["kind"] for e in events[:5]] == ["undo", "action", "action", "action", "action"]
    assert [e["text"] for e in events[1:4]] == ["Ann: 3 cards in hand", "Ann: 2 cards in hand",
                                                "Ann: 1 card in hand"]
    assert events[1]["undone"]
    # Other moves still write their line.
    table.act("Ann", {"type": "level", "player": ann, "delta": 1})
    assert table.state()["log"][-1]["text"] == "Ann: level 2 to 3, adjusted"
