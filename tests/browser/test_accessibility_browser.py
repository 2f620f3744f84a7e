"""An accessibility scan of the main pages: axe-core, vendored for the tests only
(tests/vendor/axe-core-*/, never served by the app), runs on each page at 360x740 and finds
no violation of impact "serious" or "critical".

The pages' Content-Security-Policy allows no injected script, so the scanning context bypasses
it (``bypass_csp``); what the scan reads is the page as the server sent it. One browser
context serves every page: a phone seated in a game whose fight is on, holding the host's
cookie too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, shot
from .helpers import BLOCKING, ann_and_bob, violations


@pytest.fixture(scope="module")
def game(server):
    return ann_and_bob(server)  # Ann (Elf, a sword) fights a Plutonium Dragon; Bob is seated too


@pytest.fixture(scope="module")
def scanner(browser, server, game):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    context.set_default_timeout(8000)
    page = context.new_page()
    yield page
    context.close()


# (name, path, who looks, why it is expected to fail until a file another helper owns is
# fixed, or None). "stranger": no cookie of the game; "seated": Ann's seat and the host's key.
PAGES = [
    ("home", "/", "stranger", None),
    ("join", "/join/{code}", "stranger", None),
    ("game-fight", "/games/{code}", "seated", None),
    ("host", "/games/{code}/host", "seated", None),
    ("table-screen", "/games/{code}/table", "stranger", None),
    ("card-lookup", "/cards?game={code}&q=dragon", "seated", None),
    ("card-page", "/cards/classic/drooling-slime?game={code}", "seated", None),
    ("calculator", "/calculator", "stranger", None),
    ("rules-index", "/rules", "stranger", None),
    ("ruling", "/rules/helper-limit", "stranger", None),
]


def _params() -> list:
    return [pytest.param(path, who, id=name,
                         marks=[pytest.mark.xfail(strict=True, reason=known)] if known else [])
            for name, path, who, known in PAGES]


@pytest.mark.parametrize("path,who", _params())
def test_no_serious_accessibility_violation(server, game, scanner, path, who, request):
    scanner.context.clear_cookies()
    if who == "seated":
        game.let_in(scanner.context, game.ids["Ann"], host=True)
    url = server.url + path.format(code=game.code)
    response = scanner.goto(url)
    assert response.status == 200, (url, response.status)
    if request.node.callspec.id == "game-fight":  # the page is scanned with its fight on
        expect(scanner.locator("body")).to_contain_text("Plutonium Dragon")
    found = [v for v in violations(scanner) if v["impact"] in BLOCKING]
    if found:
        shot(scanner, f"axe-{request.node.callspec.id}")
    assert not found, f"axe on {url}:\n" + "\n".join(
        f"- {v['id']} ({v['impact']}): {v['help']}; at {', '.join(v['targets'][:6])}" for v in found)
