"""The season chart: each entrant's running total, night by night, as plain SVG geometry.

Pure Python, no Django. The page template draws the SVG from :class:`Chart`; no JavaScript.

- *night column*: one x position per night of the snapshot's ``nights`` list, after a starting
  column where everyone is at 0 (so a season of one night still draws a line).
- *running total*: the entrant's wins (or points) added up over the nights so far. A night the
  entrant missed adds nothing, so its line stays flat there.
- *series*: one entrant's line, drawn as one SVG ``<path>``. Lines are nudged apart by
  :data:`DODGE` units (the first one highest) so equal totals do not hide each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 48, 14, 14, 44
"""The plot area's margins in SVG units: room for the y ticks on the left, dates below."""
DODGE = 3
"""SVG units between lines that run together, so a line under another stays visible."""
MAX_SERIES = 8
"""More lines than this turn into a tangle; the chart shows the top of the standings."""
PALETTE = (
    "#0b4f9c",
    "#9c3d00",
    "#1d6b2f",
    "#6a3d9a",
    "#a4161a",
    "#00727a",
    "#7a5c00",
    "#4d4d4d",
)
"""Eight colours that stay apart for common colour blindness and on a projector (Tableau-like)."""

Measure = Literal["wins", "points"]


@dataclass(frozen=True)
class Series:
    entrant: int
    name: str
    colour: str
    path: str
    total: int | float
    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Chart:
    measure: Measure
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    hidden: int
    """How many entrants are left out (beyond :data:`MAX_SERIES`)."""

    @property
    def description(self) -> str:
        """The chart in words, for screen readers."""
        word = "wins" if self.measure == "wins" else "points"
        parts = [f"{line.name} {_plain(line.total)}" for line in self.series]
        return f"Running total of {word} after each night: " + ", ".join(parts) + "."


def _plain(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 2)


def _step(top: float) -> int:
    """A round tick step giving at most about five ticks up to ``top``."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= 5:
            return step
    return 10000


def season_chart(
    nights: Sequence[Mapping[str, Any]],
    *,
    order: Sequence[int],
    names: Mapping[int, str],
    night_labels: Mapping[int, str],
    measure: Measure = "wins",
    limit: int = MAX_SERIES,
) -> Chart | None:
    """The chart of the snapshot's ``nights`` for the entrants in ``order`` (the standings' order).

    Returns ``None`` when there is no night to draw.
    """
    if not nights:
        return None
    shown = [entrant for entrant in order][:limit]
    totals: dict[int, list[float]] = {entrant: [0.0] for entrant in shown}
    for night in nights:
        lines = night["entrants"]
        for entrant in shown:
            line = lines.get(str(entrant))
            gained = line[measure] if line else 0
            totals[entrant].append(totals[entrant][-1] + gained)
    highest = max((max(values) for values in totals.values()), default=0) or 1
    step = _step(highest)
    ceiling = step * -(-highest // step)
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM
    columns = len(nights)

    def x_of(index: int) -> float:
        return round(LEFT + plot_width * index / columns, 1)

    def y_of(value: float) -> float:
        return round(TOP + plot_height * (1 - value / ceiling), 1)

    series = []
    middle = (len(shown) - 1) / 2
    for index, entrant in enumerate(shown):
        nudge = (index - middle) * DODGE
        points = tuple(
            (x_of(column), round(y_of(value) + nudge, 1))
            for column, value in enumerate(totals[entrant])
        )
        path = "M" + " L".join(f"{x:g} {y:g}" for x, y in points)
        series.append(
            Series(
                entrant=entrant,
                name=names.get(entrant, f"#{entrant}"),
                colour=PALETTE[index % len(PALETTE)],
                path=path,
                total=_plain(totals[entrant][-1]),
                points=points,
            )
        )
    x_ticks = tuple(
        Tick(x_of(column + 1), night_labels.get(night["night"], f"Night {column + 1}"))
        for column, night in enumerate(nights)
    )
    y_ticks = tuple(Tick(y_of(value), str(value)) for value in range(0, int(ceiling) + 1, step))
    return Chart(
        measure=measure,
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        top=TOP,
        right=WIDTH - RIGHT,
        bottom=HEIGHT - BOTTOM,
        series=tuple(series),
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        hidden=max(0, len(order) - limit),
    )
