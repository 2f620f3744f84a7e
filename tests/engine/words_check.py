"""Checks shared by the engine's words tests (test_words_fight.py, test_words_table.py).

The fake translator ``upper`` upper-cases each msgid (outside its placeholders). Rendered with
it, a line must have no lower-case letter left once the parameters' own text (names, card
names, ids: facts, never translated) is taken out: English that bypassed translation would.
Each test file says which parameter names hold facts in its domain.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from companion.engine.words import EVENT_WORDS, english_plural, render

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"(%\([a-z_]+\)s|%%)")


def upper(msgid: str) -> str:
    """A translation into "capitals": every word changes, every placeholder stays."""
    return "".join(part if PLACEHOLDER.fullmatch(part) else part.upper()
                   for part in PLACEHOLDER.split(msgid))


def upper_plural(singular: str, plural: str, n: int) -> str:
    return upper(english_plural(singular, plural, n))


def broken(msgid: str) -> str:
    """A translation that names parameters nobody passes (a translator's typo)."""
    return msgid.replace("%(", "%(missing_")


def broken_plural(singular: str, plural: str, n: int) -> str:
    return broken(english_plural(singular, plural, n))


def param_texts(value, facts: set[str]) -> list[str]:
    """The text parameters anywhere in a said or an event; each must be a fact (``facts``)."""
    out: list[str] = []
    if isinstance(value, list):
        for v in value:
            out += param_texts(v, facts)
    elif isinstance(value, dict):
        if "card_text" in value:  # a card's own text (engine.words.card_text): a fact
            return [value["text"]]
        for key, v in value.items():
            if key in ("said", "plural", "kind"):
                continue
            if key == "sex":  # a player's sex picks the words' gendered form, never shown itself
                assert v in ("female", "male"), f"sex={v!r}"
                continue
            if isinstance(v, str):
                assert key in facts, f"text parameter {key}={v!r} is not a fact: make it a said"
                out.append(v)
            else:
                out += param_texts(v, facts)
    return out


def _marked_msgids() -> set[str]:
    """Every msgid written in the code as ``N_("...")`` or a ``said_plural`` pair: what
    extraction finds for translators (``-k said_plural:1,2``)."""
    found = set()
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "N_" and node.args and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
            if node.func.id == "said_plural":
                found.update(a.value for a in node.args[:2] if isinstance(a, ast.Constant))
    return found


MARKED = _marked_msgids()


def msgids(value) -> list[str]:
    """The msgids a said or an event is rendered with (its own and those nested in it)."""
    out: list[str] = []
    if isinstance(value, list):
        for v in value:
            out += msgids(v)
    elif isinstance(value, dict):
        if "said" in value:
            out += [value["said"]] + ([value["plural"]] if "plural" in value else [])
        elif "kind" in value:
            out.append(EVENT_WORDS[value["kind"]])
        for v in value.values():
            out += msgids(v) if isinstance(v, (dict, list)) else []
    return out


def saids(value) -> list[dict]:
    """Every said and event in a structure (the public state, a fight's view), outermost only."""
    if isinstance(value, list):
        return [s for v in value for s in saids(v)]
    if not isinstance(value, dict):
        return []
    if "said" in value:
        return [value]
    return [s for v in value.values() for s in saids(v)]


def assert_all_translated(value, facts: set[str]) -> None:
    # A msgid made at run time (an f-string) would reach gettext but never a catalog.
    for msgid in msgids(value):
        assert msgid in MARKED, f"{msgid!r} is not a literal N_() msgid"
    text = render(value, upper, upper_plural)
    if any(re.search("[a-z]", PLACEHOLDER.sub("", m)) for m in msgids(value)):
        assert text != render(value), value  # (a said of facts only, "RAT (Elf)", may not change)
    rest = text
    for fact in sorted(param_texts(value, facts), key=len, reverse=True):
        if fact:
            rest = rest.replace(fact, "")
    assert not any(ch.islower() for ch in rest), (text, value)


def missing_parameters(value) -> list[str]:
    """Msgids of this said/event (and those nested in it) that its parameters cannot fill."""
    if isinstance(value, list):
        return [m for v in value for m in missing_parameters(v)]
    if not isinstance(value, dict):
        return []
    found = []
    template = value.get("said") or EVENT_WORDS.get(value.get("kind"))
    if template is not None:
        params = {k: v for k, v in value.items() if k not in ("said", "kind", "parts", "plural")}
        for msgid in filter(None, (template, value.get("plural"))):
            try:
                msgid % params
            except (KeyError, ValueError, TypeError):
                found.append(msgid)
    for v in value.values():
        if isinstance(v, (dict, list)):
            found += missing_parameters(v)
    return found
