"""What the fuzzing of the real app sends, and how it drives a game: Hypothesis strategies of
well-formed actions of every type (built from the action models themselves,
``companion.engine.action_models``) and of broken ones (a wrong type in any field, objects or
lists for ``type``, nesting a thousand deep, lone surrogates, huge numbers and strings, junk
keys), and ``FuzzedTable``, a fresh game driven through a Flask test client with its invariants.

Read by ``tests/test_fuzz.py`` (a hundred batches on every run) and ``bench/fuzz.py`` (20,000
inputs and a tally). Needs the test extra (Hypothesis): nothing in the app imports it.
"""

from __future__ import annotations

import json
import types
import urllib.parse
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from hypothesis import strategies as st
from pydantic import BaseModel

from companion.catalog import load_catalog
from companion.engine import action_models
from companion.store import Store
from companion.web.calculator import CombatRequest

PLAYERS = ("Ann", "Bob", "Cid")
PLAYER_IDS = (1, 2, 3, 4)  # a fresh game seats Ann, Bob, Cid as 1, 2, 3; 4 is nobody
WHO = ("host", "Ann", "Bob", "Cid", None, "stranger")
SLUGS = ("elf", "dwarf", "halfling", "human", "pony", "dog", "warrior", "wizard", "thief", "cleric",
         "chess-club", "oligarch", "undead", "dragon", "wolf", "babushka", "plant")


# --- JSON with nesting deeper than any encoder allows -----------------------------------------

class Deep:
    """A list nested ``depth`` times, written straight into the JSON text."""

    def __init__(self, depth: int, inner: str = "[]"):
        self.depth, self.inner = depth, inner

    def __repr__(self) -> str:
        return f"Deep({self.depth})"


def encode(value: Any) -> str:
    """JSON text for ``value`` (``Deep`` written as brackets; lone surrogates as escapes)."""
    if isinstance(value, Deep):
        return "[" * value.depth + value.inner + "]" * value.depth
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(k))}:{encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value)


def plain(value: Any) -> Any:
    """``value`` with every ``Deep`` made a real nested list (for checks done in Python)."""
    if isinstance(value, Deep):
        out: list = []
        for _ in range(min(value.depth, 50)):
            out = [out]
        return out
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


# --- well-formed values, from the models ---------------------------------------------------

TEXT = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=24)


def _catalog_ids(*kinds: str) -> list[str]:
    return [c["id"] for c in load_catalog().cards if not kinds or c["kind"] in kinds]


CARD_IDS = st.sampled_from(_catalog_ids() + ["classic/nope", "house/gone"])
# Monsters with a printed level, so fights start and go on to helpers, bribes and running.
MONSTER_IDS = st.sampled_from([c["id"] for c in load_catalog().cards
                               if c["kind"] == "monster" and c.get("level") is not None])


def _meta(tp: Any) -> tuple[Any, list]:
    meta: list = []
    while get_origin(tp) is Annotated:
        args = get_args(tp)
        meta.extend(args[1:])
        tp = args[0]
    return tp, meta


def _bounds(meta: list) -> tuple[int, int]:
    lo, hi = -1000, 1000
    for m in meta:
        for inner in [m, *getattr(m, "metadata", ())]:
            if isinstance(inner, annotated_types.Ge):
                lo = inner.ge
            elif isinstance(inner, annotated_types.Le):
                hi = inner.le
            elif isinstance(inner, annotated_types.MaxLen):
                hi = inner.max_length
    return lo, hi


def _lengths(meta: list, default: int = 3) -> tuple[int, int]:
    lo, hi = 0, default
    for m in meta:
        for inner in [m, *getattr(m, "metadata", ())]:
            if isinstance(inner, annotated_types.MaxLen):
                hi = min(inner.max_length, default)
            elif isinstance(inner, annotated_types.MinLen):
                lo = inner.min_length
    return lo, max(lo, hi)


def _has_pattern(meta: list) -> str | None:
    for m in meta:
        for inner in [m, *getattr(m, "metadata", ())]:
            pattern = getattr(inner, "pattern", None)
            if pattern:
                return pattern
    return None


def for_type(tp: Any, name: str = "", meta: list | None = None) -> st.SearchStrategy:
    """A strategy of well-formed JSON values for a pydantic field type (ids kept realistic)."""
    tp, more = _meta(tp)
    meta = (meta or []) + more
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        options = [for_type(m, name) for m in members]
        if len(members) < len(get_args(tp)):
            options.append(st.none())
        return st.one_of(options)
    if origin is Literal:
        return st.sampled_from(get_args(tp))
    if origin is list:
        lo, hi = _lengths(meta)
        return st.lists(for_type(get_args(tp)[0], name), min_size=lo, max_size=hi)
    if origin is dict:
        key, value = get_args(tp)
        return st.dictionaries(for_type(key, name), for_type(value, name), max_size=2)
    if tp is bool:
        return st.booleans()
    if tp is int:
        if name in ("player", "to", "bigger_share"):
            return st.sampled_from(PLAYER_IDS)
        if name == "delta":
            return st.integers(*_bounds(meta)).filter(bool)
        if name in ("instance", "instances", "items"):
            return st.integers(1, 30)
        if name == "monster":
            return st.integers(0, 3)
        lo, hi = _bounds(meta)
        return st.integers(lo, hi)
    if tp is str:
        pattern = _has_pattern(meta)
        if name == "monster":
            return MONSTER_IDS
        if name in ("card", "id") or (pattern and "/" in pattern):
            return CARD_IDS
        if pattern:
            return st.sampled_from(SLUGS)
        return TEXT
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return model_strategy(tp)
    raise AssertionError(f"no strategy for {tp!r}")


_MODELS: dict[type, st.SearchStrategy] = {}
# Fields whose well-formed values are better drawn from a narrower pool than their type's.
OVERRIDES: dict[tuple[str, str], st.SearchStrategy] = {
    ("MonsterEntry", "card"): MONSTER_IDS | st.fixed_dictionaries(
        {"kind": st.just("monster"), "name": TEXT, "level": st.integers(0, 30)}),
}


def model_strategy(model: type[BaseModel]) -> st.SearchStrategy:
    """A dict of the model's required fields and any of its optional ones."""
    if model not in _MODELS:
        required, optional = {}, {}
        for key, field in model.model_fields.items():
            if key in ("unknown", "copies", "aka", "sources", "disagreement"):
                continue  # catalog bookkeeping: no phone sends it
            name = field.alias or key
            strategy = OVERRIDES.get((model.__name__, key))
            if strategy is None:
                strategy = st.deferred(lambda f=field, n=key: for_type(f.annotation, n, list(f.metadata)))
            (required if field.is_required() else optional)[name] = strategy
        _MODELS[model] = st.fixed_dictionaries(required, optional=optional)
    return _MODELS[model]


VALID_ACTIONS = st.one_of([model_strategy(m) for m in action_models.MODELS])
VALID_COMBAT = model_strategy(CombatRequest)


# --- broken values -------------------------------------------------------------------------

SURROGATE = st.sampled_from(["\ud800", "\udfff", "Ann\ud83d", "\udc00x"])
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2 ** 80), 2 ** 80), st.floats(),
    st.text(max_size=12), SURROGATE, st.just("x" * 30_000),
    st.lists(st.integers(), max_size=3), st.lists(st.lists(st.text(max_size=3), max_size=2), max_size=2),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3),
    st.builds(Deep, st.integers(20, 1500)),
    st.builds(Deep, st.integers(900, 1100), st.just('{"type": "level"}')),
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, prefix + (i,))
    return out


def _set(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _set(value[head], rest, new)}
    copy = list(value)
    copy[head] = _set(copy[head], rest, new)
    return copy


@st.composite
def broken(draw, valid: st.SearchStrategy) -> Any:
    """A well-formed body with one thing wrong: a field's value, the type, a key, the shape."""
    value = draw(valid)
    how = draw(st.sampled_from(["field", "field", "field", "type", "drop", "extra", "shape"]))
    paths = _paths(value)
    if how == "field" and paths:
        return _set(value, draw(st.sampled_from(paths)), draw(JUNK))
    if how == "type" and isinstance(value, dict):
        return {**value, "type": draw(JUNK | st.sampled_from(["", "LEVEL", "undo", "join", "__class__"]))}
    if how == "drop" and isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value, key=str)))
        return {k: v for k, v in value.items() if k != key}
    if how == "extra" and isinstance(value, dict):
        return {**value, draw(st.text(max_size=8) | SURROGATE): draw(JUNK)}
    return draw(st.sampled_from([[value], "level", 7, None, Deep(1200)]) | JUNK)


# Ann has the first turn: her fights make the fight actions (help, bribes, running) matter.
FIGHTS = st.fixed_dictionaries({"type": st.just("fight"), "player": st.just(1), "monster": MONSTER_IDS})
ACTION_BODIES = st.one_of(VALID_ACTIONS, VALID_ACTIONS, FIGHTS, broken(VALID_ACTIONS))
COMBAT_BODIES = st.one_of(VALID_COMBAT, broken(VALID_COMBAT))


def form_pairs(action: Any) -> list[tuple[str, str]]:
    """The form fields a page would post for ``action`` (junk values as their text)."""
    pairs: list[tuple[str, str]] = []

    def add(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                add(f"{prefix}.{key}" if prefix else str(key), inner)
        elif isinstance(value, list):
            for inner in value:
                add(prefix, inner if not isinstance(inner, (dict, list)) else json.dumps(plain(inner)))
        elif isinstance(value, bool):
            pairs.append((prefix, "true" if value else "false"))
        elif value is not None:
            pairs.append((prefix or "type", str(value)[:2000]))

    add("", action if isinstance(action, dict) else {"type": action if not isinstance(action, Deep) else "x"})
    return pairs


OPERATIONS = st.one_of(
    st.tuples(st.just("action"), st.sampled_from(WHO), ACTION_BODIES),
    st.tuples(st.just("action"), st.sampled_from(("host", "Ann")), ACTION_BODIES),
    st.tuples(st.just("check"), st.sampled_from(WHO), ACTION_BODIES),
    st.tuples(st.just("form"), st.sampled_from(WHO), ACTION_BODIES, st.booleans()),
    st.tuples(st.just("combat"), COMBAT_BODIES),
    st.tuples(st.just("undo"), st.sampled_from(WHO)),
    st.tuples(st.just("join"), st.fixed_dictionaries(
        {"name": TEXT | JUNK, "sex": st.sampled_from(["male", "female"]) | JUNK},
        optional={"phone": st.booleans() | JUNK})),
)


# --- driving the app -----------------------------------------------------------------------

class FuzzedTable:
    """A fresh game with Ann, Bob and Cid seated (ids 1, 2, 3), sent the fuzzer's operations as they
    come (``send``: raw bodies, any token or none) and checked between them (``check_invariants``)."""

    def __init__(self, client):
        self.client = client
        r = client.post("/api/games", json={"edition": "classic"})
        assert r.status_code == 201, r.get_data(as_text=True)
        body = r.get_json()
        self.code, self.tokens = body["code"], {"host": body["host_token"], "stranger": "not-a-token"}
        for name in PLAYERS:
            r = client.post(f"/api/games/{self.code}/players", json={"name": name, "sex": "male"})
            assert r.status_code == 201, r.get_data(as_text=True)
            self.tokens[name] = r.get_json()["token"]

    def headers(self, who: str | None) -> dict:
        token = self.tokens.get(who) if who else None
        return {"Authorization": f"Bearer {token}"} if token else {}

    def cookies(self, who: str | None) -> dict:
        if who is None:
            return {}
        cookie = f"host_{self.code}" if who == "host" else f"seat_{self.code}"
        return {"Cookie": f"{cookie}={self.tokens[who]}"}

    def send(self, op: tuple):
        """Send one operation; return (path, response)."""
        kind, *args = op
        json_headers = {"Content-Type": "application/json"}
        if kind in ("action", "check"):
            who, body = args
            path = f"/api/games/{self.code}/{'actions' if kind == 'action' else 'check'}"
            return path, self.client.post(path, data=encode(body), headers={**json_headers, **self.headers(who)})
        if kind == "undo":
            path = f"/api/games/{self.code}/undo"
            return path, self.client.post(path, headers=self.headers(args[0]))
        if kind == "join":
            path = f"/api/games/{self.code}/players"
            return path, self.client.post(path, data=encode(args[0]), headers=json_headers)
        if kind == "combat":
            return "/api/combat", self.client.post("/api/combat", data=encode(args[0]), headers=json_headers)
        if kind == "form":
            who, body, htmx = args
            path = f"/games/{self.code}/act"
            data = urllib.parse.urlencode(form_pairs(body), encoding="utf-8", errors="surrogatepass")
            headers = {"Content-Type": "application/x-www-form-urlencoded", **self.cookies(who)}
            if htmx:
                headers["HX-Request"] = "true"
            return path, self.client.post(path, data=data, headers=headers)
        raise AssertionError(kind)

    def check_invariants(self) -> dict:
        r = self.client.get(f"/api/games/{self.code}")
        assert r.status_code == 200 and r.is_json
        state = r.get_json()
        for player in state["players"]:
            assert 1 <= player["level"] <= 10, player
        ids = [p["id"] for p in state["players"]]
        assert len(ids) == len(set(ids)), ids
        iids = [c["iid"] for p in state["players"] for c in p["cards"]]
        assert len(iids) == len(set(iids)), f"card instance ids repeat: {sorted(iids)}"
        events = self.client.get(f"/api/games/{self.code}/history").get_json()["events"]
        if state["version"] < 200:  # the history answers the latest 200 events
            assert state["version"] == len(events), (state["version"], len(events))
        # The state the store keeps for the next readers (the engine's own output, not parsed
        # back) is exactly what a fresh read of the row gives: JSON's types, nothing else.
        store = self.client.application.extensions["companion_store"]
        kept = store.load(self.code)
        fresh = Store(str(store.engine.url)).load(self.code)
        assert_same_json(kept, fresh)
        return state


def assert_same_json(kept: Any, fresh: Any, path: str = "") -> None:
    """``kept`` holds what JSON text would parse to, equal to ``fresh``: no tuples, no keys but
    strings, ``false`` not ``0``."""
    if isinstance(fresh, dict):
        assert isinstance(kept, dict) and all(type(k) is str for k in kept), (path, kept)
        assert kept.keys() == fresh.keys(), (path, set(kept) ^ set(fresh))
        for key, value in fresh.items():
            assert_same_json(dict.__getitem__(kept, key), value, f"{path}/{key}")
    elif isinstance(fresh, list):
        assert isinstance(kept, list) and len(kept) == len(fresh), (path, kept, fresh)
        for i, (a, b) in enumerate(zip(kept, fresh)):
            assert_same_json(a, b, f"{path}/{i}")
    else:
        assert type(kept) is type(fresh) and kept == fresh, (path, kept, fresh)


def check_answer(path: str, response) -> None:
    assert response.status_code < 500, (path, response.status_code, response.get_data(as_text=True)[:500])
    if path.startswith("/api/"):
        assert response.is_json and response.get_json() is not None, (path, response.status_code)


# Throttling stays on (its code is in the path of every request), with limits no fuzz run reaches.
NO_THROTTLE = {"COMPANION_RATELIMIT_CREATE": "1000000 per minute",
               "COMPANION_RATELIMIT_JOIN": "1000000 per minute",
               "COMPANION_RATELIMIT_UNKNOWN_CODE": "1000000 per minute"}
