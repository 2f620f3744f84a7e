"""A table chooses its optional rules when it is created: the box's printed rules by default,
or the publisher's current official rulings ("variants": {"official_updates": true})."""

from __future__ import annotations

import pytest

from companion import engine


def test_a_new_table_follows_the_printed_rules_unless_it_asks(client):
    plain = client.post("/api/games", json={"edition": "classic"}).get_json()["state"]
    assert plain["variants"] == {}
    official = client.post("/api/games", json={"edition": "classic",
                                               "variants": {"official_updates": True}})
    assert official.status_code == 201
    assert official.get_json()["state"]["variants"] == {"official_updates": True}


def test_every_phone_is_told_the_optional_rules_on_in_the_editions_order_the_rulings_apart():
    state = engine.new_game("ABCDEFG", "tails", {"official_updates": True, "shared_victory": True,
                                                 "listen_at_the_door": True})
    assert engine.public_state(state)["variants_on"] == ["listen_at_the_door", "shared_victory"]
    assert engine.public_state(engine.new_game("ABCDEFG", "tails"))["variants_on"] == []


@pytest.mark.parametrize("edition", ["classic", "oz", "spell-skool", "russia", "tails"])
def test_every_edition_offers_the_official_rulings(edition):
    state = engine.new_game("ABCDEFG", edition, {"official_updates": True})
    assert state["variants"]["official_updates"] is True
    assert "official_updates" in engine.public_state(state)["features"]["variants"]


@pytest.mark.parametrize("variants, words", [
    ({"listen_at_the_door": True}, "variant"),  # classic's rulebook prints no such rule
    ({"official_updates": "yes"}, "true or false"),
    (["official_updates"], "object"),
    ({"no_such_rule": True}, "variant"),
])
def test_a_bad_choice_at_creation_is_a_clear_400_and_makes_no_game(client, variants, words):
    r = client.post("/api/games", json={"edition": "classic", "variants": variants})
    assert r.status_code == 400
    assert words in r.get_json()["error"]["message"]


def test_the_host_may_switch_the_official_rulings_later(table):
    table.join("Ann")
    table.act("host", {"type": "set_variant", "variant": "official_updates", "on": True})
    assert table.state()["variants"]["official_updates"] is True
