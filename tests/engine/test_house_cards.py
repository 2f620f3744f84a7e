"""House cards as rules: the host, or the seat that added a card, takes it off the
table (ruling owner-last-word: the game's owner has the last word on house rules), and a
table's house cards stay within a bound, refused clearly before they could jam the game."""

from __future__ import annotations

from companion.engine import BadAction, RuleViolation
from companion.engine.errors import TooLarge
from companion.engine.reducers.house import MAX_HOUSE_CARDS_BYTES, NAMED_IN_EVENT, card_size
from companion.engine.words import render

from .driver import Game

RAIN = {"kind": "curse", "name": "Rain", "lose_levels": 1}


def names(t):
    return [c["name"] for c in t.state["house_cards"]]


def test_the_seat_that_added_a_card_takes_it_off_the_table():
    t = Game()
    t("Ann", type="add_house_card", card=RAIN)
    happened = t("Ann", type="remove_house_card", card="house/rain")
    assert names(t) == []
    assert render(happened) == "House card removed: Rain (curse)"


def test_another_seat_may_not_and_is_told_who_may_with_the_rule_and_its_citation():
    t = Game()
    t("Ann", type="add_house_card", card=RAIN)
    refusal = t.refused("Bob", RuleViolation, type="remove_house_card", card="house/rain")
    assert refusal.rule == "owner-last-word" and refusal.citation
    assert refusal.detail == "Ann added Rain: only Ann or the host takes it off the table"
    assert names(t) == ["Rain"]


def test_the_host_removes_any_house_card_and_only_the_host_removes_the_hosts():
    t = Game()
    t("Ann", type="add_house_card", card=RAIN)
    t("host", type="import_house_cards", cards=[dict(RAIN, name="Hail"), dict(RAIN, name="Snow")])
    refusal = t.refused("Ann", RuleViolation, type="remove_house_card", card="house/hail")
    assert refusal.detail == "only the host takes Hail off the table"
    t("host", type="remove_house_card", card="house/rain")
    t("host", type="remove_house_card", card="house/hail")
    assert names(t) == ["Snow"]


def test_a_card_whose_adder_left_the_table_is_the_hosts_to_remove():
    t = Game()
    t("Bob", type="import_house_cards", cards=[RAIN])
    t("host", type="remove_player", player=t.ids["Bob"])
    refusal = t.refused("Ann", RuleViolation, type="remove_house_card", card="house/rain")
    assert "only the host" in refusal.detail
    t("host", type="remove_house_card", card="house/rain")


def test_removing_a_card_the_table_does_not_have_is_a_clear_bad_action():
    t = Game()
    refusal = t.refused("host", BadAction, type="remove_house_card", card="house/nothing")
    assert refusal.message == "This table has no house card house/nothing."
    refusal = t.refused("host", BadAction, type="remove_house_card", card=3)
    assert "'card'" in refusal.message


def test_a_removed_card_can_be_added_again_by_anyone_and_is_then_theirs():
    t = Game()
    t("Ann", type="add_house_card", card=RAIN)
    t("Ann", type="remove_house_card", card="house/rain")
    t("Bob", type="add_house_card", card=RAIN)
    t.refused("Ann", RuleViolation, type="remove_house_card", card="house/rain")
    t("Bob", type="remove_house_card", card="house/rain")


def big_card(n: int) -> dict:
    """A house card near the largest the card rules allow (long texts in every list)."""
    return {"kind": "item", "name": f"Heirloom {n}", "bonus": 1, "slot": "other",
            "summary": "s" * 600, "sources": ["x" * 600] * 10, "aka": [f"Old {n} " + "a" * 70] * 10}


def test_house_cards_stop_at_their_bound_with_a_clear_refusal_and_nothing_added():
    t = Game()
    per_card = card_size(dict(big_card(0), set="house", id="house/heirloom-0"))
    fit = MAX_HOUSE_CARDS_BYTES // (per_card + 40)
    for first in range(0, fit - 10, 10):
        t("host", type="import_house_cards", cards=[big_card(n) for n in range(first, first + 10)])
    refusal = None
    while refusal is None:  # one by one up to the bound
        try:
            t("host", type="add_house_card", card=big_card(len(t.state["house_cards"])))
        except TooLarge as caught:
            refusal = caught
    assert "KB" in refusal.message and "Remove some house cards first" in refusal.message
    held = sum(card_size(c) for c in t.state["house_cards"])
    assert MAX_HOUSE_CARDS_BYTES - per_card * 2 < held <= MAX_HOUSE_CARDS_BYTES
    before = len(t.state["house_cards"])
    t.refused("host", TooLarge, type="import_house_cards", cards=[big_card(9000), big_card(9001)])
    assert len(t.state["house_cards"]) == before
    # Taking one off makes room again.
    t("host", type="remove_house_card", card="house/heirloom-0")
    t("host", type="add_house_card", card=big_card(9000))


def test_an_import_names_a_few_cards_in_the_history_and_counts_the_rest():
    t = Game()
    happened = t("host", type="import_house_cards", cards=[dict(RAIN, name=f"Rain {n}") for n in range(40)])
    assert happened["count"] == 40 and happened["more"] == 40 - NAMED_IN_EVENT
    line = render(happened)
    assert line.startswith("House cards imported: Rain 0, Rain 1") and line.endswith("and 30 more")
    assert "Rain 10" not in line
    small = t("host", type="import_house_cards", cards=[dict(RAIN, name="Hail"), dict(RAIN, name="Snow")])
    assert render(small) == "House cards imported: Hail, Snow"
