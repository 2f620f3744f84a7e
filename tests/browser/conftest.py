"""Browser tests: the real server (``companion serve``) in a subprocess, driven by Debian's
Chromium through Playwright at phone sizes. Each browser context is one phone.

Every page of every test is watched for Content-Security-Policy violations (an inline script
or handler, eval, a request the policy blocks): a test during which one happened fails."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 360, "height": 740}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.browser

# Runs in every page before its own scripts (init scripts are not subject to the page's CSP).
CSP_WATCH = """document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "inline code")
                + " at " + (e.sourceFile || location.href) + ":" + e.lineNumber + " " + (e.sample || ""));
}, true);"""
CSP_VIOLATIONS: list[str] = []


def _watch_csp(message) -> None:
    text = message.text
    if text.startswith("CSP violation") or "Content Security Policy" in text:
        CSP_VIOLATIONS.append(f"{message.page.url if message.page else '?'}: {text}")


class WatchedBrowser:
    """The browser, but every context it opens reports CSP violations to CSP_VIOLATIONS."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.add_init_script(CSP_WATCH)
        context.on("console", _watch_csp)
        return context


@pytest.fixture(autouse=True)
def no_csp_violation():
    """Fails the test (at teardown, once its phones are closed) if a page saw a violation."""
    CSP_VIOLATIONS.clear()
    yield
    seen, CSP_VIOLATIONS[:] = list(CSP_VIOLATIONS), []
    if seen:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(seen[:10]), pytrace=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A ``companion serve`` process; can be stopped and started again on the same port."""

    def __init__(self, instance: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Every phone of every test comes from 127.0.0.1 and a worker's tests create a few dozen
        # games a minute: the per-address throttling (tests/test_throttling.py) would refuse them.
        self.env = dict(os.environ, COMPANION_INSTANCE_PATH=str(instance), COMPANION_PUBLIC_URL=self.url,
                        COMPANION_SECRET_KEY="browser-tests",
                        COMPANION_RATELIMIT_CREATE="1000 per minute",
                        COMPANION_RATELIMIT_JOIN="1000 per minute")
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # Up to a minute: a start takes 3-4 s alone, and over 20 s when two test runs share this
        # 2-core machine (every browser test of that worker then errored). It returns as soon as up.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break  # it exited: say why at once, not after the minute
            try:
                if requests.get(self.url + "/", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError("the server did not start: " + (self.proc.stderr.read(2000).decode()
                                                           if self.proc.poll() is not None else ""))

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("instance"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's Chromium is missing: run scripts/test.sh, which installs it with apt")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield WatchedBrowser(b)
        b.close()


@pytest.fixture
def phones(browser):
    """``phones(n)`` opens n phone-sized browser contexts (n separate phones)."""
    opened = []

    def open_phones(n=1, viewport=PHONE):
        pages = []
        for _ in range(n):
            context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True,
                                          device_scale_factor=2)
            context.set_default_timeout(8000)
            opened.append(context)
            pages.append(context.new_page())
        return pages

    yield open_phones
    for context in opened:
        context.close()


def shot(page, name: str) -> None:
    """Keep a screenshot of what the phone showed, as a test artifact."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def new_game(page, server, edition="classic") -> str:
    page.goto(server.url + "/")
    page.get_by_label(edition_label(edition)).check()
    page.get_by_role("button", name="New game").click()
    page.wait_for_url("**/host")
    return page.locator(".join-code").inner_text().strip()


def edition_label(edition: str) -> str:
    from companion.engine.editions import EDITIONS

    return EDITIONS[edition].name


def join(page, url: str, name: str, sex: str = "male") -> None:
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    page.get_by_label(sex, exact=True).check()
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_url("**/games/*")


def seated_phone(server, page, edition: str, name: str, sex: str = "male") -> str:
    """Create a game through the API and give this phone a seat in it; returns the code."""
    game = requests.post(server.url + "/api/games", json={"edition": edition}).json()
    seat = requests.post(f"{server.url}/api/games/{game['code']}/players", json={"name": name, "sex": sex}).json()
    page.context.add_cookies([{"name": f"seat_{game['code']}", "value": seat["token"], "url": server.url}])
    page.goto(f"{server.url}/games/{game['code']}")
    return game["code"]
