"""The table screen, the level race, the end-of-game summary and the host who sits down in one
step, on the server (no JavaScript: every page is whole HTML)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from sqlmodel import Session

from companion import engine
from companion.engine import chronicle
from companion.store import Game, token_hash
from companion.web import level_race, timeline

from .helpers import ApiTable

SVG = "{http://www.w3.org/2000/svg}"


def _race_svg(html: str, rid: str) -> ET.Element:
    """The level race's <svg> on a page, parsed (it is well-formed XML)."""
    found = re.search(r'<figure class="level-race" id="%s">\s*(<svg.*?</svg>)' % rid, html, re.S)
    assert found, "no level race on the page"
    return ET.fromstring(found.group(1))


def _lines(svg: ET.Element) -> dict[str, list[tuple[float, float]]]:
    """Each drawn line by its label's name: the polyline's points."""
    out = {}
    for group in svg.iter(f"{SVG}g"):
        if "race-line" not in group.get("class", ""):
            continue
        name = group.find(f"{SVG}text").text.rsplit(" ", 1)[0]
        points = group.find(f"{SVG}polyline").get("points").split()
        out[name] = [tuple(map(float, p.split(","))) for p in points]
    return out


def _levels(svg: ET.Element, points: list[tuple[float, float]]) -> list[int]:
    """The levels a line's points stand for, read off the drawn grid (the nearest grid line:
    lines on one level are drawn a few px apart)."""
    grid = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "race-grid")
    ys = [float(line.get("y1")) for line in grid.iter(f"{SVG}line")]
    labels = [int(t.text) for t in grid.iter(f"{SVG}text") if t.text.isdigit()]
    return [labels[min(range(len(ys)), key=lambda i: abs(ys[i] - y))] for _x, y in points]


def _story(app, code):
    """The game's log replayed (``timeline``): how games stored before the chronicle are drawn."""
    with app.app_context():
        return timeline.read(app.extensions["companion_store"], code)


def _chronicle(app, code) -> dict:
    """The chronicle kept in the stored state (``engine.chronicle``), as plain JSON."""
    return json.loads(json.dumps(app.extensions["companion_store"].load(code)["chronicle"]))


def _page(client, path: str) -> str:
    """A page's HTML with its CSRF token (the page's ``csrf-token`` meta, and wherever else it
    is written) put as ``?``: the token is signed with the second it was made in (Flask-WTF,
    itsdangerous), so the same page asked for a second later differs there and nowhere else."""
    html = client.get(path).get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)">', html).group(1)
    return html.replace(token, "?")


def _race(app, code) -> dict[str, tuple[list[list[int]], int | None]]:
    """Each player's (step, level) points and last step seated, by name, from the chronicle."""
    return {p["name"]: (p["levels"], p["until"]) for p in _chronicle(app, code)["players"]}


def test_the_level_race_draws_each_level_change_and_not_an_undone_one(app, client):
    table = ApiTable(client)
    table.join("Ann", "female")
    table.join("Bob")
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    table.act("Ann", {"type": "level", "player": ann, "delta": 2})
    table.act("Bob", {"type": "level", "player": bob, "delta": 1})
    table.act("Ann", {"type": "level", "player": ann, "delta": -1})
    table.act("Bob", {"type": "level", "player": bob, "delta": 5})  # taken back below
    table.undo("Bob")
    table.act("Ann", {"type": "gear", "player": ann, "delta": 1})  # a change that moves no level

    # Six changes count (join, join, level, level, level, gear): not Bob's +5, nor its undo.
    assert _chronicle(app, table.code)["steps"] == 6
    assert _race(app, table.code) == {"Ann": ([[1, 1], [3, 3], [5, 2]], None),
                                      "Bob": ([[2, 1], [4, 2]], None)}

    html = client.get(f"/games/{table.code}/table").get_data(as_text=True)
    svg = _race_svg(html, "tv-race")
    assert svg.get("role") == "img"
    assert "Level race" in svg.find(f"{SVG}title").text
    desc = svg.find(f"{SVG}desc").text
    assert "Ann: level 1 → 3 → 2" in desc and "Bob: level 1 → 2" in desc and "7" not in desc
    lines = _lines(svg)
    assert _levels(svg, lines["Ann"]) == [1, 1, 3, 3, 2, 2]
    assert _levels(svg, lines["Bob"]) == [1, 1, 2, 2]  # never 7
    # Bob's line starts where he joined (the second change), Ann's at the first; both end now.
    assert lines["Bob"][0][0] > lines["Ann"][0][0]
    right = max(float(line.get("x2")) for line in svg.iter(f"{SVG}line"))
    assert lines["Ann"][-1][0] == lines["Bob"][-1][0] == right
    # The text fallback says the same in words.
    assert "Ann: 1 → 3 → 2" in html and "Bob: 1 → 2" in html


def test_a_game_with_no_events_draws_an_empty_race(app, client):
    table = ApiTable(client)
    assert _chronicle(app, table.code) == {"steps": 0, "players": []}
    html = client.get(f"/games/{table.code}/table").get_data(as_text=True)
    svg = _race_svg(html, "tv-race")
    assert svg.find(f"{SVG}desc").text == "Nobody has a level yet."
    assert _lines(svg) == {}
    assert len([g for g in svg.iter(f"{SVG}line")]) == 10  # the grid: levels 1 to 10
    summary = client.get(f"/games/{table.code}/summary")
    assert summary.status_code == 200
    assert "Nobody has joined yet." in summary.get_data(as_text=True)


def test_undoing_every_change_leaves_only_the_start(app, client):
    table = ApiTable(client)
    table.join("Ann")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": ann, "delta": 3})
    table.undo("Ann")
    table.undo("host")  # the join itself
    assert _chronicle(app, table.code) == {"steps": 0, "players": []}
    assert "Nobody has a level yet." in client.get(f"/games/{table.code}/table").get_data(as_text=True)


def _tally(client, code) -> dict[str, dict[str, str]]:
    """The summary's table: {player name: {column: cell}}."""
    html = client.get(f"/games/{code}/summary").get_data(as_text=True)
    rows = {}
    for row in re.findall(r'<tr data-player="\d+".*?</tr>', html, re.S):
        name = re.search(r'<th scope="row">([^<]+)', row).group(1).strip()
        rows[name] = dict(re.findall(r'<td class="(\w+)"[^>]*>(\d+)</td>', row))
    return rows


def test_the_summary_counts_kills_deals_deaths_and_curses_from_the_log(app, client):
    table = ApiTable(client)
    for name in ("Ann", "Bob", "Cid"):
        table.join(name)
    ann, bob, cid = (table.ids[n] for n in ("Ann", "Bob", "Cid"))
    table.act("Ann", {"type": "level", "player": ann, "delta": 8})  # level 9
    # Cid is cursed twice, once more in a change taken back; he dies once; Bob's death is undone.
    for _ in range(3):
        table.act("Ann", {"type": "play", "player": cid,
                          "card": {"kind": "curse", "name": "Bad Luck", "duration": "once"}})
    table.undo("Ann")
    table.act("Cid", {"type": "die", "player": cid})
    table.act("Bob", {"type": "die", "player": bob})
    table.undo("Bob")
    # Ann fights two monsters and Bob helps for a treasure: two kills for Ann, a fight won as
    # the helper for Bob, and one deal in the ledger for each.
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Ogre", "level": 4, "treasures": 2}})
    table.act("Ann", {"type": "add_monster", "monster": {"kind": "monster", "name": "Troll", "level": 4}})
    table.act("Ann", {"type": "offer", "to": bob, "treasures": 1})
    table.act("Bob", {"type": "accept_offer", "player": bob})
    table.act("Ann", {"type": "resolve"})

    state = table.state()
    assert state["players"][0]["level"] == 10 and state["winners"] == [ann]
    rows = _tally(client, table.code)
    assert rows["Ann"] == {"level": "10", "kills": "2", "helped": "0", "deals": "1", "deaths": "0", "curses": "0"}
    assert rows["Bob"] == {"level": "1", "kills": "0", "helped": "1", "deals": "1", "deaths": "0", "curses": "0"}
    assert rows["Cid"] == {"level": "1", "kills": "0", "helped": "0", "deals": "0", "deaths": "1", "curses": "2"}
    # the curses a player suffered, and the column says so (not the curses they cast)
    assert '<th scope="col">Curses taken</th>' in client.get(f"/games/{table.code}/summary").get_data(as_text=True)
    html = client.get(f"/games/{table.code}/summary").get_data(as_text=True)
    assert re.search(r'id="summary-winner"><svg class="icon icon-trophy"[^>]*>.*?</svg> Winner: Ann', html)
    assert "Deal kept: Ann pays Bob" in html  # the ledger
    svg = _race_svg(html, "summary-race")
    assert "Ann: level 1 → 9 → 10" in svg.find(f"{SVG}desc").text
    # The table screen links to the summary once somebody has won.
    assert f'href="/games/{table.code}/summary"' in client.get(f"/games/{table.code}/table").get_data(as_text=True)


def test_a_death_by_bad_stuff_counts_like_the_die_button(app, client):
    table = ApiTable(client)
    table.join("Ann")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "fight", "player": ann, "monster": {
        "kind": "monster", "name": "Doom", "level": 12, "bad_stuff": {"death": True}}})
    table.act("Ann", {"type": "resolve"})
    table.act("Ann", {"type": "run_away", "player": ann, "roll": 1})
    assert table.player("Ann")["dead"]
    assert _tally(client, table.code)["Ann"]["deaths"] == "1"


def test_the_table_screen_shows_the_fight_and_the_log_without_javascript(client):
    table = ApiTable(client)
    table.join("Ann")
    table.join("Bob")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": ann, "delta": 2})
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Ogre", "level": 6}})
    html = client.get(f"/games/{table.code}/table").get_data(as_text=True)
    assert 'id="tv-players-strength">3<' in html and 'id="tv-monsters-strength">6<' in html
    assert "Monsters win by 3" in html and "players need 4 more" in html
    assert "Ogre" in html and 'class="qr"' in html and f'/join/{table.code}' in html
    # The turn's row is marked; the log's newest line comes first.
    assert re.search(r'<li class="seat turn" aria-current="true">\s*<span class="who"><span class="name">Ann', html)
    lines = re.findall(r'<ol class="tv-lines">(.*?)</ol>', html, re.S)[0]
    assert lines.index("Ann fights Ogre") < lines.index("Ann: level 1 to 3")
    table.act("Ann", {"type": "one_shot", "side": "players",
                      "card": {"kind": "one-shot", "name": "Potion", "bonus": 5}})
    live = client.get(f"/games/{table.code}/table", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in live and "Players win by 2" in live
    players = client.get(f"/games/{table.code}/table?part=players",
                         headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "big-table" in players and "tv-fight" not in players


def test_the_host_who_gives_a_name_sits_down_in_one_step(client):
    r = client.post("/games", data={"edition": "tails", "rulings": "official", "name": "Ann", "sex": "female"})
    assert r.status_code == 303  # to the invite first, her sheet one tap on
    code = re.search(r"/games/([A-Z0-9]+)/host$", r.headers["Location"]).group(1)
    assert client.get_cookie(f"host_{code}") is not None and client.get_cookie(f"seat_{code}") is not None
    state = client.get(f"/api/games/{code}").get_json()
    assert [p["name"] for p in state["players"]] == ["Ann"]
    assert state["variants"] == {"official_updates": True} and state["edition"] == "tails"
    game = client.get(f"/games/{code}")
    assert game.status_code == 200  # her own seat, not the join form
    host = client.get(f"/games/{code}/host").get_data(as_text=True)
    assert "You play as Ann." in host and "Sit down at the table" not in host
    assert host.index('id="join-url"') < host.index('id="my-seat"') < host.index('id="arrivals"')


def test_without_a_name_the_host_lands_on_the_host_page_and_can_sit_down_there(client):
    r = client.post("/games", data={"edition": "classic", "rulings": "printed", "name": "  "})
    assert r.status_code == 303 and r.headers["Location"].endswith("/host")
    code = r.headers["Location"].split("/")[-2]
    assert client.get_cookie(f"seat_{code}") is None
    assert client.get(f"/api/games/{code}").get_json()["variants"] == {}
    host = client.get(f"/games/{code}/host").get_data(as_text=True)
    assert "Sit down at the table" in host and f'action="/join/{code}"' in host
    r = client.post(f"/join/{code}", data={"name": "Hal", "sex": "male"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{code}")
    assert "You play as Hal." in client.get(f"/games/{code}/host").get_data(as_text=True)


def test_a_name_without_a_sex_creates_no_game_and_keeps_the_form(client):
    r = client.post("/games", data={"edition": "oz", "rulings": "official", "name": "Ann"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Sex must be" in html and 'value="Ann"' in html
    assert re.search(r'value="oz"\s+checked', html) and re.search(r'value="official"\s+checked', html)
    assert client.get_cookie("last_game") is None  # no game was made


def test_an_undone_change_is_left_out_of_the_chronicle_whatever_it_was(app, client):
    table = ApiTable(client)
    table.join("Ann")
    table.join("Bob")
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    table.act("Ann", {"type": "level", "player": ann, "delta": 3})
    changes = [
        ("Ann", {"type": "level", "player": ann, "delta": 1}),
        ("Ann", {"type": "die", "player": ann}),
        ("Ann", {"type": "play", "player": bob, "card": {"kind": "curse", "name": "Bad Luck", "duration": "once"}}),
        ("Bob", {"type": "rename", "player": bob, "name": "Robert"}),
        ("host", {"type": "remove_player", "player": bob}),
    ]
    for who, action in changes:
        kept = _chronicle(app, table.code)
        table.act(who, action)
        assert _chronicle(app, table.code) != kept, action
        table.undo(who)
        assert _chronicle(app, table.code) == kept, action
    # A won fight, its kills and its helper, taken back in one undo.
    table.act("Ann", {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Ogre", "level": 2}})
    table.act("Bob", {"type": "help", "player": bob})  # an offer: Ann says yes
    table.act("Ann", {"type": "accept_help", "player": bob})
    kept = _chronicle(app, table.code)
    table.act("Ann", {"type": "resolve"})
    assert [(p["kills"], p["helped"]) for p in _chronicle(app, table.code)["players"]] == [(1, 0), (0, 1)]
    table.undo("Ann")
    assert _chronicle(app, table.code) == kept
    # A join taken back: the player was never at the table.
    table.join("Cid")
    table.undo("host")
    assert [p["name"] for p in _chronicle(app, table.code)["players"]] == ["Ann", "Bob"]
    rows = _tally(client, table.code)
    assert set(rows) == {"Ann", "Bob"} and rows["Ann"]["deaths"] == rows["Bob"]["curses"] == "0"


def _scripted_game(client) -> ApiTable:
    """A game with a bit of everything the race and the summary count, undos included."""
    table = ApiTable(client)
    for name in ("Ann", "Bob", "Cid"):
        table.join(name)
    ann, bob, cid = (table.ids[n] for n in ("Ann", "Bob", "Cid"))
    curse = {"kind": "curse", "name": "Bad Luck", "duration": "once"}
    table.act("Ann", {"type": "level", "player": ann, "delta": 2})
    table.act("Bob", {"type": "level", "player": bob, "delta": 1})
    table.act("Bob", {"type": "level", "player": bob, "delta": 4})
    table.undo("Bob")
    table.act("Bob", {"type": "rename", "player": bob, "name": "Bobby"})
    table.act("Ann", {"type": "play", "player": cid, "card": curse})
    table.act("Ann", {"type": "play", "player": cid, "card": curse})
    table.undo("Ann")
    table.act("Cid", {"type": "die", "player": cid})
    table.act("Bob", {"type": "die", "player": bob})
    table.undo("Bob")
    # Ann wins a fight against two monsters with Bobby's help, for a treasure.
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Ogre", "level": 3, "treasures": 2}})
    table.act("Ann", {"type": "add_monster", "monster": {"kind": "monster", "name": "Troll", "level": 1}})
    table.act("Ann", {"type": "offer", "to": bob, "treasures": 1})
    table.act("Bob", {"type": "accept_offer", "player": bob})
    table.act("Ann", {"type": "resolve"})
    table.act("Ann", {"type": "close_fight"})
    table.act("host", {"type": "remove_player", "player": cid})  # Cid goes home, dead, level 1
    table.join("Dee")
    table.act("Dee", {"type": "level", "player": table.ids["Dee"], "delta": 3})
    table.act("Dee", {"type": "level", "player": table.ids["Dee"], "delta": -1})
    # Bobby is killed by Bad Stuff, and Ann levels up to the win.
    table.act("host", {"type": "set_turn", "player": bob})
    table.act("Bob", {"type": "fight", "player": bob, "monster": {
        "kind": "monster", "name": "Doom", "level": 12, "bad_stuff": {"death": True}}})
    table.act("Bob", {"type": "resolve"})
    table.act("Bob", {"type": "run_away", "player": bob, "roll": 1})
    table.act("Bob", {"type": "close_fight"})
    table.act("Ann", {"type": "level", "player": ann, "delta": 9 - table.player("Ann")["level"]})
    table.act("host", {"type": "set_turn", "player": ann})
    table.act("Ann", {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Slug", "level": 1}})
    table.act("Ann", {"type": "resolve"})
    return table


def test_the_chronicle_draws_the_same_race_and_counts_as_replaying_the_log(app, client, monkeypatch):
    table = _scripted_game(client)
    code = table.code
    stored = app.extensions["companion_store"].load(code)
    assert stored["winners"] == [table.ids["Ann"]] and _chronicle(app, code)["steps"] == 27
    replayed_state, replayed = _story(app, code)
    for width, height in ((800, 230), (720, 300)):
        assert level_race.chart(level_race.from_chronicle(stored["chronicle"]), winners=stored["winners"],
                                width=width, height=height) == \
            level_race.chart(level_race.from_timeline(replayed), winners=replayed_state["winners"],
                             width=width, height=height)
    assert chronicle.tallies(stored["chronicle"], stored) == timeline.tallies(replayed, replayed_state)
    rows = {row["name"]: row for row in chronicle.tallies(stored["chronicle"], stored)}
    assert list(rows) == ["Ann", "Bobby", "Cid", "Dee"]
    assert [rows["Ann"][k] for k in ("level", "kills", "helped", "deals", "deaths", "curses")] == [10, 3, 0, 1, 0, 0]
    assert [rows["Bobby"][k] for k in ("level", "kills", "helped", "deals", "deaths", "curses")] == [2, 0, 1, 1, 1, 0]
    assert [rows["Cid"][k] for k in ("level", "deaths", "curses", "seated")] == [1, 1, 1, False]
    assert [rows["Dee"][k] for k in ("level", "seated")] == [3, True]

    # The pages say the same, drawn from the chronicle or (a game without one) from the log.
    kept = {path: _page(client, f"/games/{code}/{path}") for path in ("table", "summary")}
    monkeypatch.setattr(chronicle, "of", lambda state: None)
    replays = []
    monkeypatch.setattr(timeline, "read", lambda *a, read=timeline.read: replays.append(a) or read(*a))
    for path, html in kept.items():
        assert _page(client, f"/games/{code}/{path}") == html, path
    assert len(replays) == 2  # each page was drawn again from the log, not from anything kept
    assert "Dee: 1 → 4 → 3" in kept["table"] and "Cid: 1" in kept["summary"]


def test_a_game_stored_before_the_chronicle_is_drawn_from_its_log(app, client):
    store = app.extensions["companion_store"]
    state = engine.new_game("OLDGAM2", "classic")
    del state["chronicle"]  # what a game created before the chronicle holds
    with Session(store.engine) as session:
        session.add(Game(code="OLDGAM2", edition="classic", state=json.dumps(state),
                         host_token_hash=token_hash("old-host")))
        session.commit()
    table = ApiTable.of(client, "OLDGAM2", "old-host")
    table.join("Ann")
    table.join("Bob")
    table.act("Ann", {"type": "level", "player": table.ids["Ann"], "delta": 2})
    table.act("host", {"type": "remove_player", "player": table.ids["Bob"]})
    assert "chronicle" not in store.load("OLDGAM2")  # never begun in the middle of a game
    html = client.get("/games/OLDGAM2/table").get_data(as_text=True)
    assert "Ann: level 1 → 3" in _race_svg(html, "tv-race").find(f"{SVG}desc").text
    rows = _tally(client, "OLDGAM2")
    assert rows["Ann"]["level"] == "3" and rows["Bob"]["level"] == "1"


def test_phones_are_not_sent_the_chronicle(client):
    table = ApiTable(client)
    table.join("Ann")
    assert "chronicle" not in table.state()


def test_a_table_chooses_level_20_at_creation_and_the_host_can_set_it_back_while_nobody_is_past_it(client):
    home = client.get("/").get_data(as_text=True)
    assert 'name="winning_level" value="10"' in home and 'name="winning_level" value="20"' in home
    r = client.post("/games", data={"edition": "classic", "winning_level": "20", "name": "Ann", "sex": "female"})
    code = re.search(r"/games/([A-Z0-9]+)/host$", r.headers["Location"]).group(1)
    assert client.get(f"/api/games/{code}").get_json()["winning_level"] == 20
    # Ann's phone shows what she plays to, beside her level.
    page = client.get(f"/games/{code}").get_data(as_text=True)
    assert re.search(r'id="winning-level"[^>]*>of 20<', page)
    # The host is offered the other level and takes it; the table reads it at once.
    host = client.get(f"/games/{code}/host").get_data(as_text=True)
    assert 'name="type" value="set_winning_level"' in host and "Play to level 10" in host
    r = client.post(f"/games/{code}/act", data={"type": "set_winning_level", "level": "10",
                                                "next": f"/games/{code}/host"})
    assert r.status_code == 303
    assert client.get(f"/api/games/{code}").get_json()["winning_level"] == 10
    assert "Play to level 20" in client.get(f"/games/{code}/host").get_data(as_text=True)
    assert "The table now plays to level 10" in client.get(f"/games/{code}/history").get_data(as_text=True)


def test_the_level_races_labels_stay_at_their_levels_and_only_the_crowded_bottom_moves():
    from companion.web.level_race import _spread

    # The leader alone at the top, four players bunched at the bottom of a short chart: the
    # four make room upwards, the leader's label stays beside the leader's line.
    placed = _spread([10, 100, 100, 100, 100], 0, 110, 11)
    assert placed[0] == 10
    assert placed[1:] == [77, 88, 99, 110]
    assert all(b - a >= 11 for a, b in zip(placed, placed[1:]))
    assert _spread([20, 50], 0, 110, 11) == [20, 50]  # room enough: nobody moves
