"""Templates decide no rule: every control that posts an action shows because ``allowed`` (the
engine's list, ``engine.allowed``) lists it, never because Jinja compared a turn, a fighter, a
helper, the host or a card's kind. And pages show exactly what ``allowed`` lists.

Two scans of ``templates/``:

- no ``{% if %}``/``{% elif %}``/``{% for ... if %}`` condition anywhere compares whose turn it
  is with the phone's seat, the fighter, the helper or the host (the classic ways a template
  copies a rule);
- no condition around an action control (``m.act``, ``m.act_form``, ``m.act_button``, a form
  posting to ``/act``), in its own template or in the templates that include it, uses those
  words, a card's kind (``kind ==``), a player's death, the winners or the fight's stage,
  unless it is a disjunction with a plain lookup of ``allowed`` in it (``can(...) or ...``):
  then the rule words can only add something to show, never hide a move the engine lists.

Conditions of pure presentation are fine: is there a fight to show, is a list empty, which row
is highlighted as the turn, which facts of a card to show for its kind, which part of the fight
(the tally, the escapes, the result) is on screen when no control depends on it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from .helpers import ApiTable

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
SKIP = {"_macros.html"}  # the action macros themselves

# Anywhere in a condition: a template copying a rule.
COPIED_RULES = [
    (r"\bstate\.turn\s*[!=]=|\b(?:me|player\.id)\s*[!=]=\s*state\.turn\b", "whose turn it is"),
    (r"\.fighter\s*[!=]=|[!=]=\s*[\w.]*\.fighter\b|\bin\s*\(\s*c\.fighter\b", "who is fighting"),
    (r"\.helper\s*[!=]=|[!=]=\s*[\w.]*\.helper\b", "who is helping"),
    (r"\bactor\.host\b|\bis_host\b", "the host"),
    (r"\bin_fight\b|\bfighter_view\b", "a seat in the fight"),
]
# Around an action control: any of these decides who may do what.
RULE_WORDS = re.compile(
    r"\bstate\.turn\b|\.fighter\b|\.helper\b|\bactor\.host\b|\bis_host\b|\bstage\b|\.dead\b"
    r"|\bwinners?\b|\bkind\s*[!=]=|\bme\s*[!=]=|[!=]=\s*me\b|\bin_fight\b")
LOOKUP = re.compile(r"\b(?:can|may_try)\(|\ballowed\b|\brefused\b")
ACTION = re.compile(r"\bm\.act(?:_form|_button)?\(|<form\b[^>]*\baction=\"[^\"]*/act\"")
TAG = re.compile(r"\{%-?\s*(.*?)\s*-?%\}", re.S)
COMMENT = re.compile(r"\{#.*?#\}", re.S)


def _source(name: str) -> str:
    return COMMENT.sub(lambda m: " " * len(m.group(0)), (TEMPLATES / name).read_text())


def _templates() -> list[str]:
    return sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*.html")
                  if p.name not in SKIP)


def _disjuncts(condition: str) -> list[str]:
    """``a or (b and c) or d`` -> ["a", "(b and c)", "d"] (top level only)."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(condition):
        ch = condition[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and condition.startswith(" or ", i):
            out.append(condition[start:i])
            start = i + 4
            i += 3
        i += 1
    return out + [condition[start:]]


def scan(name: str, outer: tuple = (), seen: tuple = ()) -> tuple[list, list]:
    """(conditions: [(template, condition)], actions: [(template, line, [enclosing conditions])]),
    following includes with the conditions around them."""
    text = _source(name)
    stack: list[list[str]] = []  # per open if/for: the clauses of the branch we are in
    frames: list[list[str]] = []  # per open if: the conditions of its earlier branches
    conditions, actions = [], []
    pos = 0
    tags = list(TAG.finditer(text))

    def enclosing() -> list[str]:
        return list(outer) + [" and ".join(clauses) for clauses in stack if clauses]

    def take_actions(chunk: str, offset: int) -> None:
        for found in ACTION.finditer(chunk):
            line = text.count("\n", 0, offset + found.start()) + 1
            actions.append((name, line, enclosing()))

    for tag in tags:
        take_actions(text[pos:tag.start()], pos)
        pos = tag.end()
        body = tag.group(1)
        word = body.split(None, 1)[0] if body.split() else ""
        rest = body[len(word):].strip()
        if word == "if":
            conditions.append((name, rest))
            stack.append([rest])
            frames.append([rest])
        elif word == "elif":
            conditions.append((name, rest))
            stack[-1] = [f"not ({c})" for c in frames[-1]] + [rest]
            frames[-1].append(rest)
        elif word == "else":
            stack[-1] = [f"not ({c})" for c in frames[-1]] if frames and frames[-1] is not None else []
        elif word in ("endif", "endfor"):
            stack.pop()
            frames.pop()
        elif word == "for":
            if " if " in rest:
                conditions.append((name, rest.split(" if ", 1)[1]))
            stack.append([rest])
            frames.append(None)
        elif word == "include":
            included = re.match(r"[\"']([^\"']+)[\"']", rest).group(1)
            # ``ignore missing``: a template another part may add later is scanned once it exists.
            if included not in seen and (TEMPLATES / included).exists():
                inner_conditions, inner_actions = scan(included, tuple(enclosing()), seen + (name,))
                conditions += inner_conditions
                actions += inner_actions
        elif word == "call":
            take_actions(rest, tag.start())
        else:
            take_actions(body, tag.start())
    take_actions(text[pos:], pos)
    assert not stack, f"{name}: unbalanced if/for"
    return conditions, actions


def _included() -> set[str]:
    names = set()
    for name in _templates():
        names |= set(re.findall(r"\{%-?\s*include\s+[\"']([^\"']+)[\"']", _source(name)))
    return names


def _everything() -> tuple[list, list]:
    conditions, actions = [], []
    for name in _templates():
        if name in _included():  # scanned where it is included, with the conditions around it
            continue
        c, a = scan(name)
        conditions += c
        actions += a
    return conditions, actions


def test_no_template_condition_copies_a_rule():
    conditions, _ = _everything()
    found = [f"{name}: {{% if {cond} %}} decides {what}" for name, cond in conditions
             for pattern, what in COPIED_RULES if re.search(pattern, cond)]
    assert not found, "\n".join(found)


def test_every_action_control_shows_because_allowed_lists_it():
    _, actions = _everything()
    assert len(actions) > 30  # the scan sees the controls (sheet, fight, help, table, card page)
    wrong = []
    for name, line, conds in actions:
        for cond in conds:
            if not RULE_WORDS.search(cond):
                continue
            plain_lookups = [d for d in _disjuncts(cond) if LOOKUP.search(d) and not RULE_WORDS.search(d)]
            if not plain_lookups or cond.startswith("not ("):
                wrong.append(f"{name}:{line}: shown when {cond!r}")
    assert not wrong, "a template decides who may do what:\n" + "\n".join(wrong)


def test_the_scan_catches_a_template_that_decides(tmp_path, monkeypatch):
    """The scan itself, on a template written the old way (the fight's Resolve button)."""
    (tmp_path / "old.html").write_text(
        '{% if c.stage == "fighting" %}{% if actor.host or me in (c.fighter, c.helper) %}'
        '{{ m.act({"type": "resolve"}, "Resolve") }}{% endif %}{% endif %}')
    monkeypatch.setattr(sys.modules[__name__], "TEMPLATES", tmp_path)
    conditions, actions = scan("old.html")
    assert any(re.search(p, c) for _, c in conditions for p, _ in COPIED_RULES)
    assert actions and all(RULE_WORDS.search(c) for c in actions[0][2])


# --- pages show what allowed lists ---------------------------------------------------------

def _live(client, table, who) -> str:
    client.set_cookie(f"host_{table.code}", table.host_token if who == "host" else "")
    client.set_cookie(f"seat_{table.code}", "" if who == "host" else table.tokens[who])
    r = client.get(f"/games/{table.code}/live")
    assert r.status_code == 200
    return r.get_data(as_text=True)


@pytest.fixture
def fight(client):
    """Ann fights a level 6 monster; Bob helps; Cid looks on."""
    table = ApiTable(client)
    for name in ("Ann", "Bob", "Cid"):
        table.join(name)
    ann, bob = table.ids["Ann"], table.ids["Bob"]
    table.act("Ann", {"type": "fight", "player": ann,
                      "monster": {"kind": "monster", "name": "Ogre", "level": 6}})
    table.act("Bob", {"type": "help", "player": bob})  # Bob offers; Ann, fighting, says yes
    table.act("Ann", {"type": "accept_help", "player": bob})
    return table


def test_the_fight_panel_shows_resolve_exactly_when_allowed_lists_it(client, fight):
    for who in ("Ann", "Bob", "Cid", "host"):
        listed = "resolve" in fight.allowed(who)
        html = _live(client, fight, who)
        shown = "Give up: run away" in html or "Resolve the fight" in html
        assert shown == listed, who
    # The helper's phone has it, a bystander's does not.
    assert "Give up: run away" in _live(client, fight, "Bob")
    assert "Give up: run away" not in _live(client, fight, "Cid")


def _give_up_form(html: str) -> str:
    found = re.search(r"<form[^>]*>(?:(?!</form>).)*?Give up: run away", html, re.S)
    assert found, "no Give up button"
    return found.group(0)


def test_on_the_helpers_phone_giving_up_the_fighters_fight_asks_first(client, fight):
    # Giving up a lost fight is the fighter's call: the helper may, after a question.
    assert 'hx-confirm="Decide Ann\'s fight for them?"' in _give_up_form(_live(client, fight, "Bob"))
    assert "hx-confirm" not in _give_up_form(_live(client, fight, "Ann"))


def test_running_away_shows_dice_only_to_whoever_may_roll(client, fight):
    fight.act("Ann", {"type": "resolve"})  # 2 against 6: run away
    for who in ("Ann", "Bob", "Cid", "host"):
        rolls = fight.allowed(who).get("run_away", [])
        html = _live(client, fight, who)
        assert html.count(">I rolled this<") == len(rolls), who
    assert "Give up: run away" not in _live(client, fight, "host")


def test_the_api_answers_what_a_seat_may_do_and_nothing_to_a_stranger(client, fight):
    ann = fight.allowed("Ann")
    assert ann["resolve"] == [{}]
    assert "fight" not in ann and "help" not in ann  # one fight at a time; she is the fighter
    assert "lock_table" in fight.allowed("host") and "lock_table" not in ann
    r = fight.request("GET", "allowed")
    assert r.status_code == 200 and r.get_json() == {"allowed": {}}
    r = fight.request("GET", "allowed", headers={"Authorization": "Bearer not-a-seat"})
    assert r.status_code == 200 and r.get_json() == {"allowed": {}}
