"""Fuzzing the real app: whatever a phone or an attacker sends, the server answers 4xx or 2xx.

Inputs are built from the action models themselves (``companion.engine.action_models``):
well-formed actions of every type with realistic ids and catalog cards, and broken ones (a
wrong type in any field, objects or lists for ``type``, nesting a thousand deep, lone
surrogates, huge numbers and strings, junk keys). They go through the Flask test client to
the JSON API (``/actions``, ``/check``, ``/undo``, joining), the calculator (``POST
/api/combat``) and the HTML form endpoint (``POST /games/<code>/act``), as the host, as a
seated player and as a stranger. Every answer must be below 500, every ``/api/`` answer JSON,
and after each batch the game must still hold together: levels 1 to 10, card instance ids
unique across the table, and ``version`` equal to the number of events in the history.

The generators and the game driver are ``companion.fuzzing``'s; ``bench/fuzz.py`` runs them
for 20,000 inputs and prints a tally.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import create_app
from companion.fuzzing import NO_THROTTLE, OPERATIONS, Deep, FuzzedTable, check_answer


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    app = create_app({
        "TESTING": True,
        "COMPANION_DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}",
        "SECRET_KEY": "fuzz-secret",
        "WTF_CSRF_ENABLED": False,
        **NO_THROTTLE,
    })
    return app.test_client(use_cookies=False)


TALLY: Counter = Counter()


# 50 batches of 20 to 60 inputs: 1,000 to 3,000 requests a run, each run drawing new ones
# (bench/fuzz.py runs 20,000); the tally's floor of 1,000 below holds whatever sizes are drawn.
@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much,
                                 HealthCheck.large_base_example])
@given(batch=st.lists(OPERATIONS, min_size=20, max_size=60))
def fuzz_batches(fuzz_client, batch):
    table = FuzzedTable(fuzz_client)
    for op in batch:
        path, response = table.send(op)
        TALLY[response.status_code] += 1
        check_answer(path, response)
    table.check_invariants()


def test_no_input_makes_a_server_error_or_breaks_the_game(fuzz_client):
    TALLY.clear()
    fuzz_batches(fuzz_client)  # Hypothesis runs every batch it draws
    # ...and the batches were not all refusals: actions were taken, refused and forbidden.
    assert sum(TALLY.values()) >= 1000, TALLY
    assert {200, 400, 403, 422} <= set(TALLY), TALLY


@pytest.mark.parametrize("body", [
    {"type": {"x": 1}}, {"type": ["level"]}, Deep(1000, '{"type": "level"}'), {"type": Deep(1000)},
    {"type": "offer", "to": [2]}, {"type": "offer", "to": 2, "items": [[1]]},
    {"type": "end_turn", "player": 1, "bigger_share": 3}, {"type": "rename", "player": 1, "name": "\ud800"},
    {"type": "add_house_card", "card": {"kind": "item", "name": "Sw\udc00rd"}},
])
def test_the_attacks_that_made_500s_get_a_clear_400(fuzz_client, body):
    table = FuzzedTable(fuzz_client)
    path, response = table.send(("action", "host", body))
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    assert response.get_json()["error"]["message"]
    table.check_invariants()
