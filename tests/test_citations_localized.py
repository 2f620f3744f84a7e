"""Citations in the reader's language: a rulebook and its sections as that language's edition
titles them (companion/rulebase/translations/citations/<lang>.json: a source's title, else ours)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import rulebase

from .helpers import ApiTable

WORDS = {p.stem: json.loads(p.read_text(encoding="utf-8"))
         for p in (Path(rulebase.__file__).parent / "translations" / "citations").glob("*.json")}


def _parts() -> tuple[set, set]:
    books, sections = set(), set()
    for ruling in rulebase.all_rulings():
        sources = [c["source"] for c in ruling.get("citations") or ()]
        if ruling.get("official"):
            sources.append(ruling["official"]["source"])
        for source in sources:
            book, _, rest = source.partition(", ")
            books.add(book)
            sections.update(part for part in rest.split("; ") if part)
    return books, sections


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_every_book_and_section_cited_has_words_in_every_language(lang):
    books, sections = _parts()
    assert books <= set(WORDS[lang]["books"]), books - set(WORDS[lang]["books"])
    assert sections <= set(WORDS[lang]["sections"]), sections - set(WORDS[lang]["sections"])


def test_a_citation_reads_in_the_readers_language_and_english_stays():
    assert rulebase.localized_citation("Munchkin (classic rules), Asking For Help", "en") == \
        "Munchkin (classic rules), Asking For Help"
    assert rulebase.localized_citation("Munchkin (classic rules), Asking For Help", "de") == \
        "Munchkin (klassische Regeln), Um Hilfe bitten"
    assert rulebase.localized_citation("Munchkin Russia, Asking For Help (p. 5)", "ru").endswith("(с. 5)")
    note = rulebase.localized_citation(rulebase.citation_for("dead-no-cards", "classic"), "ru")
    assert note.startswith("Нет в правилах «Манчкин (классические правила)»") and "Not in" not in note


def test_a_refusal_at_a_german_table_cites_the_german_sections(client):
    table = ApiTable(client)
    table.join("Ann")
    table.join("Bob")
    r = table.request("POST", "actions", "Bob", json={"type": "end_turn", "player": table.ids["Bob"]},
                      headers={"Accept-Language": "de"})
    error = r.get_json()["error"]
    assert r.status_code == 422 and error["citation"]
    assert error["citation"].startswith("Munchkin (klassische Regeln), "), error["citation"]
