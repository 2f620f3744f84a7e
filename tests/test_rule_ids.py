"""Every rule the engine can refuse with is a ruling of the rules base, with a citation and its
sentence in Russian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import rulebase
from companion.engine import editions, rulebook
from companion.engine.errors import RuleViolation
from companion.engine.rules import TableRules

ENGINE = Path(__file__).resolve().parents[1] / "companion" / "engine"
RAISED = sorted({m for path in ENGINE.rglob("*.py")
                 for m in re.findall(r'RuleViolation\(\s*"([a-z0-9-]+)"', path.read_text())}
                | {m for path in ENGINE.rglob("*.py")
                   for m in re.findall(r'"rule":\s*"([a-z0-9-]+)"', path.read_text())})


def test_the_engine_raises_a_known_set_of_rules():
    assert len(RAISED) >= 30


@pytest.mark.parametrize("rule_id", RAISED)
def test_each_engine_rule_is_a_ruling_with_a_citation_for_every_edition_it_applies_to(rule_id):
    ruling = rulebase.get_ruling(rule_id)
    assert ruling is not None, f"{rule_id} is raised by the engine but missing from the rules base"
    assert ruling["answer"].strip()
    cited = {c["edition"] for c in ruling["citations"]}
    assert set(ruling["editions"]) <= cited


@pytest.mark.parametrize("edition", list(editions.EDITIONS))
@pytest.mark.parametrize("rule_id", RAISED)
def test_a_refusal_reads_in_our_words_with_the_editions_citation(rule_id, edition):
    violation = rulebook.fill(RuleViolation(rule_id, "example detail"), TableRules.chosen(edition))
    assert violation.message.endswith("(example detail)")
    assert violation.citation
    book = editions.get(edition).rulebook
    ruling = rulebase.get_ruling(rule_id)
    if edition in ruling["editions"]:
        assert violation.citation.startswith(book)
    else:
        assert "Not in" in violation.citation


def test_every_refusal_rule_the_engine_raises_has_its_sentence_in_russian():
    """The rule's sentence of a refusal comes from the rulings, which are in English and Russian."""
    for rule in RAISED:
        english, _ = rulebase.explain(rule, "classic")
        russian, _ = rulebase.explain(rule, "classic", lang="ru")
        assert russian != english and re.search("[а-яА-Я]", russian), rule
