"""Turns a refusal's rule id into the sentence and citation for the game's edition.

The sentences live in the rules base (``companion/rulebase``), so the arbiter and the
engine never disagree about what a rule says.
"""

from __future__ import annotations

from companion import rulebase

from .errors import RuleViolation


def fill(violation: RuleViolation, edition_id: str) -> RuleViolation:
    """Give a violation its message and citation for ``edition_id`` (in place)."""
    answer, citation = rulebase.explain(violation.rule, edition_id)
    violation.message = f"{answer} ({violation.detail})" if violation.detail else answer
    violation.citation = citation
    violation.edition = edition_id
    return violation
