"""Undo in reach, nothing stale and nothing misleading: "Undo" shows only to whoever may take
the last change back (its maker, the host), names that change, and is on the host's table
screen too; a note goes when what it says is no longer so (another helper accepted, the fight
was decided, the door was kicked open); a helper put in a fight by someone else is told, and so is a player cursed by someone else; an offer to help says what the help would do; card pages say what their buttons do, a fight's inputs
start empty, and the host page's first button goes where the device is for."""

from __future__ import annotations

import re

from .helpers import ApiTable

OGRE = {"kind": "monster", "name": "Ogre", "level": 3, "treasures": 1}


def _page(client, table, who, path=None):
    phone = client.application.test_client()
    if who == "host":
        phone.set_cookie(f"host_{table.code}", table.host_token)
    else:
        phone.set_cookie(f"seat_{table.code}", table.tokens[who])
    return phone.get(path or f"/games/{table.code}").get_data(as_text=True)


def _undo_button(page: str) -> str | None:
    start = page.find('id="undo-last"')
    if start < 0:
        return None
    return page[start:page.find("</form>", start)]


def test_undo_is_offered_to_the_last_changer_and_the_host_naming_the_change(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male")):
        table.join(name, sex)
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    mine = _undo_button(_page(client, table, "Ann"))
    assert mine is not None and "Undo: Ann: level 1 to 2, adjusted" in mine
    assert _undo_button(_page(client, table, "Bob")) is None  # Bob may not take it back
    assert _undo_button(_page(client, table, "host")) is not None  # the host may
    # Bob's change is now the last one: the button moves to his phone, named for his change.
    table.act("Bob", {"type": "gear", "player": table.ids["Bob"], "delta": 1})
    assert _undo_button(_page(client, table, "Ann")) is None
    assert "Bob" in _undo_button(_page(client, table, "Bob"))
    # Taken back, the one before is the last change again: Ann's, offered to Ann.
    assert table.request("POST", "undo", "Bob").status_code == 200
    assert _undo_button(_page(client, table, "Ann")) is not None
    assert _undo_button(_page(client, table, "Bob")) is None


def test_the_hosts_table_screen_offers_the_undo(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1})
    screen = _page(client, table, "host", f"/games/{table.code}/table")
    assert 'id="tv-undo"' in screen and "Undo:" in screen
    stranger = client.application.test_client().get(f"/games/{table.code}/table").get_data(as_text=True)
    assert 'id="tv-undo"' not in stranger
    phone = client.application.test_client()
    phone.set_cookie(f"host_{table.code}", table.host_token)
    csrf = screen.split('name="csrf_token" value="')[1].split('"')[0] if 'csrf_token" value="' in screen else ""
    r = phone.post(f"/games/{table.code}/undo", data={"csrf_token": csrf, "next": f"/games/{table.code}/table"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{table.code}/table")
    assert table.player("Ann")["level"] == 1


def test_a_declined_offer_note_goes_once_someone_helps_or_the_fight_is_decided(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male"), ("Cid", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("Ann", {"type": "fight", "player": ids["Ann"], "monster": OGRE})
    table.act("Ann", {"type": "offer", "to": ids["Bob"], "treasures": 1})
    table.act("Bob", {"type": "decline_offer", "player": ids["Bob"]})
    assert 'data-call="declined-' in _page(client, table, "Ann")
    table.act("Ann", {"type": "offer", "to": ids["Cid"], "treasures": 1})
    table.act("Cid", {"type": "accept_offer", "player": ids["Cid"]})
    assert 'data-call="declined-' not in _page(client, table, "Ann")  # Cid helps: no longer so


def test_a_helper_named_by_someone_elses_tap_is_told_and_a_volunteer_is_not(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male"), ("Cid", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("Ann", {"type": "fight", "player": ids["Ann"], "monster": OGRE})
    table.act("Ann", {"type": "help", "player": ids["Bob"]})  # Ann names Bob, who helps for free
    bob = _page(client, table, "Bob")
    assert 'data-call="named-helper-' in bob and "You help Ann in this fight." in bob
    assert 'data-call="named-helper-' not in _page(client, table, "Ann")
    table.act("host", {"type": "close_fight"})
    assert 'data-call="named-helper-' not in _page(client, table, "Bob")  # no fight: no call
    table.act("Ann", {"type": "fight", "player": ids["Ann"], "monster": OGRE})
    table.act("Cid", {"type": "help", "player": ids["Cid"]})  # Cid offers; Ann says yes
    table.act("Ann", {"type": "accept_help", "player": ids["Cid"]})
    assert 'data-call="named-helper-' not in _page(client, table, "Cid")


def test_a_player_cursed_by_someone_else_is_told_what_the_curse_did_until_the_turn_moves_on(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("host", {"type": "level", "player": ids["Ann"], "delta": 3, "source": "adjust"})
    table.act("Bob", {"type": "play", "player": ids["Ann"], "card": "classic/duck-of-doom"})
    ann = _page(client, table, "Ann")
    assert 'data-call="cursed-' in ann and "Ann is cursed: Duck of Doom" in ann
    assert 'data-call="cursed-' not in _page(client, table, "Bob")
    table.act("host", {"type": "set_turn", "player": ids["Bob"]})  # the turn moves on
    assert 'data-call="cursed-' not in _page(client, table, "Ann")


def test_a_curse_the_app_cannot_carry_out_tells_its_victim_to_do_it_by_hand(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("host", {"type": "play", "player": ids["Ann"], "card": "classic/elf"})
    table.act("Bob", {"type": "play", "player": ids["Ann"], "card": "classic/lose-your-race"})
    ann = _page(client, table, "Ann")
    assert "Ann is cursed: Lose Your Race; the table does what the card says by hand" in " ".join(ann.split())
    # A curse the app carries out says what it did, not that.
    table.act("host", {"type": "level", "player": ids["Ann"], "delta": 3, "source": "adjust"})
    table.act("Bob", {"type": "play", "player": ids["Ann"], "card": "classic/duck-of-doom"})
    assert "Duck of Doom; level" in table.state()["log"][-1]["text"]
    assert "by hand" not in table.state()["log"][-1]["text"]


def test_a_curse_taken_back_by_undo_no_longer_alarms_its_victim(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("host", {"type": "level", "player": ids["Ann"], "delta": 3, "source": "adjust"})
    table.act("Bob", {"type": "play", "player": ids["Ann"], "card": "classic/duck-of-doom"})
    assert 'data-call="cursed-' in _page(client, table, "Ann")
    assert table.request("POST", "undo", "host").status_code == 200
    assert 'data-call="cursed-' not in _page(client, table, "Ann")


def test_a_player_robbed_by_a_thief_is_told_on_their_phone(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male"), ("Cid", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("host", {"type": "play", "player": ids["Ann"], "card": "classic/thief"})
    table.act("host", {"type": "set_hand", "player": ids["Ann"], "count": 3})
    spoon = table.act("Bob", {"type": "play", "player": ids["Bob"],
                              "card": {"kind": "item", "name": "Spoon", "slot": "1-hand"}})
    iid = next(c["iid"] for c in spoon["state"]["players"][1]["cards"] if c["card"]["name"] == "Spoon")
    table.act("Ann", {"type": "use_power", "player": ids["Ann"], "power": "thief-theft", "target": ids["Bob"],
                      "item": iid, "from_hand": 1, "roll": 6})
    bob = _page(client, table, "Bob")
    assert 'data-call="power-on-me-' in bob and "takes Spoon from Bob" in bob
    for other in ("Ann", "Cid"):  # the thief and a bystander get no call
        assert 'data-call="power-on-me-' not in _page(client, table, other)
    table.act("host", {"type": "set_turn", "player": ids["Bob"]})  # the turn moves on
    assert 'data-call="power-on-me-' not in _page(client, table, "Bob")


def test_an_offer_to_help_says_what_the_help_would_do(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("host", {"type": "level", "player": ids["Bob"], "delta": 3, "source": "adjust"})
    table.act("Ann", {"type": "fight", "player": ids["Ann"], "monster": OGRE})  # 1 against 3
    table.act("Ann", {"type": "offer", "to": ids["Bob"], "treasures": 1})
    assert "With your help: <span class=\"good\">would win by 2</span>" in _page(client, table, "Bob")
    table.act("Ann", {"type": "add_monster", "monster": {**OGRE, "name": "Troll", "level": 9}})
    assert "With your help: <span class=\"muted\">still short by 8</span>" in _page(client, table, "Bob")


def test_an_offer_to_help_from_a_volunteer_tells_the_fighter_what_it_would_do(client):
    table = ApiTable(client)
    for name, sex in (("Ann", "female"), ("Bob", "male")):
        table.join(name, sex)
    ids = table.ids
    table.act("host", {"type": "level", "player": ids["Bob"], "delta": 3, "source": "adjust"})
    table.act("Ann", {"type": "fight", "player": ids["Ann"], "monster": OGRE})  # 1 against 3
    table.act("Bob", {"type": "help", "player": ids["Bob"]})  # Bob offers from his phone
    ann = _page(client, table, "Ann")
    assert 'data-call="help-offer-' in ann
    assert 'If Bob helps: <span class="good">would win by 2</span>' in " ".join(ann.split())


def test_a_tie_won_by_a_warrior_says_so_once_not_a_win_by_0(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    ann = table.ids["Ann"]
    table.act("host", {"type": "play", "player": ann, "card": "classic/warrior"})
    table.act("Ann", {"type": "fight", "player": ann, "monster": {**OGRE, "level": 1}})
    verdict = re.search(r'<p class="verdict win" id="verdict"[^>]*>(.*?)</p>', _page(client, table, "Ann"), re.S)
    said = verdict.group(1) if verdict else ""
    assert "Players win the tie" in said and "win by" not in said and "a tie," not in said, said


def test_a_history_line_names_who_did_it_only_when_someone_did(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 1, "source": "adjust"})
    history = re.search(r'<ol class="history">(.*?)</ol>',
                        _page(client, table, "Ann", f"/games/{table.code}/history"), re.S).group(1)
    lines = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", li)).strip()
             for li in re.findall(r"<li[^>]*>(.*?)</li>", history, re.S)]
    assert any(line.startswith("#1 Ann joins") for line in lines), lines  # no bare ":" for a join
    assert any(line.startswith("#2 Ann: Ann: level 1 to 2") for line in lines), lines


def test_kick_open_the_door_goes_once_a_card_came_from_the_door(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    table.join("Bob", "male")
    assert 'data-call="turn-' in _page(client, table, "Ann")
    # The door showed a curse, played on Ann from the door: the door is open, no fight.
    table.act("Ann", {"type": "play", "player": table.ids["Ann"], "source": "door",
                      "card": {"kind": "curse", "name": "Hex", "duration": "lasting", "bonus": -1}})
    assert 'data-call="turn-' not in _page(client, table, "Ann")
    table.act("Ann", {"type": "end_turn", "player": table.ids["Ann"]})
    assert 'data-call="turn-' in _page(client, table, "Bob")  # Bob's turn: his door is shut
    table.act("Bob", {"type": "draw", "player": table.ids["Bob"], "deck": "door"})
    assert 'data-call="turn-' not in _page(client, table, "Bob")


# --- nothing misleading --------------------------------------------------------------------------

def test_card_pages_say_what_their_buttons_do(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    divine = _page(client, table, "Ann", f"/cards/classic/divine-intervention?game={table.code}")
    assert "Play it: every Cleric goes up a level" in divine and "Add to my cards" not in divine
    wandering = _page(client, table, "Ann", f"/cards/classic/wandering-monster?game={table.code}")
    assert 'id="wandering-hint"' in wandering and "Play for the players" not in wandering
    table.act("Ann", {"type": "fight", "player": table.ids["Ann"], "monster": OGRE})
    wandering = _page(client, table, "Ann", f"/cards/classic/wandering-monster?game={table.code}")
    assert 'id="wandering-choose"' in wandering and "kind=monster" in wandering
    assert "Play for the monsters" not in wandering and "Add to my cards" not in wandering


def test_fight_inputs_start_empty(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    table.act("Ann", {"type": "fight", "player": table.ids["Ann"], "monster": OGRE})
    page = _page(client, table, "Ann", f"/games/{table.code}?tab=fight")
    for field in ('id="enh-0"', 'id="enht-0"', 'id="os-bonus"'):
        tag = page[page.index(field) - 10:page.index(">", page.index(field))]
        assert "value=" not in tag and "placeholder=" in tag, tag


def test_the_host_pages_first_button_goes_where_the_device_is_for(client):
    table = ApiTable(client)
    ann = table.join("Ann", "female")
    host_only = _page(client, table, "host", f"/games/{table.code}/host")
    first = host_only[host_only.index('class="button primary"'):][:200]
    assert f"/games/{table.code}/table" in first
    phone = client.application.test_client()
    phone.set_cookie(f"host_{table.code}", table.host_token)
    phone.set_cookie(f"seat_{table.code}", ann["token"])
    seated = phone.get(f"/games/{table.code}/host").get_data(as_text=True)
    assert "Open my sheet" in seated
