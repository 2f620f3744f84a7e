"""The game as it went, replayed from the store's event log: for games stored before the
chronicle only (``engine.chronicle`` keeps the level race and the summary's counts at each
change; a game without one is replayed here, at a cost that grows with its log).

Every change that still counts and the table right after it are read back from the log.

Each event row keeps a reverse JSON Patch from the state after it to the state before it (what
undo applies). Walking those patches back from the current state gives the table after every
version exactly as it was, without running any rule again. Undo is a strict stack, so the
changes that count are what is left on that stack: an undo takes the latest counted change
off it, and neither the undone change nor the undo itself is drawn or counted.

The level race (``level_race``) and the end-of-game summary (``table_screen``) of such a game
are made from this; the tests use it as the oracle the chronicle must agree with.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import jsonpatch
import jsonpointer

from companion.engine.chronicle import won_fight
from companion.engine.undo import NOT_UNDONE, restore
from companion.store import Store


@dataclass(frozen=True)
class Seat:
    """One player's facts after a change."""

    name: str
    level: int
    dead: bool


@dataclass(frozen=True)
class Step:
    """A change that counts, and the table after it (players in seat order)."""

    version: int
    event: dict
    players: dict[int, Seat]
    killed: int = 0  # monsters killed, for a won fight
    helper: int | None = None  # who helped win it


@dataclass
class Timeline:
    start: dict[int, Seat]  # the table before the first counted change (usually nobody)
    steps: list[Step] = field(default_factory=list)

    def players(self) -> dict[int, str]:
        """Everyone who sat at the table at some point, in order of arrival, by latest name."""
        names: dict[int, str] = {}
        for seats in [self.start] + [s.players for s in self.steps]:
            for pid, seat in seats.items():
                names[pid] = seat.name
        return names


def _seats(doc: dict) -> dict[int, Seat]:
    return {p["id"]: Seat(p["name"], int(p.get("level") or 1), bool(p.get("dead")))
            for p in doc.get("players", [])}


def replay(state: dict, rows: list[tuple[int, str, dict, dict | list]]) -> Timeline:
    """The timeline from the current ``state`` and its event rows ``(version, kind, event,
    reverse patch)`` in version order. Rows after the state's version are ignored (written
    after it was read); if a patch no longer applies (a damaged row), the timeline starts at
    the earliest table that could be rebuilt."""
    rows = [row for row in rows if row[0] <= state["version"]]
    doc = copy.deepcopy({k: v for k, v in state.items() if k not in NOT_UNDONE})
    after: dict[int, tuple[dict[int, Seat], int, int | None]] = {}
    expected = state["version"]
    for version, kind, happened, stored in reversed(rows):
        if version != expected:  # a gap in the log: what came before cannot be rebuilt
            break
        killed, helper = won_fight(doc) if happened.get("kind") == "fight_won" else (0, None)
        after[version] = (_seats(doc), killed, helper)
        try:
            doc = restore(doc, stored, in_place=True)  # the walk owns doc
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, KeyError,
                IndexError, TypeError):
            break
        expected -= 1
    rebuilt_from = expected  # the table after this version is the start of the timeline
    start = _seats(doc) if rebuilt_from not in after else after[rebuilt_from][0]

    stack: list[tuple[int, dict]] = []
    for version, kind, happened, _stored in rows:
        if kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append((version, happened))
    steps = [Step(version, happened, *after[version]) for version, happened in stack
             if version in after and version > rebuilt_from]
    return Timeline(start=start, steps=steps)


def read(the_store: Store, code: str) -> tuple[dict, Timeline]:
    """The game's current state and its timeline."""
    state, rows = the_store.with_undo_log(code)  # a NotFound for an unknown code
    return state, replay(state, rows)


def levels_over_time(timeline: Timeline) -> dict[int, list[tuple[int, int]]]:
    """Each player's level at each step where it is known: ``{pid: [(step, level), ...]}``,
    step 0 being the start and step n the table after the n-th counted change."""
    series: dict[int, list[tuple[int, int]]] = {}
    for index, seats in enumerate([timeline.start] + [s.players for s in timeline.steps]):
        for pid, seat in seats.items():
            series.setdefault(pid, []).append((index, seat.level))
    return series


def tallies(timeline: Timeline, state: dict) -> list[dict]:
    """Per player, in order of arrival: monsters killed, fights won as the helper, deals in
    the ledger, deaths and curses received, and the level now (or when they left)."""
    names = timeline.players()
    sexes = {p["id"]: p.get("sex") for p in (*state["players"], *(state.get("left") or ()))}
    rows = {pid: {"player": pid, "name": name, "sex": sexes.get(pid), "kills": 0, "helped": 0, "deals": 0, "deaths": 0,
                  "curses": 0, "level": 1, "seated": False, "winner": pid in state["winners"]}
            for pid, name in names.items()}
    before = timeline.start
    for step in timeline.steps:
        kind, target = step.event.get("kind"), step.event.get("player")
        if kind == "fight_won" and target in rows:
            rows[target]["kills"] += step.killed
            if step.helper in rows:
                rows[step.helper]["helped"] += 1
        elif kind == "curse" and target in rows:
            rows[target]["curses"] += 1
        for pid, seat in step.players.items():
            # A death is a player turning dead, by the Die button or by Bad Stuff alike.
            if seat.dead and not (before.get(pid) and before[pid].dead):
                rows[pid]["deaths"] += 1
        before = step.players
    for deal in state.get("ledger", []):
        for pid in {deal.get("fighter"), deal.get("helper")}:
            if pid in rows:
                rows[pid]["deals"] += 1
    for pid, seat in before.items():
        rows[pid]["level"] = seat.level
        rows[pid]["seated"] = True
    for seats in [timeline.start] + [s.players for s in timeline.steps]:  # who left: last level
        for pid, seat in seats.items():
            if not rows[pid]["seated"]:
                rows[pid]["level"] = seat.level
    return list(rows.values())
