"""No request may hold the server's event loop (gevent: one loop serves every table of a
process). Attacks that once held it, replayed: each route whose work grows with its input has a
bound, or pauses for the loop's other requests. How long they take is measured by
bench/worst_requests.py (never timed here)."""

from __future__ import annotations

import importlib

import pytest

from companion.catalog.search import MAX_QUERY, MAX_QUERY_WORDS, bounded_query

from .helpers import ApiTable

possible_moves = importlib.import_module("companion.engine.allowed")
card_search = importlib.import_module("companion.catalog.search")


def test_a_query_is_normalized_before_it_is_cut():
    # U+FDFA is 18 letters and 4 words once normalized: cut after normalizing, not before.
    query = bounded_query("\ufdfa" * 100)
    assert len(query) <= MAX_QUERY and len(query.split()) <= MAX_QUERY_WORDS
    assert bounded_query("sword " * 500) == "sword"  # one distinct word, however repeated
    assert bounded_query("Sword of Song") == "sword of song"


@pytest.fixture
def crowded(client):
    """A table whose host has six seats with many cards each, and many house cards."""
    table = ApiTable(client)
    for i in range(6):
        table.join(f"P{i}")
    for name in table.ids:
        for n in range(12):
            table.act(name, {"type": "play", "player": table.ids[name],
                             "card": {"kind": "item", "name": f"Junk {n}", "bonus": 0, "gold": 0}})
    table.act("host", {"type": "import_house_cards", "cards": [
        {"kind": "monster", "name": f"Beast number {i}", "level": 3, "treasures": 1,
         "aka": [f"Alias {i} {j}" for j in range(10)]} for i in range(100)]})
    return table


def test_a_seats_moves_pause_for_the_loops_other_requests(crowded, monkeypatch):
    # The pause comes once checking has taken PAUSE_AFTER since the last one: at 0, before
    # every check; at an hour, never (the time is the bound, not a count of checks).
    paused = []
    monkeypatch.setattr(possible_moves, "pause", lambda: paused.append(1))
    monkeypatch.setattr(possible_moves, "PAUSE_AFTER", 0.0)
    allowed = crowded.allowed("host")
    assert allowed["discard"] and len(paused) >= 200, len(paused)
    paused.clear()
    monkeypatch.setattr(possible_moves, "PAUSE_AFTER", 3600.0)
    crowded.allowed("host")
    assert not paused


def test_a_search_of_many_house_cards_pauses_too_and_scores_a_few_names_of_each(crowded, client, monkeypatch):
    paused = []
    monkeypatch.setattr(card_search, "pause", lambda: paused.append(1))
    found = client.get(f"/api/cards?game={crowded.code}&q=beast number 7").get_json()["cards"]
    assert found[0]["name"] == "Beast number 7" and len(paused) >= 5
    # An alias past the first few is kept with the card but not searched.
    assert client.get(f"/api/cards?game={crowded.code}&q=alias 7 1").get_json()["cards"][0]["name"] == "Beast number 7"
    deep = client.get(f"/api/cards?game={crowded.code}&q=alias 7 9").get_json()["cards"]
    assert all(c["name"] != "Beast number 7" for c in deep[:1])


def test_allowed_is_worked_out_once_per_version_and_counted_in_the_seats_budget(crowded, app, monkeypatch):
    made = []
    real = possible_moves.Options.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)
    monkeypatch.setattr(possible_moves.Options, "__init__", counting)
    first = crowded.request("GET", "allowed", "host").get_json()
    again = crowded.request("GET", "allowed", "host").get_json()
    assert first == again and len(made) == 1
    from companion.web import limits
    assert "api.allowed_actions" in limits.SEAT_THROTTLED


def test_the_calculator_takes_a_bounded_fight(client):
    monster = {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}
    ancient = {"kind": "enhancer", "name": "Ancient", "bonus": 10}
    at_bounds = {"monsters": [{"card": monster, "enhancers": ["classic/mate"] * 2 + [ancient] * 3}
                              for _ in range(10)]}
    assert client.post("/api/combat", json=at_bounds).status_code == 200
    too_many = {"monsters": [{"card": monster, "enhancers": [ancient] * 30} for _ in range(10)]}
    r = client.post("/api/combat", json=too_many)
    assert r.status_code == 400 and "at most 60 cards" in r.get_json()["error"]["message"]
    mates = {"monsters": [{"card": monster, "enhancers": ["classic/mate"] * 3}]}
    r = client.post("/api/combat", json=mates)
    assert r.status_code == 400 and "at most 2 Mates" in r.get_json()["error"]["message"]
