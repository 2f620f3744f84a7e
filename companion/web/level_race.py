"""The level race: each player's level over the game, as the geometry of an SVG drawn on the
server (templates/_level_race.html), from the timeline the event log gives (``timeline``).

The x axis is the game's counted changes in order (start at the left, now at the right), the y
axis levels 1 to 10. A level moves as a step: flat until the change that moved it. Lines of
players at the same level are drawn a few pixels apart so none hides another; each line ends
in its player's name and level, so colour is never the only way to tell them apart.
"""

from __future__ import annotations

from companion.engine.core import MAX_LEVEL

from .timeline import Timeline, levels_over_time

SERIES_STYLES = 8  # race-0 .. race-7 in static/table.css: a colour and a dash pattern each
LABEL_GAP = 15  # px between two end labels
SPREAD = 3  # px between two lines on the same level


def _spread(wanted: list[float], low: float, high: float, gap: float) -> list[float]:
    """Label positions as near as possible to ``wanted`` (sorted), at least ``gap`` apart and
    within [low, high]."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, placed[-1] + gap) if placed else max(y, low))
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:  # pushed past the bottom: move the whole stack up, keeping the gaps
        placed = [y - overflow for y in placed]
    return placed


def chart(timeline: Timeline, *, width: int = 640, height: int = 260,
          winners: list[int] = ()) -> dict:
    """What the template draws: the plot area, the level grid, and one series per player
    (``points`` for a polyline, the end point, the end label's position, the level history
    in words)."""
    left, right, top, bottom = 30, 110, 12, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    steps = max(len(timeline.steps), 1)

    def x(step: int) -> float:
        return round(left + plot_w * step / steps, 1)

    def y(level: int) -> float:
        return round(top + plot_h * (MAX_LEVEL - level) / (MAX_LEVEL - 1), 1)

    names = timeline.players()
    series = []
    history = levels_over_time(timeline)
    for index, (pid, points) in enumerate(history.items()):
        offset = (index - (len(history) - 1) / 2) * SPREAD
        vertices = [(points[0][0], points[0][1])]
        for step, level in points[1:]:
            if level != vertices[-1][1]:
                vertices.append((step, vertices[-1][1]))  # flat until the change ...
                vertices.append((step, level))  # ... then up or down
        last_step, last_level = points[-1]
        if vertices[-1] != (last_step, last_level):
            vertices.append((last_step, last_level))
        levels = [points[0][1]]
        for _step, level in points[1:]:
            if level != levels[-1]:
                levels.append(level)
        end = (x(last_step), round(y(last_level) + offset, 1))
        series.append({
            "player": pid, "name": names[pid], "style": f"race-{index % SERIES_STYLES}",
            "points": " ".join(f"{x(s)},{round(y(lv) + offset, 1)}" for s, lv in vertices),
            "end": end, "level": last_level, "levels": levels, "peak": max(levels),
            "winner": pid in winners, "gone": last_step < len(timeline.steps),  # left the table
        })
    order = sorted(range(len(series)), key=lambda i: series[i]["end"][1])
    placed = _spread([series[i]["end"][1] + 4 for i in order], top + 4, height - bottom + 4, LABEL_GAP)
    for i, label_y in zip(order, placed):
        series[i]["label"] = (round(series[i]["end"][0] + 8, 1), round(label_y, 1))
    return {
        "width": width, "height": height, "steps": len(timeline.steps),
        "plot": {"left": left, "top": top, "right": left + plot_w, "bottom": top + plot_h},
        "grid": [{"level": level, "y": y(level), "label_y": y(level) + 4, "win": level == MAX_LEVEL}
                 for level in range(1, MAX_LEVEL + 1)],
        "axis_y": top + plot_h + 18, "label_x": left - 8,
        "series": series,
    }
