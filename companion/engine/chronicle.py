"""The game's chronicle: figures that grow with the game (the level race, the summary's counts),
kept as data in the state and updated at each change, so reading them never replays the log.

``record(before, after, happened)`` is called by the store for every change that counts (not
for an undo: the undo's reverse patch restores the chronicle as it was, so an undone change is
left out exactly as the replay of the log leaves it out). Its shape, in ``state["chronicle"]``::

    {"steps": 42,                       # changes that count so far (step 0 is the start)
     "players": [                       # everyone who sat at the table, in order of arrival
       {"id": 1, "name": "Ann",         # the latest name (while seated)
        "levels": [[1, 1], [7, 3]],     # (step, level): on arrival, then only where it changed
        "until": null,                  # the last step seated, once the player left
        "kills": 2, "helped": 0, "deaths": 1, "curses": 0}]}

A game created before the chronicle has no ``chronicle`` key (``new_game`` writes an empty
one): ``record`` leaves it without one, and its readers replay the log (``web/timeline.py``),
since a chronicle begun in the middle of a game would miss what came before.

Pathological games stay bounded (a real one stays far below both caps): past ``MAX_POINTS``
level changes a player's line is thinned (every other change dropped, the first and the latest
kept), and past ``MAX_DEPARTED`` players who left, the one who left first is forgotten.
"""

from __future__ import annotations

from .public import combat_view

MAX_POINTS = 200  # level changes kept per player; an 800 px chart shows no more
MAX_DEPARTED = 20  # players who left, kept for the race and the summary


def of(state: dict) -> dict | None:
    """The state's chronicle, or None for a game stored before it (replay its log instead)."""
    return state.get("chronicle")


def record(before: dict, after: dict, happened: dict) -> None:
    """Update ``after["chronicle"]`` for the change from ``before`` to ``after``."""
    old = before.get("chronicle")
    if old is None:  # a game from before the chronicle: its log is replayed
        return
    step = old["steps"] + 1
    # A fresh copy: ``after`` may share the chronicle with ``before``, which stays as it was.
    players = [dict(p, levels=list(p["levels"])) for p in old["players"]]
    known = {p["id"]: p for p in players}
    was_dead = {p["id"]: bool(p.get("dead")) for p in before.get("players", [])}
    for seat in after.get("players", []):
        pid, level = seat["id"], int(seat.get("level") or 1)
        entry = known.get(pid)
        if entry is None:
            entry = known[pid] = {"id": pid, "name": seat["name"], "levels": [[step, level]],
                                  "until": None, "kills": 0, "helped": 0, "deaths": 0, "curses": 0}
            players.append(entry)
        else:
            entry["name"], entry["until"] = seat["name"], None
            if entry["levels"][-1][1] != level:
                entry["levels"].append([step, level])
                if len(entry["levels"]) > MAX_POINTS:
                    entry["levels"] = _thinned(entry["levels"])
        # A death is a player turning dead, by the Die button or by Bad Stuff alike.
        if seat.get("dead") and not was_dead.get(pid):
            entry["deaths"] += 1
    seated = {seat["id"] for seat in after.get("players", [])}
    for entry in players:
        if entry["until"] is None and entry["id"] not in seated:
            entry["until"] = step - 1  # left: the last step they sat at the table
    _count(happened, after, known)
    departed = sorted((p for p in players if p["until"] is not None), key=lambda p: p["until"])
    forgotten = {id(p) for p in departed[:max(0, len(departed) - MAX_DEPARTED)]}
    after["chronicle"] = {"steps": step, "players": [p for p in players if id(p) not in forgotten]}


def _count(happened: dict, after: dict, known: dict[int, dict]) -> None:
    kind, target = happened.get("kind"), happened.get("player")
    if kind == "fight_won" and target in known:
        killed, helper = won_fight(after)
        known[target]["kills"] += killed
        if helper in known:
            known[helper]["helped"] += 1
    elif kind == "curse" and target in known:
        known[target]["curses"] += 1


def won_fight(state: dict) -> tuple[int, int | None]:
    """Monsters killed and the helper, in the table right after a won fight."""
    if not state.get("combat"):
        return 0, None
    view = combat_view(state, helpers=False)
    killed = sum(1 for monster in view["monsters"] if not monster["gone"])
    return killed, view["helper"] if view["helper_counts"] else None


def _thinned(points: list) -> list:
    """Every other change dropped, the first and the latest kept, no two same levels in a row."""
    kept = [points[0]] + points[1:-1][1::2] + [points[-1]]
    out = [kept[0]]
    for point in kept[1:]:
        if point[1] != out[-1][1]:
            out.append(point)
    return out


def levels(chronicle: dict) -> list[dict]:
    """Each player's line, in order of arrival: ``{"player", "name", "points": [(step, level)
    at arrival and at each change], "until": the last step seated (``steps`` while seated)}``."""
    return [{"player": p["id"], "name": p["name"],
             "points": [(s, lv) for s, lv in p["levels"]],
             "until": chronicle["steps"] if p["until"] is None else p["until"]}
            for p in chronicle["players"]]


def tallies(chronicle: dict, state: dict) -> list[dict]:
    """Per player, in order of arrival: monsters killed, fights won as the helper, deals in
    the ledger, deaths and curses received, and the level now (or when they left)."""
    sexes = {p["id"]: p.get("sex") for p in (*state["players"], *(state.get("left") or ()))}
    rows = {p["id"]: {"player": p["id"], "name": p["name"], "sex": sexes.get(p["id"]), "kills": p["kills"],
                      "helped": p["helped"], "deals": 0, "deaths": p["deaths"],
                      "curses": p["curses"], "level": p["levels"][-1][1],
                      "seated": p["until"] is None, "winner": p["id"] in state["winners"]}
            for p in chronicle["players"]}
    for deal in state.get("ledger", []):
        for pid in {deal.get("fighter"), deal.get("helper")}:
            if pid in rows:
                rows[pid]["deals"] += 1
    return list(rows.values())
