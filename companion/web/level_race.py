"""The level race: each player's level over the game, as the geometry of an SVG drawn on the
server (templates/_level_race.html), from the game's chronicle (``engine.chronicle``, kept up
to date at each change) or, for a game stored before it, from its replayed log (``timeline``).

The x axis is the game's counted changes in order (start at the left, now at the right), the y
axis levels 1 to 10. A level moves as a step: flat until the change that moved it. Lines of
players at the same level are drawn a few pixels apart so none hides another; each line ends
in its player's name and level, so colour is never the only way to tell them apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import chronicle
from companion.engine.core import MAX_LEVEL

from .timeline import Timeline, levels_over_time

SERIES_STYLES = 8  # race-0 .. race-7 in static/table.css: a colour and a dash pattern each
LABEL_GAP = 15  # px between two end labels
SPREAD = 3  # px between two lines on the same level


def _spread(wanted: list[float], low: float, high: float, gap: float) -> list[float]:
    """Label positions as near as possible to ``wanted`` (sorted), at least ``gap`` apart and
    within [low, high]."""
    placed: list[float] = []
    for y in wanted:  # down the chart: each label below the one above
        placed.append(max(y, placed[-1] + gap) if placed else max(y, low))
    # Up from the bottom, only those pushed past it and as far as needed: the leader's label
    # stays at its level (moving the whole stack up put "Bob 6" at the 7 line).
    limit = high
    for i in range(len(placed) - 1, -1, -1):
        placed[i] = min(placed[i], limit)
        limit = placed[i] - gap
    return placed


@dataclass(frozen=True)
class Race:
    """What the race is drawn from: the counted changes, and each player's line in order of
    arrival (``chronicle.levels``: ``player``, ``name``, ``points`` (step, level) on arrival and
    at least wherever the level changed, ``until`` the last step seated)."""

    steps: int
    lines: list[dict]


def from_chronicle(chronicled: dict) -> Race:
    return Race(chronicled["steps"], chronicle.levels(chronicled))


def from_timeline(timeline: Timeline) -> Race:
    """The race of a replayed log (a game stored before the chronicle): every step a point."""
    names = timeline.players()
    return Race(len(timeline.steps), [{"player": pid, "name": names[pid], "points": points,
                                       "until": points[-1][0]}
                                      for pid, points in levels_over_time(timeline).items()])


def chart(race: Race, *, width: int = 640, height: int = 260, winners: list[int] = (),
          winning_level: int = MAX_LEVEL) -> dict:
    """What the template draws: the plot area, the level grid up to the table's winning level,
    and one series per player (``points`` for a polyline, the end point, the end label's
    position, the level history in words)."""
    total, lines = race.steps, race.lines
    left, right, top, bottom = 30, 110, 12, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    steps = max(total, 1)

    def x(step: int) -> float:
        return round(left + plot_w * step / steps, 1)

    def y(level: int) -> float:
        return round(top + plot_h * (winning_level - level) / (winning_level - 1), 1)

    # Each step's x and each line's y written once: a level change puts two vertices on one
    # step, and writing floats was most of a long game's chart (1,100 vertices: 4.5-5.5 ms, half
    # its summary page; 2.6-3.6 ms so).
    x_texts: dict[int, str] = {}

    def x_text(step: int) -> str:
        text = x_texts.get(step)
        if text is None:
            text = x_texts[step] = str(x(step))
        return text

    series = []
    for index, line in enumerate(lines):
        points = line["points"]
        offset = (index - (len(lines) - 1) / 2) * SPREAD
        vertices = [(points[0][0], points[0][1])]
        for step, level in points[1:]:
            if level != vertices[-1][1]:
                vertices.append((step, vertices[-1][1]))  # flat until the change ...
                vertices.append((step, level))  # ... then up or down
        last_step, last_level = line["until"], vertices[-1][1]
        if vertices[-1] != (last_step, last_level):
            vertices.append((last_step, last_level))
        levels = [points[0][1]]
        for _step, level in points[1:]:
            if level != levels[-1]:
                levels.append(level)
        drawn_y = {level: round(y(level) + offset, 1) for level in {lv for _s, lv in vertices}}
        y_texts = {level: str(value) for level, value in drawn_y.items()}
        end = (x(last_step), drawn_y[last_level])
        series.append({
            "player": line["player"], "name": line["name"], "style": f"race-{index % SERIES_STYLES}",
            "points": " ".join([f"{x_text(s)},{y_texts[lv]}" for s, lv in vertices]),
            "end": end, "level": last_level, "levels": levels, "peak": max(levels),
            "winner": line["player"] in winners, "gone": last_step < total,  # left the table
        })
    order = sorted(range(len(series)), key=lambda i: series[i]["end"][1])
    placed = _spread([series[i]["end"][1] + 4 for i in order], top + 4, height - bottom + 4, LABEL_GAP)
    for i, label_y in zip(order, placed):
        series[i]["label"] = (round(series[i]["end"][0] + 8, 1), round(label_y, 1))
    return {
        "width": width, "height": height, "steps": total,
        "plot": {"left": left, "top": top, "right": left + plot_w, "bottom": top + plot_h},
        "grid": [{"level": level, "y": y(level), "label_y": y(level) + 4, "win": level == winning_level}
                 for level in range(1, winning_level + 1)],
        "axis_y": top + plot_h + 18, "label_x": left - 8,
        "series": series,
    }
