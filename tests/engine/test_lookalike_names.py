"""Two seats never have names that look the same.

Names are compared by their confusable skeleton (Unicode UTS #39), after the invisible
characters (default-ignorable code points: U+034F, variation selectors, zero-width joiners and
the like) are gone. A lookalike is refused with a message naming the seat it looks like; the
name a player typed is kept for display, less its invisible characters.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion import engine
from companion.engine import BadAction
from companion.engine.state import DEFAULT_IGNORABLE, clean_name

from .driver import Game

# Four lookalikes once let through: a Cyrillic А, a Greek Α, U+034F COMBINING GRAPHEME JOINER and U+FE0F
# VARIATION SELECTOR-16 inside the name.
ISSUE_LOOKALIKES = ["\u0410nn", "\u0391nn", "A\u034fnn", "An\ufe0fn"]

# Characters that draw nothing: every default-ignorable range's ends, plus a few from inside.
INVISIBLE = sorted({chr(cp) for lo, hi in DEFAULT_IGNORABLE for cp in (lo, hi)}
                   | set("\u200b\u200c\u200d\u2060\ufe00\ufe0e\u034f\u00ad\U000e0041\U000e0100"))


def refused_seat(g: Game, name: str) -> BadAction:
    players = [dict(p) for p in g.state["players"]]
    with pytest.raises(BadAction) as caught:
        engine.add_player(g.state, name, "male")
    assert [dict(p) for p in g.state["players"]] == players  # nobody sat down
    return caught.value


@pytest.mark.parametrize("lookalike", ISSUE_LOOKALIKES, ids=["cyrillic-A", "greek-Alpha", "U+034F", "U+FE0F"])
def test_a_lookalike_of_a_seated_name_is_refused_naming_that_seat(lookalike):
    g = Game("classic", "Ann", "Bob")
    refusal = refused_seat(g, lookalike)
    assert refusal.message == (f"{clean_name(lookalike)} looks the same as Ann, who is already at "
                               "the table; pick another name.")
    assert [p["name"] for p in g.state["players"]] == ["Ann", "Bob"]


@pytest.mark.parametrize("lookalike", ["ANN", "ann", "\uff21\uff4e\uff4e", "\u0410NN", "Ann\u200d"])
def test_case_width_and_mixed_scripts_are_lookalikes_too(lookalike):
    g = Game("classic", "Ann")
    assert "looks the same as Ann" in refused_seat(g, lookalike).message


def test_the_refusal_names_the_seat_as_it_was_typed_not_the_new_name():
    g = Game("classic", "Bob", "\u0410nn")  # the seated one is the Cyrillic one
    refusal = refused_seat(g, "Ann")
    assert refusal.message.startswith("Ann looks the same as \u0410nn,")


@pytest.mark.parametrize("other", ["Anna", "Ann-Marie", "\u0410\u043d\u044f", "Bob", "Ann 2"])
def test_a_name_that_only_starts_alike_or_is_really_different_sits_down(other):
    g = Game("classic", "Ann")
    g.join(other, "female")
    assert [p["name"] for p in g.state["players"]] == ["Ann", other]


def test_the_same_name_is_free_again_after_that_player_left():
    g = Game("classic", "Ann", "Bob")
    g("host", type="remove_player", player=g.ids["Ann"])
    g.join("Ann", "female")
    assert [p["name"] for p in g.state["players"]] == ["Bob", "Ann"]


def test_a_lookalike_is_free_again_after_that_player_left():
    g = Game("classic", "Ann", "Bob")
    g("host", type="remove_player", player=g.ids["Ann"])
    g.join("\u0410nn", "female")
    assert [p["name"] for p in g.state["players"]] == ["Bob", "\u0410nn"]


def test_invisible_characters_leave_the_name_as_typed_otherwise():
    g = Game("classic", "Bob")
    g.join("Zo\u034f\u00eb\ufe0f\u200d", "female")  # ë as typed (one code point), the invisibles gone
    assert g.state["players"][-1]["name"] == "Zo\u00eb"
    g.join("\u0410\u043d\u044f", "female")  # a Cyrillic name stays Cyrillic: it is only compared by skeleton
    assert g.state["players"][-1]["name"] == "\u0410\u043d\u044f"


@pytest.mark.parametrize("lookalike", ISSUE_LOOKALIKES + ["ANN"])
def test_a_rename_to_a_lookalike_is_refused_naming_the_seat(lookalike):
    g = Game("classic", "Ann", "Bob")
    refusal = g.refused("Bob", BadAction, type="rename", player=g.ids["Bob"], name=lookalike)
    assert "looks the same as Ann, who is already at the table" in refusal.message
    assert g.p("Bob")["name"] == "Bob"


def test_a_rename_may_keep_ones_own_name_in_another_look():
    g = Game("classic", "Ann", "Bob")
    g("Ann", type="rename", player=g.ids["Ann"], name="ANN")
    g("Bob", type="rename", player=g.ids["Bob"], name="Bobby")
    assert [p["name"] for p in g.state["players"]] == ["ANN", "Bobby"]


NAMES = st.text(alphabet=st.characters(categories=("Lu", "Ll", "Nd"), max_codepoint=0x2FFF),
                min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(name=NAMES, data=st.data())
def test_a_name_with_any_invisible_characters_inserted_is_always_refused(name, data):
    g = Game("classic", "Bob")
    try:
        g.join(name, "female")
    except BadAction:  # a name that already looks like Bob's: nothing to compare
        return
    typed = list(name)
    for _ in range(data.draw(st.integers(1, 4), label="how many")):
        at = data.draw(st.integers(0, len(typed)), label="where")
        typed.insert(at, data.draw(st.sampled_from(INVISIBLE), label="invisible"))
    refusal = refused_seat(g, "".join(typed))
    assert f"looks the same as {name}," in refusal.message


@pytest.mark.parametrize("seated, lookalike", [
    ("Bob", "B0b"), ("Tim", "Tirn"), ("Tim", "TIM"), ("Ian", "lan"), ("will", "vvill"),
    ("dave", "clave"), ("Oleg", "0leg"), ("Ira", "lra"), ("Ame", "Arne"),
])
def test_ascii_lookalikes_are_refused_too(seated, lookalike):
    """Letters of ASCII that read as others in a phone's font (0/o, 1/l/I, rn/m, vv/w, cl/d),
    which Unicode's confusables leave apart; the capital I is compared before case folding."""
    g = Game("classic", seated)
    assert f"looks the same as {seated}," in refused_seat(g, lookalike).message


@pytest.mark.parametrize("seated, other", [("Clara", "Dara"), ("Carl", "Cad"), ("Anna", "Anne"),
                                           ("Bob", "Rob"), ("Boris", "Borís"), ("Ivan", "Iwan")])
def test_names_that_only_share_letters_sit_side_by_side(seated, other):
    g = Game("classic", seated)
    engine.add_player(g.state, other, "male")
    assert [p["name"] for p in g.state["players"]] == [seated, other]
