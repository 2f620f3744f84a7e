"""The table screen, the level race, the end-of-game summary and the host who sits down in one
step, on the server (no JavaScript: every page is whole HTML)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from companion.web import timeline

from .conftest import Table

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
    with app.app_context():
        return timeline.read(app.extensions["companion_store"], code)


def test_the_level_race_draws_each_level_change_and_not_an_undone_one(app, client):
    table = Table(client)
    table.join("Ann", "female")
    table.join("Bob")
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    table.act("Ann", {"type": "level", "player": ann, "delta": 2})
    table.act("Bob", {"type": "level", "player": bob, "delta": 1})
    table.act("Ann", {"type": "level", "player": ann, "delta": -1})
    table.act("Bob", {"type": "level", "player": bob, "delta": 5})  # taken back below
    table.undo("Bob")
    table.act("Ann", {"type": "gear", "player": ann, "delta": 1})  # a change that moves no level

    state, story = _story(app, table.code)
    assert [s.event["kind"] for s in story.steps] == ["join", "join", "level", "level", "level", "gear"]
    assert timeline.levels_over_time(story) == {
        ann: [(1, 1), (2, 1), (3, 3), (4, 3), (5, 2), (6, 2)],
        bob: [(2, 1), (3, 1), (4, 2), (5, 2), (6, 2)]}

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
    table = Table(client)
    _state, story = _story(app, table.code)
    assert story.steps == [] and story.start == {}
    html = client.get(f"/games/{table.code}/table").get_data(as_text=True)
    svg = _race_svg(html, "tv-race")
    assert svg.find(f"{SVG}desc").text == "Nobody has a level yet."
    assert _lines(svg) == {}
    assert len([g for g in svg.iter(f"{SVG}line")]) == 10  # the grid: levels 1 to 10
    summary = client.get(f"/games/{table.code}/summary")
    assert summary.status_code == 200
    assert "Nobody has joined yet." in summary.get_data(as_text=True)


def test_undoing_every_change_leaves_only_the_start(app, client):
    table = Table(client)
    table.join("Ann")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "level", "player": ann, "delta": 3})
    table.undo("Ann")
    table.undo("host")  # the join itself
    _state, story = _story(app, table.code)
    assert story.steps == [] and timeline.levels_over_time(story) == {}


def _tally(client, code) -> dict[str, dict[str, str]]:
    """The summary's table: {player name: {column: cell}}."""
    html = client.get(f"/games/{code}/summary").get_data(as_text=True)
    rows = {}
    for row in re.findall(r'<tr data-player="\d+".*?</tr>', html, re.S):
        name = re.search(r'<th scope="row">([^<🏆]+)', row).group(1).strip()
        rows[name] = dict(re.findall(r'<td class="(\w+)"[^>]*>(\d+)</td>', row))
    return rows


def test_the_summary_counts_kills_deals_deaths_and_curses_from_the_log(app, client):
    table = Table(client)
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
    html = client.get(f"/games/{table.code}/summary").get_data(as_text=True)
    assert 'id="summary-winner">🏆 Winner: Ann' in html
    assert "Deal kept: Ann pays Bob" in html  # the ledger
    svg = _race_svg(html, "summary-race")
    assert "Ann: level 1 → 9 → 10" in svg.find(f"{SVG}desc").text
    # The table screen links to the summary once somebody has won.
    assert f'href="/games/{table.code}/summary"' in client.get(f"/games/{table.code}/table").get_data(as_text=True)


def test_a_death_by_bad_stuff_counts_like_the_die_button(app, client):
    table = Table(client)
    table.join("Ann")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "fight", "player": ann, "monster": {
        "kind": "monster", "name": "Doom", "level": 12, "bad_stuff": {"death": True}}})
    table.act("Ann", {"type": "resolve"})
    table.act("Ann", {"type": "run_away", "player": ann, "roll": 1})
    assert table.player("Ann")["dead"]
    assert _tally(client, table.code)["Ann"]["deaths"] == "1"


def test_the_table_screen_shows_the_fight_and_the_log_without_javascript(client):
    table = Table(client)
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
    assert r.status_code == 303
    code = re.search(r"/games/([A-Z0-9]+)$", r.headers["Location"]).group(1)
    assert client.get_cookie(f"host_{code}") is not None and client.get_cookie(f"seat_{code}") is not None
    state = client.get(f"/api/games/{code}").get_json()
    assert [p["name"] for p in state["players"]] == ["Ann"]
    assert state["variants"] == {"official_updates": True} and state["edition"] == "tails"
    game = client.get(f"/games/{code}")
    assert game.status_code == 200  # her own seat, not the join form
    host = client.get(f"/games/{code}/host").get_data(as_text=True)
    assert "You play as Ann." in host and "Sit down at the table" not in host


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
