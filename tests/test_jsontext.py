"""What the server writes as JSON on every tap (companion.jsontext): fast, and nothing the
standard library wrote is refused."""

import json

from companion import jsontext


def test_a_state_reads_back_as_it_was_written():
    state = {"players": [{"id": 1, "name": "Ann", "level": 3, "alive": True, "cards": []}],
             "combat": None, "ratio": 0.5, "names": {"ru": "Аня"}}
    assert jsontext.loads(jsontext.dumps(state)) == state
    assert json.loads(jsontext.dumps(state)) == state  # the standard library reads it too


def test_what_orjson_refuses_is_written_by_the_standard_library():
    huge, lone = 2 ** 70, "Sw\udc00rd"  # only a hostile request sends these
    assert json.loads(jsontext.dumps({"n": huge})) == {"n": huge}
    assert jsontext.loads(jsontext.dumps({"name": lone})) == {"name": lone}


def test_keys_that_are_not_strings_are_written_as_strings_as_json_has_them():
    assert jsontext.loads(jsontext.dumps({1: "a"})) == {"1": "a"}
