"""Rules round four: the arbiter answers the questions players asked in the first three rulings,
in the language they asked them in; after a win a question about help is still about help;
the winner's phone says they won; the host's label only on the host's device."""

from __future__ import annotations

import pytest

from companion import rulebase

from .helpers import ApiTable

ASKED = [
    ("en", "can another player join my fight without my permission?", "help-needs-fighter"),
    ("en", "does the fighter have to accept help?", "help-needs-fighter"),
    ("de", "muss ich hilfe annehmen", "help-needs-fighter"),
    ("ru", "может ли игрок влезть в мой бой без спроса", "help-needs-fighter"),
    ("ru", "что будет, если я умру?", "dead-keeps"),
    ("en", "does an elf get a bonus to run away?", "elf-run-away-bonus"),
    ("en", "can I hold big items in my hand?", "big-items-in-hand"),
    ("de", "darf ich große gegenstände auf der hand haben", "big-items-in-hand"),
    ("en", "is a penalty to a monster an enhancer?", "enhancer-penalties"),
    ("en", "does a helper gain a level?", "helper-no-level"),
    ("de", "bekommt ein helfer eine stufe", "helper-no-level"),
    ("ru", "получает ли помощник уровень", "helper-no-level"),
    ("en", "halfling run away penalty or second try?", "halfling-printing"),
    ("ru", "минус к смывке у хафлинга", "halfling-printing"),
]


@pytest.mark.parametrize("lang, question, ruling", ASKED)
def test_the_ruling_asked_for_is_in_the_first_three(lang, question, ruling):
    found = [r["id"] for r in rulebase.search(question, "classic", limit=3, lang=lang)]
    assert ruling in found, (question, found)


def _won(client) -> ApiTable:
    table = ApiTable(client)
    table.join("Boris")
    table.join("Eva", "female")
    boris = table.ids["Boris"]
    table.act("Boris", {"type": "level", "player": boris, "delta": 8})
    table.act("Boris", {"type": "fight", "player": boris, "monster": {"kind": "monster", "name": "Rat", "level": 1}})
    table.act("Boris", {"type": "resolve"})
    assert table.state()["winners"] == [boris]
    return table


def test_after_a_win_a_question_about_help_is_still_answered_about_help(client):
    table = _won(client)
    answer = client.get(f"/api/rules?q=does the fighter have to accept help&game={table.code}",
                        headers=table.auth("Eva")).get_json()
    assert answer["rulings"][0]["id"] != "game-over"
    assert "help-needs-fighter" in [r["id"] for r in answer["rulings"][:3]]


def test_the_winners_phone_says_they_won_and_another_says_who(client):
    table = _won(client)
    client.set_cookie(f"seat_{table.code}", table.tokens["Boris"])
    mine = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "You won!" in mine and "Turn:" not in mine.split('id="turn"')[1][:200]
    client.set_cookie(f"seat_{table.code}", table.tokens["Eva"])
    hers = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Winner:" in hers.split('id="turn"')[1][:300] and "Boris" in hers.split('id="turn"')[1][:400]


def test_a_finished_fights_moves_are_labelled_the_hosts_only_on_the_hosts_device(client):
    table = ApiTable(client)
    table.join("Eva", "female")
    table.join("Boris")
    eva = table.ids["Eva"]
    table.act("Eva", {"type": "fight", "player": eva, "monster": {"kind": "monster", "name": "Troll", "level": 20}})
    table.act("Eva", {"type": "resolve"})
    table.act("Eva", {"type": "run_away", "player": eva, "monster": 0, "roll": 1})
    assert table.state()["combat"]["stage"] == "over"
    client.set_cookie(f"seat_{table.code}", table.tokens["Boris"])
    boris_page = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Moves in Eva's fight" in boris_page and "Host: moves" not in boris_page
    client.delete_cookie(f"seat_{table.code}")
    client.set_cookie(f"host_{table.code}", table.host_token)
    host_page = client.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Clear the fight" in host_page  # the host's device, on Eva's sheet: her fight's own moves
