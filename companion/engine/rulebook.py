"""Turns a refusal's rule id into the sentence and citation for the game's edition.

The sentences live in the rules base (``companion/rulebase``), so the arbiter and the
engine never disagree about what a rule says.
"""

from __future__ import annotations

from companion import rulebase

from .errors import RuleViolation
from .rules import TableRules


def fill(violation: RuleViolation, rules: TableRules) -> RuleViolation:
    """Give a violation its message and citation for the table's rules (in place): the printed
    rule's of its edition, or where the table follows the official rulings and the ruling has
    an official part for this edition, that part's answer and source."""
    edition_id, official_updates = rules.edition.id, rules.official_updates
    answer, citation = rulebase.explain(violation.rule, edition_id, official_updates=official_updates)
    violation.message = f"{answer} ({violation.detail})" if violation.detail else answer
    violation.citation = citation
    violation.edition = edition_id
    violation.official_updates = official_updates
    return violation
