"""The game page's kept sections (``web/sections.py``: the sheet, the powers) come out
exactly as a fresh render would, over random games played by several phones with races and
classes; and a section may read only what it was given."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import engine
from companion.engine import Actor
from companion.web.games import store
from companion.web.sections import Only, SectionInputError

from .engine.driver import FIGHT_MOVES, STEP_CARDS, concrete
from .helpers import ApiTable

CSRF = re.compile(r'name="csrf_token" value="[^"]*"')
RACES = ("classic/elf", "classic/dwarf", "classic/halfling")
CLASSES = ("classic/warrior", "classic/wizard", "classic/cleric", "classic/thief")


def fragment(client, code: str) -> str:
    r = client.get(f"/games/{code}/live", headers={"HX-Request": "true"})
    assert r.status_code == 200
    return CSRF.sub('name="csrf_token" value="?"', r.get_data(as_text=True))


def test_a_section_reading_what_it_was_not_given_is_an_error_not_a_blank():
    given_only = Only(code="ABC")
    assert given_only.code == "ABC"
    with pytest.raises(SectionInputError):
        given_only.turn


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_kept_sections_are_what_a_fresh_render_gives(app, seed):
    r = random.Random(seed)
    client = app.test_client()
    table = ApiTable(client)
    phones = {}
    for name in ("Ann", "Bob", "Cid"):
        table.join(name, r.choice(["male", "female"]))
        phones[name] = app.test_client()
        phones[name].set_cookie(f"seat_{table.code}", table.tokens[name])
    host = {"Authorization": f"Bearer {table.host_token}"}
    for name in phones:  # a race and a class each, so that powers show (and change)
        for card in (r.choice(RACES), r.choice(CLASSES)):
            client.post(f"/api/games/{table.code}/actions", headers=host,
                        json={"type": "play", "player": table.ids[name], "card": card})
    for step in range(14):
        for name, phone in phones.items():
            app.config["COMPANION_KEEP_SECTIONS"] = True
            kept = fragment(phone, table.code)
            app.config["COMPANION_KEEP_SECTIONS"] = False
            assert kept == fragment(phone, table.code), (step, name)
        app.config["COMPANION_KEEP_SECTIONS"] = True
        # The host makes a move the engine allows (fights more often than their share).
        with app.app_context():
            state = store().load(table.code)
        allowed = engine.allowed(state, Actor(host=True), card=r.choice(STEP_CARDS)(r)) \
            if r.random() < 0.4 else engine.allowed(state, Actor(host=True))
        fighting = [k for k in FIGHT_MOVES if k in allowed]
        kind = r.choice(fighting) if fighting and r.random() < 0.5 else r.choice(sorted(allowed))
        action = concrete(kind, r.choice(allowed[kind]), state)
        client.post(f"/api/games/{table.code}/actions", json=action, headers=host)


def test_a_wizard_in_a_fight_is_offered_the_charm_spell_on_the_monster_by_name(app):
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann", "female")
    ann = table.ids["Ann"]
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    for action in ({"type": "play", "player": ann, "card": "classic/wizard"},
                   {"type": "set_hand", "player": ann, "count": 3},
                   {"type": "fight", "player": ann, "monster": {"kind": "monster", "name": "Angry Goose", "level": 1}}):
        table.act("Ann", action)
    page = fragment(phone, table.code)
    charm = re.search(r'name="power" value="wizard-charm".*?</button>', page, re.S)
    assert charm and "Angry Goose" in charm.group(0)


def test_a_thief_is_offered_the_theft_of_each_item_by_its_owner_and_name(app):
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann", "female")
    table.join("Bob")
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    table.act("host", {"type": "play", "player": ann, "card": "classic/thief"})
    table.act("host", {"type": "set_hand", "player": ann, "count": 3})
    table.act("host", {"type": "play", "player": bob, "card": {"kind": "item", "name": "Spork", "slot": "1-hand"}})
    page = fragment(phone, table.code)
    thefts = re.findall(r'name="power" value="thief-theft".*?</button>', page, re.S)
    assert thefts and all("Bob: Spork" in " ".join(t.split()) for t in thefts)


def test_no_two_power_buttons_read_the_same_each_names_its_power(app):
    # A Super Munchkin Cleric and Warrior fighting an undead: Turning and Berserking both pay
    # with cards from the hand (Resurrection too, but never in a fight: no face-up draw then).
    client = app.test_client()
    table = ApiTable(client)
    table.join("Ann", "female")
    ann = table.ids["Ann"]
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    for action in ({"type": "play", "player": ann, "card": "classic/cleric"},
                   {"type": "play", "player": ann, "card": "classic/super-munchkin"},
                   {"type": "play", "player": ann, "card": "classic/warrior"},
                   {"type": "set_hand", "player": ann, "count": 3},
                   {"type": "fight", "player": ann,
                    "monster": {"kind": "monster", "name": "Undead Horse", "level": 4, "tags": ["undead"]}}):
        table.act("Ann", action)
    names = {"cleric-turning": "Turning", "warrior-berserking": "Berserking"}
    page = fragment(phone, table.code)
    sections = page.split('<section class="card powers"')[1:]  # on the sheet and in the fight
    assert sections and "✨" not in page and 'value="cleric-resurrection"' not in page
    for section in sections:
        buttons = re.findall(r'name="power" value="([\w-]+)".*?<button[^>]*>(.*?)</button>',
                             section.split("</section>")[0], re.S)
        said = [" ".join(re.sub(r"<[^>]+>", "", text).split()) for _power, text in buttons]
        assert len({power for power, _text in buttons}) >= 2, said  # two powers on offer
        assert len(said) == len(set(said)), said
        for (power, _text), words in zip(buttons, said):
            assert words.startswith(names[power] + ": "), words
