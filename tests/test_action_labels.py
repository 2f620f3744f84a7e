"""Distinct actions, distinct labels: on one screen no two different actions share a
button label in any language (German Unequip was Discard, Polish Decline was Discard)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po

from companion import ROOT
from companion.web.languages import LANGUAGES

from .helpers import every_page

# The screens where a player acts: every button label written in them.
SCREENS = ["_live.html", "_fight.html", "_sheet.html", "_cards_in_play.html", "_powers.html",
           "_start_fight.html", "_helpers.html", "game.html", "host.html", "_table_live.html",
           "cards/card.html"]
LABEL = [re.compile(r'm\.act\(\{[^}]*\},\s*_\("([^"]+)"\)'),
         re.compile(r'm\.act_button\(\{[^}]*\},\s*_\("([^"]+)"\)'),
         re.compile(r'<button[^>]*>\s*\{\{\s*_\("([^"]+)"\)\s*\}\}\s*</button>')]
# Fields that say whom or what an action is about, not which action it is.
TARGETS = {"csrf_token", "_focus", "player", "instance", "instances", "monster", "to", "card", "helper",
           "from", "target", "victim", "next", "offer", "index", "delta_player"}


def _labels() -> set[str]:
    found = set()
    for name in SCREENS:
        text = (ROOT / "templates" / name).read_text(encoding="utf-8")
        for pattern in LABEL:
            found |= set(pattern.findall(text))
    return found


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_different_action_labels_stay_different_in_every_language(lang):
    with (ROOT / "companion" / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    by_word: dict[str, set[str]] = {}
    for label in _labels():
        message = catalog.get(label)
        if message is not None and message.string and not message.fuzzy:
            by_word.setdefault(message.string.strip().casefold(), set()).add(label)
    shared = {word: labels for word, labels in by_word.items() if len(labels) > 1}
    assert not shared, f"{lang}: one word for different actions: {shared}"


class _Forms(HTMLParser):
    """Each action form of a page: its hidden fields and the labels a player reads on its buttons
    (a button's aria-label, else its text)."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.current: dict | None = None
        self.button: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.current = {"fields": {}, "buttons": []}
            self.forms.append(self.current)
        elif tag == "input" and self.current is not None and attrs.get("type") == "hidden":
            self.current["fields"][attrs.get("name")] = attrs.get("value")
        elif tag == "button" and self.current is not None:
            self.button = {"aria": attrs.get("aria-label") or "", "text": ""}
            self.current["buttons"].append(self.button)

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "button":
            self.button = None

    def handle_data(self, data):
        if self.button is not None:
            self.button["text"] += data


def actions_by_label(page: str) -> dict[str, set]:
    parser = _Forms()
    parser.feed(page)
    out: dict[str, set] = {}
    for form in parser.forms:
        if "type" not in form["fields"]:
            continue
        action = tuple(sorted((k, v) for k, v in form["fields"].items() if k not in TARGETS))
        for button in form["buttons"]:
            label = " ".join((button["aria"] or button["text"]).split()).casefold()
            if label:
                out.setdefault(label, set()).add(action)
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_actions_on_one_screen_share_a_label(client, game_in_full_swing, lang):  # noqa: F811
    table, _names = game_in_full_swing
    shared = {}
    for page, response in every_page(client, table, lang):
        if response.status_code != 200:
            continue
        for label, actions in actions_by_label(response.get_data(as_text=True)).items():
            if len({dict(a).get("type") for a in actions}) > 1:
                shared.setdefault(page, {})[label] = sorted(dict(a).get("type") for a in actions)
    assert not shared, f"{lang}: {shared}"
