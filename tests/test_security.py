"""The app's defences in the browser and the cache: no open redirect after a form, a
Content-Security-Policy that allows no inline script, Secure cookies behind https (trusted
proxies or an https public URL), an error page whose Back link stays on this site, a language
switch that works without JavaScript, answers and pages carrying a seat or host token never
stored (``no-store``), and one secret key for processes that start together."""

from __future__ import annotations

import re
import threading
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from companion import create_app
from companion.web.security import safe_next

from .helpers import ApiTable, CompiledTemplates

EVIL_NEXT = ["/\t/evil.example/", "//evil.example", "/\\evil.example", "https://evil.example",
             "/%09/evil.example", "/%2F/evil.example", "/%252F%252Fevil.example", "/\n/evil.example",
             "http:/evil.example", "javascript:alert(1)", "/ /evil.example", "\t//evil.example",
             "/\u200b/evil.example", "evil.example"]
CRLF_NEXT = ["/games/X\r\nSet-Cookie: pwned=1", "/\r\n/evil.example", "/games/X\rLocation: //evil.example"]


def on_site(location: str) -> bool:
    """A Location a browser resolves to this site: a plain path, nothing a browser would
    turn into another host once it drops tabs and newlines and reads a backslash as a slash."""
    cleaned = re.sub(r"[\t\r\n]", "", location).replace("\\", "/")
    parts = urlsplit(cleaned)
    return cleaned.startswith("/") and not cleaned.startswith("//") and not parts.scheme and not parts.netloc


def seated(client):
    table = ApiTable(client)
    ann = table.join("Ann")
    client.set_cookie(f"seat_{table.code}", ann["token"])
    return table, ann["player_id"]


# ---- redirects after a form -------------------------------------------------------------

@pytest.mark.parametrize("bad", EVIL_NEXT + CRLF_NEXT)
def test_safe_next_refuses_anything_but_a_path_of_this_site(bad):
    assert safe_next(bad) is None


@pytest.mark.parametrize("good", ["/", "/games/ABC", "/games/ABC/host", "/games/ABC?player=2",
                                  "/rules?q=a%20b&edition=tails", "/cards/classic/drooling-slime"])
def test_safe_next_keeps_paths_of_this_site(good):
    assert safe_next(good) == good


@pytest.mark.parametrize("bad", EVIL_NEXT + CRLF_NEXT)
def test_an_evil_next_after_a_form_falls_back_to_the_game_and_the_action_counts_once(client, bad):
    table, ann = seated(client)
    r = client.post(f"/games/{table.code}/act", data={"type": "level", "player": ann, "delta": "1",
                                                      "next": bad})
    assert r.status_code == 303, r.status_code
    assert on_site(r.headers["Location"]) and r.headers["Location"].startswith(f"/games/{table.code}")
    assert "pwned" not in str(r.headers)
    assert table.player("Ann")["level"] == 2  # applied, and only once


def test_a_good_next_after_a_form_is_followed(client):
    table, ann = seated(client)
    r = client.post(f"/games/{table.code}/act", data={"type": "level", "player": ann, "delta": "1",
                                                      "next": f"/games/{table.code}/history"})
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{table.code}/history"


def test_the_hosts_add_player_form_refuses_an_evil_next_too(client):
    table = ApiTable(client)
    client.set_cookie(f"host_{table.code}", table.host_token)
    r = client.post(f"/games/{table.code}/players", data={"name": "Grandpa", "sex": "male",
                                                          "next": "/\t/evil.example/"})
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{table.code}/host"
    r = client.post(f"/games/{table.code}/players", data={"name": "Gran", "sex": "female",
                                                          "next": "/games/X\r\nSet-Cookie: a=b"})
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{table.code}/host"
    assert [p["name"] for p in table.state()["players"]] == ["Grandpa", "Gran"]


# ---- Content-Security-Policy --------------------------------------------------------------

def directives(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request.path}"
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_every_response_has_a_strict_content_security_policy(client, table):
    responses = [client.get("/"), client.get(f"/api/games/{table.code}"), client.get("/api/cards?q=slime"),
                 client.get("/static/app.js"), client.get("/static/app.css"),
                 client.get("/static/vendor/nosleep.js-0.12.0/no-sleep.webm"), client.get("/no-such-page"),
                 client.get(f"/games/{table.code}/table", headers={"HX-Request": "true"})]
    for r in responses:
        assert r.status_code in (200, 404), (r.request.path, r.status_code)
        csp = directives(r)
        where = r.request.path
        assert csp["script-src"] == ["'self'"], where  # no 'unsafe-inline', no 'unsafe-eval'
        assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"], where
        assert csp["base-uri"] == ["'self'"] and csp["form-action"] == ["'self'"], where
        assert csp["connect-src"] == ["'self'"] and csp["default-src"] == ["'self'"], where
        assert csp["img-src"] == ["'self'"] and csp["media-src"] == ["'self'"], where
        for directive, sources in csp.items():
            assert "'unsafe-eval'" not in sources and "*" not in sources, (where, directive)
            if directive != "style-src":
                assert "'unsafe-inline'" not in sources, (where, directive)
        assert r.headers["X-Frame-Options"] == "DENY" and r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "same-origin"


class InlineCode(HTMLParser):
    """Collects every inline script, event handler and eval-needing htmx attribute (a
    ``js:`` value, a trigger filter, hx-vars, a morph config in hx-swap)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            # A JSON data element is never run (the browser executes only script types), so
            # the CSP allows it; anything else must come from a file.
            data_only = dict(attrs).get("type") == "application/json"
            if not dict(attrs).get("src") and not data_only:
                self.found.append("<script> without src")
            self.in_script = not data_only
        for name, value in attrs:
            value = (value or "").strip().lower()
            if name.startswith("on") or name.startswith("hx-on") or name.startswith("data-hx-on"):
                self.found.append(f"<{tag} {name}=...>")
            if value.startswith(("javascript:", "js:")):
                self.found.append(f"<{tag} {name}={value[:30]}>")
            if name in ("hx-trigger", "data-hx-trigger") and "[" in value:  # trigger filters are eval
                self.found.append(f"<{tag} {name}={value[:30]}>")
            if name in ("hx-vars", "data-hx-vars"):
                self.found.append(f"<{tag} {name}>")
            style = value.split()[0] if value.split() else ""
            if name in ("hx-swap", "data-hx-swap") and style.startswith("morph:") and style not in (
                    "morph:innerhtml", "morph:outerhtml"):  # idiomorph evals any other morph config
                self.found.append(f"<{tag} {name}={value[:30]}>")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.found.append("inline script body")


def test_no_page_carries_inline_script_or_handlers(client):
    table = ApiTable(client)
    ann = table.join("Ann")["player_id"]
    table.join("Bob")
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Plutonium Dragon", "level": 20, "treasures": 5}})
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    client.set_cookie(f"host_{table.code}", table.host_token)
    code = table.code
    urls = ["/", "/?lang=ru", f"/join/{table.code}", f"/games/{code}", f"/games/{code}/live", f"/games/{code}/host",
            f"/games/{code}/table", f"/games/{code}/history", f"/games/{code}/house", "/cards", "/cards?q=slime",
            "/cards/search?q=slime", f"/cards/classic/drooling-slime?game={code}", "/rules", "/rules?q=helper",
            "/rules/helper-limit", "/calculator", "/calculator?edition=tails&level=3", "/games/NOPE/host"]
    pages = {url: client.get(url) for url in urls}
    client.set_cookie(f"seat_{code}", "")
    client.set_cookie(f"host_{code}", "")
    pages["join page"] = client.get(f"/join/{code}")
    pages["error page"] = client.post(f"/games/{code}/act", data={"type": "level", "player": ann, "delta": "9"})
    pages["notice"] = client.post(f"/games/{code}/act", data={"type": "level", "player": ann, "delta": "9"},
                                  headers={"HX-Request": "true"})
    for where, r in pages.items():
        assert r.status_code < 500, (where, r.status_code)
        html = r.get_data(as_text=True)
        parser = InlineCode()
        parser.feed(html)
        assert not parser.found, (where, parser.found)
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", html, re.I), where
    assert 'data-dismiss=".notice"' in pages["error page"].get_data(as_text=True)
    assert 'data-dismiss=".notice"' in pages["notice"].get_data(as_text=True)
    assert '"allowEval":false' in pages["/"].get_data(as_text=True)


# ---- Secure cookies --------------------------------------------------------------------

def make_app(tmp_path, monkeypatch, **env):
    for name in ("COMPANION_TRUSTED_PROXIES", "COMPANION_PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return CompiledTemplates.share(create_app({
        "TESTING": True, "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path / 'secure.db'}",
        "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": True}))


def csrf_from(html: str) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def set_cookies(response) -> dict[str, str]:
    return {c.split("=", 1)[0]: c for c in response.headers.getlist("Set-Cookie")}


def flags(cookie: str) -> set[str]:
    return {p.strip().split("=")[0].lower() for p in cookie.split(";")[1:]}


def cookies_of_a_visit(client, headers) -> dict[str, str]:
    """Every cookie the app sets on a phone's way in: the session (CSRF), host, last game,
    seat and language."""
    seen = {}
    home = client.get("/", headers=headers)
    seen.update(set_cookies(home))
    token = csrf_from(home.get_data(as_text=True))
    r = client.post("/games", data={"edition": "classic", "csrf_token": token}, headers=headers)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    seen.update(set_cookies(r))
    code = r.headers["Location"].split("/")[-2]
    client.set_cookie(f"host_{code}", "")
    r = client.post(f"/join/{code}", data={"name": "Ann", "sex": "female", "csrf_token": token}, headers=headers)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    seen.update(set_cookies(r))
    r = client.get(f"/lang?lang=ru&next=/games/{code}", headers=headers)
    assert r.status_code == 303
    seen.update(set_cookies(r))
    names = {name.split("_")[0] for name in seen}
    assert {"session", "host", "last", "seat", "lang"} <= names, seen
    for name, cookie in seen.items():
        assert "samesite" in flags(cookie) and "SameSite=Lax" in cookie, cookie
        assert "httponly" in flags(cookie), cookie
    return seen


HTTPS_PROXY = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9", "Referer": "https://localhost/"}


def test_behind_a_trusted_https_proxy_every_cookie_is_secure(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch, COMPANION_TRUSTED_PROXIES="1")
    assert app.config["COMPANION_TRUSTED_PROXIES"] == 1
    for name, cookie in cookies_of_a_visit(app.test_client(), HTTPS_PROXY).items():
        assert "secure" in flags(cookie), cookie


def test_with_an_https_public_url_every_cookie_is_secure(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch, COMPANION_PUBLIC_URL="https://munchkin.example")
    for name, cookie in cookies_of_a_visit(app.test_client(), {}).items():
        assert "secure" in flags(cookie), cookie


def test_over_plain_http_cookies_are_not_secure(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch)
    for name, cookie in cookies_of_a_visit(app.test_client(), {}).items():
        assert "secure" not in flags(cookie), cookie


def test_forwarded_headers_are_ignored_when_no_proxy_is_trusted(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch, COMPANION_PUBLIC_URL="")
    client = app.test_client()
    forged = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"}
    for name, cookie in cookies_of_a_visit(client, forged).items():
        assert "secure" not in flags(cookie), cookie
    made = client.post("/api/games", json={"edition": "classic"}, headers=forged).get_json()
    assert "evil.example" not in made["join_url"] and not made["join_url"].startswith("https:")


def test_a_trusted_proxy_gives_the_join_url_its_public_scheme_and_host(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch, COMPANION_TRUSTED_PROXIES="1")
    made = app.test_client().post("/api/games", json={"edition": "classic"}, headers={
        "X-Forwarded-Proto": "https", "X-Forwarded-Host": "munchkin.example"}).get_json()
    assert made["join_url"].startswith("https://munchkin.example/join/")


def test_a_bad_proxy_count_is_refused_at_start(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="COMPANION_TRUSTED_PROXIES"):
        make_app(tmp_path, monkeypatch, COMPANION_TRUSTED_PROXIES="yes")


# ---- the error page's Back link ------------------------------------------------------------

def back_link(response) -> str:
    return re.search(r'<a class="button" href="([^"]*)">', response.get_data(as_text=True)).group(1)


def test_the_error_page_goes_back_only_within_the_site(client):
    table, ann = seated(client)
    refused = {"type": "level", "player": ann, "delta": "9"}
    evil = client.post(f"/games/{table.code}/act", data=refused, headers={"Referer": "https://evil.example/phish"})
    assert evil.status_code == 422 and back_link(evil) == f"/games/{table.code}"
    for referer in ("http://evil.example/games/X", "//evil.example/", "javascript:alert(1)",
                    "http://localhost.evil.example/", "http://localhost/\t/evil.example/"):
        r = client.post(f"/games/{table.code}/act", data=refused, headers={"Referer": referer})
        assert on_site(back_link(r)) and back_link(r).startswith(f"/games/{table.code}"), (referer, back_link(r))
    own = client.post(f"/games/{table.code}/act", data=refused,
                      headers={"Referer": f"http://localhost/games/{table.code}?player={ann}"})
    assert back_link(own) == f"/games/{table.code}?player={ann}"
    missing = client.get("/games/NOPE/host", headers={"Referer": "https://evil.example/"})
    assert missing.status_code == 404 and back_link(missing) == "/"


# ---- the language switch without JavaScript -------------------------------------------------

def test_the_language_switch_works_without_javascript_and_is_remembered(client, table):
    home = client.get("/").get_data(as_text=True)
    form = re.search(r'<form method="get" action="(/lang)"[^>]*>(.*?)</form>', home, re.S)
    assert form and 'name="lang"' in form.group(2) and 'name="next" value="/"' in form.group(2)
    assert '<button type="submit"' in form.group(2)  # inside <noscript>: JavaScript submits on change
    assert ">English<" in form.group(2) and ">Русский<" in form.group(2)

    r = client.get(f"/lang?lang=ru&next=/games/{table.code}/table")
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{table.code}/table"
    cookie = set_cookies(r)["lang"]
    assert cookie.startswith("lang=ru;") and "Max-Age=31536000" in cookie
    assert {"httponly", "samesite", "path"} <= flags(cookie)
    assert "Начать игру" in client.get("/").get_data(as_text=True)  # remembered
    assert "Start a game" in client.get("/?lang=en").get_data(as_text=True)  # ?lang= still wins

    back = client.get("/lang?lang=en&next=/rules?lang=ru%26q=helper")
    assert back.headers["Location"] == "/rules?q=helper"  # a ?lang= in next would undo the switch
    assert "Start a game" in client.get("/").get_data(as_text=True)


def test_the_language_switch_never_leaves_the_site(client):
    for bad in EVIL_NEXT + CRLF_NEXT:
        r = client.get("/lang", query_string={"lang": "ru", "next": bad})
        assert r.status_code == 303 and r.headers["Location"] == "/", (bad, r.headers["Location"])
    r = client.get("/lang?lang=ru&next=//evil.example", headers={"Referer": "http://localhost/rules?q=x"})
    assert r.headers["Location"] == "/rules?q=x"  # no next: back to the page it was switched on
    r = client.get("/lang?lang=ru", headers={"Referer": "https://evil.example/rules"})
    assert r.headers["Location"] == "/"
    r = client.get("/lang?lang=xx&next=/rules")
    assert r.headers["Location"] == "/rules" and "lang" not in set_cookies(r)  # unknown: ignored


def test_the_language_switch_comes_back_to_the_page_it_was_on(client, table):
    html = client.get(f"/games/{table.code}/table?x=1").get_data(as_text=True)
    assert f'name="next" value="/games/{table.code}/table?x=1"' in html
    # An answer to a form post has no address to come back to: the switch goes back instead.
    seat = table.join("Ann")
    client.set_cookie(f"seat_{table.code}", seat["token"])
    refused = client.post(f"/games/{table.code}/act", data={"type": "level", "player": seat["player_id"], "delta": "9"})
    assert f'name="next" value="/games/{table.code}"' in refused.get_data(as_text=True)


def test_the_language_list_is_the_single_source(client, monkeypatch):
    import companion.web.languages

    monkeypatch.setattr(companion.web.languages, "LANGUAGES", ("en", "ru", "de"))
    html = client.get("/").get_data(as_text=True)
    assert '<option value="de" lang="de" >Deutsch</option>' in html
    r = client.get("/lang?lang=de&next=/")
    assert set_cookies(r)["lang"].startswith("lang=de;")


# ---- answers that carry a token are never stored ------------------------------------------

def test_the_answers_that_carry_a_token_are_no_store(client):
    r = client.post("/api/games", json={"edition": "classic"})
    assert r.status_code == 201 and r.json["host_token"]
    assert r.headers["Cache-Control"] == "no-store"
    code = r.json["code"]
    r = client.post(f"/api/games/{code}/players", json={"name": "Ann", "sex": "female"})
    assert r.status_code == 201 and r.json["token"]
    assert r.headers["Cache-Control"] == "no-store"
    r = client.get(f"/api/games/{code}")  # no token in it: revalidated as before
    assert r.headers["Cache-Control"] == "no-cache"


def test_the_pages_that_set_a_seat_or_host_cookie_are_no_store(client):
    r = client.post("/games", data={"edition": "classic", "name": "Ann", "sex": "female"})
    assert r.status_code == 303
    cookies = " ".join(r.headers.getlist("Set-Cookie"))
    assert "host_" in cookies and "seat_" in cookies
    assert r.headers["Cache-Control"] == "no-store"
    code = r.headers["Location"].split("/")[2]  # /games/<code>/host
    other = client.application.test_client()  # another phone joins through the join page
    r = other.post(f"/join/{code}", data={"name": "Bob", "sex": "male"})
    assert r.status_code == 303 and "seat_" in " ".join(r.headers.getlist("Set-Cookie"))
    assert r.headers["Cache-Control"] == "no-store"
    assert other.get(f"/join/{code}").headers["Cache-Control"] in ("no-cache", "no-store")


# ---- the secret key ----------------------------------------------------------------------

def test_processes_starting_together_share_one_secret_key(tmp_path):
    from companion import _secret_key

    start, keys = threading.Barrier(8), []

    def process_starts():
        start.wait()
        keys.append(_secret_key(tmp_path))

    threads = [threading.Thread(target=process_starts) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1 and len(keys[0]) > 40
