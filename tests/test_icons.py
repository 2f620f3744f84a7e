"""The icons that replace emoji: static/icons.svg is the sprite made from the
vendored Lucide files, every icon a template or app.js names is in it, and no template, script or
style sheet puts an emoji or a pictographic symbol on screen (an empty box on a phone without an
emoji font). Arrows and the like, which every text font has, stay text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import ROOT
from companion.web.icons import LUCIDE, SPRITE, build_sprite, icon, names

STATIC = ROOT / "static"
TEMPLATES = ROOT / "templates"
# Emoji and the symbol blocks that draw from the emoji font where the text font lacks them.
PICTOGRAPHS = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u25A0-\u25FF\u2300-\u23FF\uFE0F]")


def test_the_sprite_is_made_from_the_vendored_icons():
    assert (STATIC / SPRITE).read_text() == build_sprite(STATIC), "run python -m companion.web.icons"
    assert (STATIC / "vendor" / LUCIDE / "LICENSE").read_text().startswith("ISC License")


def test_every_icon_the_pages_name_is_in_the_sprite():
    named = set()
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        named |= set(re.findall(r"""\bicon\(\s*["']([a-z0-9-]+)["']""", text))  # icon("skull")
        named |= set(re.findall(r"""\bicon\([^)]*\belse\s+["']([a-z0-9-]+)["']""", text))  # icon("a" if .. else "b")
    tabs = re.findall(r'\("\w+", "([a-z0-9-]+)", _\(', (TEMPLATES / "game.html").read_text())
    assert len(tabs) == 3  # the tab bar's pictures, named in a list
    named |= set(tabs)
    assert named <= names(str(STATIC)), sorted(named - names(str(STATIC)))


def test_the_icons_app_js_puts_before_its_words_come_with_the_page():
    script, base = (STATIC / "app.js").read_text(), (TEMPLATES / "base.html").read_text()
    carried = set(re.findall(r'icon\("([a-z0-9-]+)"\)', re.search(r'<template id="icons">.*?</template>', base).group(0)))
    for name in ("check", "triangle-alert", "sun", "pointer"):
        assert f'"{name}"' in script and name in carried, name


@pytest.mark.parametrize("path", sorted([*TEMPLATES.rglob("*.html"), STATIC / "app.js", *STATIC.glob("*.css")]),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_emoji_on_screen(path: Path):
    found = [(n, line.strip()[:80]) for n, line in enumerate(path.read_text().splitlines(), 1)
             if PICTOGRAPHS.search(line)]
    assert not found, f"use {{{{ icon(...) }}}} (companion/web/icons.py) instead: {found}"


def test_an_icon_is_hidden_from_screen_readers_and_refers_to_the_sprite(app):
    with app.test_request_context("/"):
        html = str(icon("skull"))
    assert re.fullmatch(r'<svg class="icon icon-skull" aria-hidden="true"><use href="/static/_v/\w+/icons.svg#skull"/></svg>', html)
    with app.test_request_context("/"), pytest.raises(ValueError):
        icon("no-such-icon")
