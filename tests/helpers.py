"""What the tests in this folder share beyond fixtures (those are in conftest.py): the driver
of a game through the JSON API, and the games, apps and phones several modules build."""

from __future__ import annotations

from html.parser import HTMLParser

from babel.messages.pofile import read_po
from jinja2 import BytecodeCache

from companion import ROOT, create_app
from companion.web.languages import LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != "en"]
CATALOGS = ROOT / "companion" / "translations"


class ApiTable:
    """The one game the API tests drive, through the JSON API the way phones drive it.

    ``ApiTable(client, "tails")`` creates a game (``POST /api/games``, with any other field of its
    body as a keyword: ``variants=``, ``winning_level=``) and holds its code and host token;
    ``ApiTable.of(client, code, host_token)`` drives a game made some other way (the fixture
    ``table`` is ``ApiTable(client)``). ``table.join("Ann", "female")`` seats a player with a phone
    and keeps her id and token (``table.ids``, ``table.tokens``); its answer is the body.

    ``who`` is a seated name or ``"host"``. ``table.act(who, action)`` sends an action with
    who's token, checks that it fits ``GET /api/schema`` (unless a 400 is expected) and that
    the status is ``expect`` (200), and answers the body; ``join`` (201) and ``undo`` (200)
    take ``expect`` too. ``table.state()`` is the public state, ``table.player("Ann")`` Ann in
    it, ``table.allowed(who)`` what ``GET .../allowed`` lists for who, ``table.history(who)``
    the history's events.

    For the HTTP itself, answered unchecked: ``table.send(who, action)`` is the response to the
    action; ``table.request(method, path, who, **kwargs)`` sends any request to
    ``/api/games/<code>/<path>`` (a path starting with ``/``: that path) with who's
    ``Authorization`` header (``table.auth(who)``; none when who is ``None``) merged into
    ``headers``.
    """

    def __init__(self, client, edition="classic", **fields):
        self.client = client
        r = client.post("/api/games", json={"edition": edition, **fields})
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        self.code, self.host_token, self.join_url = body["code"], body["host_token"], body["join_url"]
        self.tokens: dict[str, str] = {}
        self.ids: dict[str, int] = {}

    @classmethod
    def of(cls, client, code, host_token) -> "ApiTable":
        """The driver of a game already stored (made by the store, or stored as an older
        version left it)."""
        table = cls.__new__(cls)
        table.client, table.code, table.host_token, table.join_url = client, code, host_token, None
        table.tokens, table.ids = {}, {}
        return table

    # --- the HTTP ---------------------------------------------------------------------------

    def auth(self, who) -> dict:
        token = self.host_token if who == "host" else self.tokens[who]
        return {"Authorization": f"Bearer {token}"}

    def request(self, method, path="", who=None, *, headers=None, **kwargs):
        url = path if path.startswith("/") else f"/api/games/{self.code}" + (f"/{path}" if path else "")
        headers = {**(self.auth(who) if who is not None else {}), **(headers or {})}
        return self.client.open(url, method=method, headers=headers, **kwargs)

    # --- seats and actions --------------------------------------------------------------------

    def join(self, name, sex="male", expect=201):
        r = self.request("POST", "players", json={"name": name, "sex": sex})
        assert r.status_code == expect, (r.status_code, r.get_json())
        body = r.get_json()
        if expect == 201:
            self.tokens[name], self.ids[name] = body["token"], body["player_id"]
        return body

    def act(self, who, action, expect=200):
        if expect != 400:  # every well-formed action a test sends fits GET /api/schema
            import jsonschema

            validator = getattr(ApiTable, "_schema_validator", None)
            if validator is None:  # fetched and checked once per test run
                r = self.client.get("/api/schema")
                assert r.status_code == 200, r.status_code
                jsonschema.Draft202012Validator.check_schema(r.get_json()["actions"])
                validator = ApiTable._schema_validator = jsonschema.Draft202012Validator(r.get_json()["actions"])
            error = jsonschema.exceptions.best_match(validator.iter_errors(action))
            assert error is None, (f"{action} does not fit GET /api/schema: {error.message} "
                                   f"(at {'/'.join(map(str, error.absolute_path)) or 'the top'})")
        r = self.send(who, action)
        assert r.status_code == expect, (r.status_code, r.get_json())
        return r.get_json()

    def send(self, who, action, **kwargs):
        """``POST .../actions`` with who's token, answered unchecked (a tap whatever comes of it)."""
        return self.request("POST", "actions", who, json=action, **kwargs)

    def undo(self, who, expect=200):
        r = self.request("POST", "undo", who)
        assert r.status_code == expect, (r.status_code, r.get_json())
        return r.get_json()

    # --- reading the game ---------------------------------------------------------------------

    def state(self):
        return self.request("GET").get_json()

    def player(self, name):
        return next(p for p in self.state()["players"] if p["id"] == self.ids[name])

    def allowed(self, who) -> dict:
        r = self.request("GET", "allowed", who)
        assert r.status_code == 200, (r.status_code, r.get_json())
        return r.get_json()["allowed"]

    def history(self, who=None) -> list[dict]:
        r = self.request("GET", "history", who)
        assert r.status_code == 200, (r.status_code, r.get_json())
        return r.get_json()["events"]


class CompiledTemplates(BytecodeCache):
    """Jinja's compiled code of each template, kept for the whole test run and shared by every
    app a test makes (each app has its own Jinja environment, which would otherwise parse and
    compile the templates again: about 0.3 s for a test's first game page). Jinja keys the code
    by the template's name and checks it against the source's checksum, so a changed template
    is compiled anew; an environment set up differently gets a cache of its own."""

    _by_setup: dict[tuple, "CompiledTemplates"] = {}

    def __init__(self):
        self._code: dict[str, bytes] = {}

    @classmethod
    def share(cls, app):
        """Give ``app`` (before it rendered anything) the code its like compiled before."""
        env = app.jinja_env
        setup = (tuple(sorted(env.extensions)), getattr(env, "newstyle_gettext", None), env.trim_blocks,
                 env.lstrip_blocks, env.keep_trailing_newline, env.optimized, env.block_start_string,
                 env.variable_start_string, env.comment_start_string, env.line_statement_prefix,
                 env.line_comment_prefix, env.newline_sequence, env.finalize is None, type(env).__name__)
        env.bytecode_cache = cls._by_setup.setdefault(setup, cls())
        return app

    def load_bytecode(self, bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


def make_app(where, **config):
    """An app of its own on ``where``: a database URL, or a folder for a SQLite file (``config``
    over the tests' settings: a throttle's limit, a small pool)."""
    url = where if isinstance(where, str) else f"sqlite:///{where / 'test.db'}"
    return CompiledTemplates.share(create_app({"TESTING": True, "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                                               "COMPANION_DATABASE_URL": url, **config}))


HOUSE_MONSTER = {"kind": "monster", "name": "Tax Collector", "level": 4, "treasures": 1}


def house_cards(count, prefix="Card"):
    """``count`` house monsters, each of its own name (an import's ``cards``)."""
    return [dict(HOUSE_MONSTER, name=f"{prefix} {i}") for i in range(count)]


def boris_won(client) -> ApiTable:
    """A classic game that is over: Boris reached level 10 by killing a Rat; Eva sits beside him."""
    table = ApiTable(client)
    table.join("Boris")
    table.join("Eva", "female")
    boris = table.ids["Boris"]
    table.act("Boris", {"type": "level", "player": boris, "delta": 8})
    table.act("Boris", {"type": "fight", "player": boris, "monster": {"kind": "monster", "name": "Rat", "level": 1}})
    table.act("Boris", {"type": "resolve"})
    assert table.state()["winners"] == [boris]
    return table


# --- languages ------------------------------------------------------------------------------

def catalog_po(lang):
    """The language's translations catalog (``messages.po``), read by Babel."""
    with (CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang)


class VisibleText(HTMLParser):
    """The visible text of a page, leaving out scripts, styles and anything marked lang="en"."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[bool] = []  # per open element: is its text skipped?
        self.chunks: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("aria-label", "placeholder", "title", "alt"):
            if attrs.get(name) and not (self.stack and self.stack[-1]):
                self.chunks.append(attrs[name])
        if tag in self.VOID:
            return
        # English on purpose is marked lang="en" on an element inside the page; the page's
        # own <html lang> is the language being walked, not a mark.
        skipped = (self.stack and self.stack[-1]) or tag in ("script", "style", "svg") \
            or (attrs.get("lang") == "en" and tag != "html")
        self.stack.append(bool(skipped))

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.chunks.append(data)


def own_phone(client, lang, **cookies):
    """A phone of its own: the language it chose, and its seat or host cookie."""
    phone = client.application.test_client()
    phone.set_cookie("lang", lang)
    for name, value in cookies.items():
        phone.set_cookie(name, value)
    return phone


def every_page(client, table, lang):
    """(name, response) for every page of ``table`` (the fixture ``game_in_full_swing``: Ann
    fights with an offer out to Bob, Cid looks on) as its phones, the host and a stranger see
    it in ``lang``."""
    code = table.code
    ann = own_phone(client, lang, **{f"seat_{code}": table.tokens["Ann"]})
    bob = own_phone(client, lang, **{f"seat_{code}": table.tokens["Bob"]})
    cid = own_phone(client, lang, **{f"seat_{code}": table.tokens["Cid"]})
    host = own_phone(client, lang, **{f"host_{code}": table.host_token})
    stranger = own_phone(client, lang)
    yield "home", stranger.get("/")
    yield "join", stranger.get(f"/join/{code}")
    yield "fighter", ann.get(f"/games/{code}")
    yield "offered", bob.get(f"/games/{code}")
    yield "bystander", cid.get(f"/games/{code}")
    yield "host", host.get(f"/games/{code}/host")
    yield "table", stranger.get(f"/games/{code}/table")
    yield "history", ann.get(f"/games/{code}/history")
    yield "summary", stranger.get(f"/games/{code}/summary")
    yield "me tab", ann.get(f"/games/{code}?tab=me")
    yield "card lookup", ann.get(f"/cards?game={code}&q=dwarf")
    yield "card page", ann.get(f"/cards/classic/dwarf?game={code}")
    yield "monster page", ann.get(f"/cards/classic/face-sucker?game={code}")
    yield "calculator", stranger.get("/calculator")
    yield "rules", stranger.get("/rules")
    yield "refusal", bob.post(f"/games/{code}/act", data={"type": "level", "player": table.ids["Bob"],
                                                          "delta": "-1"})
    yield "refusal in place", bob.post(f"/games/{code}/act", headers={"HX-Request": "true"},
                                       data={"type": "level", "player": table.ids["Bob"], "delta": "-1"})
    yield "unknown game", stranger.get("/games/NOSUCH9")


OLD_SQLITE_SCHEMA = """
CREATE TABLE game (id INTEGER NOT NULL, code VARCHAR(12) NOT NULL, edition VARCHAR NOT NULL,
    version INTEGER NOT NULL, state VARCHAR NOT NULL, host_token_hash VARCHAR NOT NULL,
    created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL, PRIMARY KEY (id));
CREATE UNIQUE INDEX ix_game_code ON game (code);
CREATE TABLE seat (id INTEGER NOT NULL, game_id INTEGER NOT NULL, player_id INTEGER NOT NULL,
    token_hash VARCHAR NOT NULL, PRIMARY KEY (id), FOREIGN KEY(game_id) REFERENCES game (id));
CREATE INDEX ix_seat_game_id ON seat (game_id);
CREATE UNIQUE INDEX ix_seat_token_hash ON seat (token_hash);
CREATE TABLE event (id INTEGER NOT NULL, game_id INTEGER NOT NULL, version INTEGER NOT NULL,
    kind VARCHAR NOT NULL, actor_player INTEGER, actor_host BOOLEAN NOT NULL, action VARCHAR NOT NULL,
    text VARCHAR NOT NULL, state_before VARCHAR NOT NULL, undone BOOLEAN NOT NULL,
    created_at DATETIME NOT NULL, PRIMARY KEY (id), FOREIGN KEY(game_id) REFERENCES game (id));
CREATE INDEX ix_event_game_id ON event (game_id);
"""
