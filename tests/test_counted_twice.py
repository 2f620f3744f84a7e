"""One kill, two phones: Ann taps +1 on hers and the host taps +1 for her on his before either
page has caught up. The second tap was drawn from a level that changed since on another phone:
it is not counted, and the phone says why; tapped again on the page as it is now, it counts.
A phone's own quick second tap (both taps its own) counts as it always did."""

from __future__ import annotations

import html
import re

from .helpers import ApiTable

LEVEL_UP = re.compile(r'<form[^>]*>(?:(?!</form>).)*?name="delta" value="1".*?</form>', re.S)
FIELD = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def phone_of(client, table, who):
    phone = client.application.test_client()
    phone.set_cookie(f"seat_{table.code}", table.tokens[who])
    return phone


def level_up_form(phone, table) -> dict:
    """The +1 level button's form as the page drew it."""
    page = phone.get(f"/games/{table.code}").get_data(as_text=True)
    return dict(FIELD.findall(LEVEL_UP.search(page).group(0)))


def tap(phone, table, form) -> tuple[int, str]:
    answer = phone.post(f"/games/{table.code}/act", data=form, headers={"HX-Request": "true"})
    return answer.status_code, html.unescape(answer.get_data(as_text=True))


def level_of(table, name) -> int:
    return next(p["level"] for p in table.state()["players"] if p["name"] == name)


def test_a_level_tap_drawn_before_another_phones_change_is_not_counted_twice(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    table.join("Bob")
    ann = phone_of(client, table, "Ann")
    drawn = level_up_form(ann, table)
    # Meanwhile the host counts Ann's kill from his phone.
    table.act("host", {"type": "level", "player": table.ids["Ann"], "delta": 1, "source": "adjust"})
    status, said = tap(ann, table, drawn)
    assert status == 409 and "Ann's level changed on another phone meanwhile: it is 2 now." in said
    assert level_of(table, "Ann") == 2
    # Her page as it is now: the tap counts.
    assert tap(ann, table, level_up_form(ann, table))[0] == 200
    assert level_of(table, "Ann") == 3


def test_a_phones_own_quick_second_tap_counts(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    ann = phone_of(client, table, "Ann")
    drawn = level_up_form(ann, table)
    assert tap(ann, table, drawn)[0] == 200
    assert tap(ann, table, drawn)[0] == 200  # sent before its page showed the first
    assert level_of(table, "Ann") == 3
