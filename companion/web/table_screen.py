"""What the table screen (a laptop or TV in the middle of the table) and the end-of-game summary
show, computed here so their templates only lay it out: the players, the fight's two totals and
who leads by how much, the last log lines, the level race and the counts of the game.

The race and the counts come from the game's chronicle (``engine.chronicle``), kept at each
change: they cost the same at the 5,000th change as at the first."""

from __future__ import annotations

from companion.engine import chronicle
from companion.engine.rules import winning_level

from . import level_race, timeline, words
from .games import store

LOG_LINES = 6  # the last lines of the log on the table screen, newest first


def fight_board(combat: dict | None) -> dict | None:
    """The public fight (``engine.public.combat_view``) reduced to what reads from two metres:
    the two totals, the side that wins as things stand, by how much, and what the players
    still need."""
    if not combat:
        return None
    players, monsters = combat["players_strength"], combat["monsters_strength"]
    return {"players": players, "monsters": monsters,
            "leader": "players" if combat["winning"] else "monsters",
            "by": abs(players - monsters), "tie": players == monsters,
            "needed": combat["needed"], "stage": combat["stage"]}


def story(code: str) -> tuple[dict, level_race.Race, list[dict]]:
    """The game's stored state, its level race and its counts (``chronicle.tallies``)."""
    stored = store().load(code)  # a NotFound for an unknown code
    chronicled = chronicle.of(stored)
    if chronicled is None:  # a game stored before the chronicle: replay its log, as it was drawn
        stored, replayed = timeline.read(store(), code)
        return stored, level_race.from_timeline(replayed), timeline.tallies(replayed, stored)
    return stored, level_race.from_chronicle(chronicled), chronicle.tallies(chronicled, stored)


def table_context(code: str) -> dict:
    stored, race, _rows = story(code)
    state = words.public_state(stored)
    return {"state": state, "fight": fight_board(state["combat"]),
            "recent": list(reversed(state["log"][-LOG_LINES:])),
            # At the end the race is the story of the evening: drawn taller, the board compact.
            "race": level_race.chart(race, winners=stored["winners"], width=800,
                                      height=400 if stored["winners"] else 230,
                                      winning_level=winning_level(stored)),
            "names": {p["id"]: p["name"] for p in state["players"]}}


def summary_context(code: str) -> dict:
    stored, race, rows = story(code)
    state = words.public_state(stored)
    names = {row["player"]: row["name"] for row in rows}
    return {"state": state, "rows": rows, "steps": race.steps,
            "winner_names": [names.get(pid, "?") for pid in stored["winners"]],
            "winner_sex": words.sex_of(stored["winners"], {p["id"]: p for p in (*stored["players"], *(stored.get("left") or ()))}),
            "race": level_race.chart(race, winners=stored["winners"], width=720, height=300,
                                      winning_level=winning_level(stored))}
