"""The phone's sheet shows what the engine's sheet rules compute in their edge cases: a dead
player's death block, a curse's pick still owed, the Halfling's double sale, No Value items in
the sale, one-shots lying on the table, an ex-Dwarf's Big items over the limit. Each page is
rendered through the Flask test client with the player's seat cookie, and its forms are posted
back as the phone would."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from .helpers import ApiTable

VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict, parent: "Node | None"):
        self.tag, self.attrs, self.parent, self.children = tag, attrs, parent, []

    def text(self) -> str:
        return " ".join(" ".join(c if isinstance(c, str) else c.text() for c in self.children).split())

    def walk(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.walk()

    def find(self, id_: str) -> "Node | None":
        return next((n for n in self.walk() if n.attrs.get("id") == id_), None)

    def all(self, tag: str, **attrs) -> list["Node"]:
        return [n for n in self.walk() if n.tag == tag and all(n.attrs.get(k) == v for k, v in attrs.items())]

    def forms(self) -> list[dict]:
        """Each form inside: its fields (name -> value, hidden ones and checked boxes alike)
        and its button's label (the aria-label when it has one)."""
        out = []
        for form in self.all("form"):
            fields = {}
            for field in form.all("input"):
                if field.attrs.get("name") and field.attrs.get("name") != "csrf_token":
                    fields.setdefault(field.attrs["name"], []).append(field.attrs.get("value", ""))
            button = (form.all("button") or [None])[0]
            out.append({"fields": {k: v[0] if len(v) == 1 else v for k, v in fields.items()},
                        "button": (button.attrs.get("aria-label") or button.text()) if button else ""})
        return out


class Tree(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#root", {}, None)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_endtag(self, tag):
        at = self.at
        while at is not None and at.tag != tag:
            at = at.parent
        if at is not None and at.parent is not None:
            self.at = at.parent

    def handle_data(self, data):
        self.at.children.append(data)


def page(client, table: ApiTable, who: str, **query) -> Node:
    client.set_cookie(f"seat_{table.code}", table.tokens[who])
    r = client.get(f"/games/{table.code}", query_string=query)
    assert r.status_code == 200
    return Tree(r.get_data(as_text=True)).root


def post(client, table: ApiTable, who: str, fields: dict) -> None:
    """Post a form of the page as the phone does (htmx), and expect it to be accepted."""
    client.set_cookie(f"seat_{table.code}", table.tokens[who])
    r = client.post(f"/games/{table.code}/act", data=fields, headers={"HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)[:500]


def item(name, bonus=1, slot="other", gold=300, **extra):
    return {"kind": "item", "name": name, "bonus": bonus, "slot": slot, "gold": gold, **extra}


def iid(table: ApiTable, who: str, card_name: str) -> int:
    return next(c["iid"] for c in table.player(who)["cards"] if c["card"]["name"] == card_name)


def row(root: Node, instance: int) -> Node:
    return next(li for li in root.find("items").all("li") if li.attrs.get("data-iid") == str(instance))


def sell_form(root: Node) -> Node:
    return next(f for f in root.find("sheet").all("form") if any(
        i.attrs.get("value") == "sell" for i in f.all("input", name="type")))


@pytest.fixture
def seated(client):
    def make(edition="classic"):
        table = ApiTable(client, edition)
        for name in ("Ann", "Bob", "Cid"):
            table.join(name)
        return table
    return make


def test_a_dead_player_sees_what_the_rules_refuse_them_and_what_they_draw_next_turn(client, seated):
    table = seated("tails")
    bob = table.ids["Bob"]
    assert page(client, table, "Bob").find("dead") is None
    table.act("Bob", {"type": "die", "player": bob})
    dead = page(client, table, "Bob").find("dead")
    assert "Bob is dead: a new character appears" in dead.text()
    refused = {li.attrs["data-rule"]: li.text() for li in dead.find("dead-may-not").all("li")}
    assert set(refused) == {"dead-no-cards", "dead-cannot-help"}
    assert "fight or help in a fight" in refused["dead-cannot-help"]
    texts = " ".join(li.text() for li in dead.find("dead-may-not").all("li"))
    assert "receive cards" in texts and "go up a level or win the game" in texts
    assert {a.attrs["href"] for a in dead.all("a")} == {"/rules/dead-no-cards", "/rules/dead-cannot-help"}
    assert "draw 4 cards from each deck" in dead.find("dead-next-turn").text()
    assert page(client, table, "Ann").find("dead") is None  # her own sheet: alive


def test_a_curse_victim_picks_the_item_it_takes_with_a_discard_button_and_is_told_why(client, seated):
    table = seated()
    ann = table.ids["Ann"]
    for card in (item("Ring", gold=1000), item("Cloak", 2, gold=500), item("Ladder", 2, big=True)):
        table.act("Ann", {"type": "play", "player": ann, "card": card})
    table.act("Bob", {"type": "play", "player": ann, "card": "classic/lose-1-small-item"})
    ring, cloak = iid(table, "Ann", "Ring"), iid(table, "Ann", "Cloak")
    pick = page(client, table, "Ann").find("pending-loss-1")
    assert "Ann discards one of Ring, Cloak" in pick.text() and "Ladder" not in pick.text()
    assert "may not be sold or given away" in pick.text()
    assert any(a.attrs.get("href") == "/rules/curse-pick-first" for a in pick.all("a"))
    forms = pick.forms()
    assert [f["fields"] for f in forms] == [
        {"type": "discard", "player": str(ann), "instance": str(ring)},
        {"type": "discard", "player": str(ann), "instance": str(cloak)}]
    assert forms[1]["button"] == "Discard Cloak for Lose 1 Small Item"
    post(client, table, "Ann", forms[1]["fields"])  # the discard settles the pick
    root = page(client, table, "Ann")
    assert root.find("pending-loss-1") is None
    assert [c["card"]["name"] for c in table.player("Ann")["cards"]] == ["Ring", "Ladder"]
    assert table.player("Ann")["pending_losses"] == []


def test_a_halfling_chooses_the_item_sold_at_double_price_once_a_turn(client, seated):
    table = seated()
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "play", "player": ann, "card": "classic/halfling"})
    for card in (item("Gem", gold=600), item("Crown", gold=600), item("Junk", gold=None)):
        table.act("Ann", {"type": "play", "player": ann, "card": card})
    gem, crown = iid(table, "Ann", "Gem"), iid(table, "Ann", "Crown")
    form = sell_form(page(client, table, "Ann"))
    choices = {r.attrs["value"]: r.parent.text() for r in form.find("doubled").all("input", type="radio")}
    # The items allowed lists as doubled (a No Value one doubles nothing), and none at all.
    assert choices == {"": "None", str(gem): "Gem at double price (1200)",
                       str(crown): "Crown at double price (1200)"}
    post(client, table, "Ann", {"type": "sell", "player": ann, "instances": gem, "doubled": gem})
    assert table.player("Ann")["level"] == 2
    assert sell_form(page(client, table, "Ann")).find("doubled") is None  # used this turn
    # Someone who is not a Halfling is never offered it.
    table.act("host", {"type": "set_turn", "player": table.ids["Bob"]})
    table.act("Bob", {"type": "play", "player": table.ids["Bob"], "card": item("Gem", gold=600)})
    assert sell_form(page(client, table, "Bob")).find("doubled") is None


def test_no_value_items_are_offered_in_the_sale_and_count_as_zero(client, seated):
    table = seated("oz")
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "play", "player": ann, "card": item("Junk", gold=None)})
    table.act("Ann", {"type": "play", "player": ann, "card": item("Gem", gold=1000)})
    junk, gem = iid(table, "Ann", "Junk"), iid(table, "Ann", "Gem")
    form = sell_form(page(client, table, "Ann"))
    boxes = {b.attrs["value"]: b.parent.text() for b in form.all("input", type="checkbox")}
    assert boxes == {str(junk): "Junk (No Value: 0)", str(gem): "Gem (1000)"}
    post(client, table, "Ann", {"type": "sell", "player": ann, "instances": [junk, gem], "hand_gold": 0})
    assert table.player("Ann")["level"] == 2 and table.player("Ann")["items"] == []


def test_a_one_shot_on_the_table_is_played_into_the_fight_from_its_owners_phone_and_sold(client, seated):
    table = seated("tails")
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    flask_card = {"kind": "one-shot", "name": "Flask", "bonus": 3, "gold": 400}
    table.act("Bob", {"type": "play", "player": bob, "card": flask_card})
    flask = iid(table, "Bob", "Flask")
    root = page(client, table, "Bob")
    assert "one-shot" in row(root, flask).text() and "counts only when played into a fight" in row(root, flask).text()
    assert not [f for f in row(root, flask).forms() if f["fields"]["type"] == "one_shot"]  # no fight yet
    boxes = [b.attrs["value"] for b in sell_form(root).all("input", type="checkbox")]
    assert boxes == [str(flask)]  # it sells like an item
    table.act("Ann", {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Rat", "level": 3}})
    root = page(client, table, "Bob", tab="fight")
    plays = [f for f in row(root, flask).forms() if f["fields"]["type"] == "one_shot"]
    assert [f["fields"] for f in plays] == [
        {"type": "one_shot", "player": str(bob), "instance": str(flask), "side": side}
        for side in ("players", "monsters")]
    on_fight_tab = root.find("table-one-shots").forms()
    assert [f["fields"] for f in on_fight_tab] == [f["fields"] for f in plays]
    assert on_fight_tab[1]["button"] == "Play Flask into the fight for monsters"
    # Not Ann's to play: her phone offers no button for it.
    assert page(client, table, "Ann", tab="fight").find("table-one-shots") is None
    post(client, table, "Bob", on_fight_tab[1]["fields"])
    assert table.state()["combat"]["monsters_strength"] == 6
    assert "Flask" not in [c["card"]["name"] for c in table.player("Bob")["cards"]]


def test_an_ex_dwarfs_carried_big_item_over_the_limit_says_why_it_counts_for_nothing(client, seated):
    table = seated()
    ann = table.ids["Ann"]
    table.act("Ann", {"type": "play", "player": ann, "card": "classic/dwarf"})
    table.act("Ann", {"type": "play", "player": ann, "card": item("Cart", 2, big=True, gold=600)})
    table.act("Ann", {"type": "play", "player": ann, "card": item("Ram", 3, "1-hand", big=True, gold=800)})
    cart, ram = iid(table, "Ann", "Cart"), iid(table, "Ann", "Ram")
    table.act("Ann", {"type": "equip", "player": ann, "instance": cart, "equipped": False})
    assert page(client, table, "Ann").find("big-over") is None
    table.act("Ann", {"type": "discard", "player": ann, "instance": iid(table, "Ann", "Dwarf")})
    root = page(client, table, "Ann")
    carried = row(root, cart)
    assert "carried" in carried.text()
    why = [d.text() for d in carried.all("div") if "why" in d.attrs.get("class", "")]
    assert why and "may carry only 1 Big item" in why[0] and "give it to the lowest-level player" in why[0]
    assert not [d for d in row(root, ram).all("div") if "why" in d.attrs.get("class", "")]
    assert "1 Big item over the limit" in root.find("big-over").text()
