"""What the browser tests share beyond fixtures (those, and ``shot``, are in conftest.py): the
one driver of a game set up through the JSON API before the phones look at it, the games
several tests start from, and steps a phone takes on many screens."""

from __future__ import annotations

from pathlib import Path

import requests
from playwright.sync_api import expect

AXE = next((Path(__file__).resolve().parents[1] / "vendor").glob("axe-core-*/axe.min.js"))
BLOCKING = ("serious", "critical")  # axe-core's impacts a page may not have


class Table:
    """A game created and seated through the JSON API over HTTP (the UI under test starts later).

    ``Table(server, "tails", winning_level=20)`` creates it (any other field of the body as a
    keyword). ``table.seat("Ann", "female", *cards, level=3)`` seats a player, plays her cards
    and sets her level, and answers her id; ``table.ids`` maps names to ids, ``table.tokens``
    ids to seat tokens. ``table.act(pid, action)`` sends an action with that seat's token
    (``None``: the host's) and answers the state; ``table.state()`` is the public state.

    A phone is let in by cookies, as a join or a new game would have set them:
    ``table.let_in(context, pid, host=True)`` gives a browser context that seat's cookie (and
    the host's), ``table.open(page, pid, path)`` lets the page in and opens the game (or path).
    """

    def __init__(self, server, edition: str = "classic", **fields):
        self.server = server
        answer = requests.post(f"{server.url}/api/games", json={"edition": edition, **fields}, timeout=10)
        answer.raise_for_status()
        self.code = answer.json()["code"]
        self.host_token = answer.json()["host_token"]
        self.tokens: dict[int, str] = {}
        self.ids: dict[str, int] = {}

    def seat(self, name: str, sex: str = "male", *cards, level: int = 1) -> int:
        answer = requests.post(f"{self.server.url}/api/games/{self.code}/players",
                               json={"name": name, "sex": sex}, timeout=10)
        answer.raise_for_status()
        pid, self.tokens[answer.json()["player_id"]] = answer.json()["player_id"], answer.json()["token"]
        self.ids[name] = pid
        for card in cards:
            self.act(pid, {"type": "play", "player": pid, "card": card})
        if level > 1:
            self.act(pid, {"type": "level", "player": pid, "delta": level - 1, "source": "adjust"})
        return pid

    def act(self, pid: int | None, action: dict) -> dict:
        token = self.tokens[pid] if pid is not None else self.host_token
        answer = requests.post(f"{self.server.url}/api/games/{self.code}/actions", json=action,
                               headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()["state"]

    def state(self) -> dict:
        return requests.get(f"{self.server.url}/api/games/{self.code}", timeout=10).json()

    def let_in(self, context, pid: int, host: bool = False) -> None:
        """This phone (a browser context) sits in ``pid``'s seat, and holds the host's key too
        with ``host``."""
        cookies = [{"name": f"seat_{self.code}", "value": self.tokens[pid], "url": self.server.url}]
        if host:
            cookies.append({"name": f"host_{self.code}", "value": self.host_token, "url": self.server.url})
        context.add_cookies(cookies)

    def open(self, page, pid: int, path: str = "") -> None:
        """This phone sits in ``pid``'s seat and opens the game (or ``path``)."""
        self.let_in(page.context, pid)
        page.goto(f"{self.server.url}{path or '/games/' + self.code}")


def ann_and_bob(server, fight: bool = True) -> Table:
    """A classic game with Ann (female, seated first: her turn) and Bob; with ``fight``, Ann, an
    Elf with a Sword of Song (+3), fights a level 20 Plutonium Dragon, and is losing."""
    table = Table(server)
    ann = table.seat("Ann", "female")
    table.seat("Bob")
    if fight:
        table.act(ann, {"type": "play", "player": ann,
                        "card": {"kind": "item", "name": "Sword of Song", "bonus": 3, "slot": "1-hand", "gold": 400}})
        table.act(ann, {"type": "play", "player": ann, "card": "classic/elf"})
        table.act(ann, {"type": "fight", "player": ann,
                        "monster": {"kind": "monster", "name": "Plutonium Dragon", "level": 20, "treasures": 5}})
    return table


def won(table: Table, pid: int) -> None:
    """The player reaches level 10 the only way the rules allow: by killing a monster."""
    table.act(pid, {"type": "level", "player": pid, "delta": 8, "source": "adjust"})
    table.act(pid, {"type": "fight", "player": pid, "monster": {"kind": "monster", "name": "Slug", "level": 1}})
    table.act(pid, {"type": "resolve"})


def tab(page, name: str) -> None:
    """Open the game's tab ``name`` from the tab bar, and wait until the page shows it."""
    page.locator(f'.tabbar a[data-tab="{name}"]').click()
    expect(page.locator("#game")).to_have_attribute("data-tab", name)


def item_row(page, name: str):
    """The row of the item ``name`` on the phone's sheet."""
    return page.locator(f'#items li[data-iid]:has(strong:text-is("{name}"))')


def violations(page) -> list[dict]:
    """What axe-core finds wrong on the page as it stands: each rule broken, with its impact
    and the elements that break it (the page's CSP must be bypassed to inject axe)."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => {
      const result = await axe.run(document, {resultTypes: ["violations"]});
      return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                          targets: v.nodes.map(n => n.target.join(" "))}));
    }""")
