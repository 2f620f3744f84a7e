"""A host who also plays (the phone that started the game and sat down) is a player at the
table for their own moves: an offer to help waits for the fighter's yes like anyone's, and a
curse they play from their hand leaves their hand. The host may still act for anyone."""

from __future__ import annotations

import re

from .helpers import ApiTable


def eva_hosts_and_plays(client):
    table = ApiTable(client)
    for name, sex in (("Eva", "female"), ("Pat", "male")):
        table.join(name, sex)
    phone = client.application.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens["Eva"])
    phone.set_cookie(f"host_{table.code}", table.host_token)
    return table, phone


def tap(phone, table, **form):
    answer = phone.post(f"/games/{table.code}/act", data=form, headers={"HX-Request": "true"})
    assert answer.status_code == 200, answer.get_data(as_text=True)


def test_a_hosts_offer_to_help_waits_for_the_fighters_yes(client):
    table, eva_phone = eva_hosts_and_plays(client)
    eva, pat = table.ids["Eva"], table.ids["Pat"]
    table.act("host", {"type": "set_turn", "player": pat})
    table.act("Pat", {"type": "fight", "player": pat,
                      "monster": {"kind": "monster", "name": "Ogre", "level": 8, "treasures": 2}})
    tap(eva_phone, table, type="help", player=eva)
    fight = table.state()["combat"]
    assert fight["helper"] is None and fight["volunteers"] == [eva]
    tap(eva_phone, table, type="decline_help", player=eva)  # she takes it back: a withdrawal
    assert table.state()["log"][-1]["event"]["kind"] == "withdraw_help"
    tap(eva_phone, table, type="help", player=eva)
    table.act("Pat", {"type": "accept_help", "player": eva})
    assert table.state()["combat"]["helper"] == eva


def test_a_curse_a_host_plays_from_her_hand_leaves_her_hand(client):
    table, eva_phone = eva_hosts_and_plays(client)
    eva, pat = table.ids["Eva"], table.ids["Pat"]
    table.act("host", {"type": "set_hand", "player": eva, "count": 6})
    table.act("host", {"type": "level", "player": pat, "delta": 3, "source": "adjust"})
    tap(eva_phone, table, type="play", player=pat, card="classic/duck-of-doom", source="hand")
    players = {p["name"]: p for p in table.state()["players"]}
    assert players["Eva"]["hand"] == 5 and players["Pat"]["level"] == 2


def test_the_hosts_phone_showing_a_players_sheet_says_whose_turn_it_is_not_your_turn(client):
    table, _eva_phone = eva_hosts_and_plays(client)
    pat = table.ids["Pat"]
    table.act("host", {"type": "set_turn", "player": pat})
    host = client.application.test_client()
    host.set_cookie(f"host_{table.code}", table.host_token)
    page = host.get(f"/games/{table.code}?player={pat}").get_data(as_text=True)
    turn = re.search(r'<span class="hud-turn[^"]*" id="turn">(.*?)</span>', page, re.S).group(1)
    assert "Your turn" not in turn and "Pat" in turn
    pats = client.application.test_client()
    pats.set_cookie(f"seat_{table.code}", table.tokens["Pat"])
    page = pats.get(f"/games/{table.code}").get_data(as_text=True)
    assert "Your turn" in re.search(r'id="turn">(.*?)</span>', page, re.S).group(1)
