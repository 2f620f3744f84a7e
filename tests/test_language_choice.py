"""The language a player chose: ``?lang=`` is remembered, ``<html lang>`` and every
page's ``<title>`` follow it, set ids and edition names are said in it, and so is the refusal
of an API call without a valid seat token."""

from __future__ import annotations

import re

import pytest

from companion.web.languages import LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != "en"]


def _title(page: str) -> str:
    return re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip()


def _html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def test_a_lang_query_is_remembered_for_the_next_page(client):
    first = client.get("/?lang=de")
    assert _html_lang(first.get_data(as_text=True)) == "de"
    assert "lang=de" in first.headers.get("Set-Cookie", "")
    following = client.get("/rules").get_data(as_text=True)  # a link without ?lang=
    assert _html_lang(following) == "de"
    back = client.get("/?lang=en").get_data(as_text=True)
    assert _html_lang(back) == "en" and _html_lang(client.get("/rules").get_data(as_text=True)) == "en"


def test_an_unknown_lang_is_not_remembered(client):
    response = client.get("/?lang=xx")
    assert "lang=" not in response.headers.get("Set-Cookie", "")


def test_the_same_language_is_not_set_again(client):
    client.set_cookie("lang", "fr")
    assert "Set-Cookie" not in client.get("/?lang=fr").headers or \
        "lang=" not in client.get("/?lang=fr").headers.get("Set-Cookie", "")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_html_lang_and_titles_follow_the_language(client, table, lang):
    table.join("Ann", "female")
    english_titles = {}
    for path in ("/", f"/games/{table.code}/table", f"/games/{table.code}/summary",
                 f"/join/{table.code}", "/cards", "/cards/classic/dwarf", "/rules",
                 "/rules/charity", "/calculator"):
        en = client.get(path, headers={"Cookie": "lang=en"})
        english_titles[path] = _title(en.get_data(as_text=True))
    client.set_cookie("lang", lang)
    for path, english in english_titles.items():
        page = client.get(path).get_data(as_text=True)
        assert _html_lang(page) == lang.replace("_", "-"), path
        title = _title(page)
        assert title != english, (path, title)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_set_ids_are_shown_as_edition_names_in_the_readers_language(client, lang):
    client.set_cookie("lang", lang)
    page = client.get("/cards/classic/dwarf").get_data(as_text=True)
    facts = re.search(r"<dd>([^<]*)</dd>", page[page.index("<dl"):]).group(1)
    assert facts != "classic"
    lookup = client.get("/cards?q=dwarf").get_data(as_text=True)
    assert ">classic<" not in lookup and "· classic<" not in lookup
    assert not re.search(r"<option value=\"(classic|oz|russia|tails|spell-skool)\"[^>]*>\1<", lookup)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_bad_bearer_header_is_refused_in_the_askers_language(client, table, lang):
    table.join("Ann")
    for header in ("Bearer nonsense", "Bearer ", "Basic abc"):
        refused = table.request("POST", "actions",
                                headers={"Authorization": header, "Accept-Language": lang.replace("_", "-")},
                                json={"type": "level", "player": table.ids["Ann"], "delta": 1})
        assert refused.status_code == 403
        message = refused.get_json()["error"]["message"]
        assert "Authorization: Bearer" in message and "Send your seat token" not in message, message


def test_the_api_keeps_no_language_cookie(client):
    assert "Set-Cookie" not in client.get("/api/rules?lang=de").headers
