"""Who could turn a fight by helping, and a fair bribe (issue 6). Being written."""

from __future__ import annotations


def helper_options(**kwargs) -> list[dict]:
    return []


def suggest_bribe(**kwargs) -> dict:
    return {}
