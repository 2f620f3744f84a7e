"""A refusal on a page names a field by its form's label ("Name"), never by its key; the API,
whose client sent the key, keeps it."""

from __future__ import annotations

from .helpers import ApiTable


def test_a_page_names_the_field_by_its_label_and_the_api_by_its_key(client):
    table = ApiTable(client)
    table.join("Ann", "female")
    ann = table.ids["Ann"]
    client.set_cookie(f"seat_{table.code}", table.tokens["Ann"])
    client.set_cookie("lang", "de")
    page = client.post(f"/games/{table.code}/act", data={"type": "rename", "player": str(ann), "name": ""},
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "&#39;Name&#39; fehlt" in page and "&#39;name&#39;" not in page
    api = table.request("POST", "actions", "Ann", json={"type": "rename", "player": ann},
                        headers={"Accept-Language": "de"}).get_json()
    assert "'name'" in api["error"]["message"]
