"""A standing's reason in a few plain words, for a phone's row ("Jacks beat them"), beside the
full sentence of :mod:`scoring.standings.domain.standings.explain` shown behind a tap.

Derived from what a stored row already says (its ``decided_by`` measure, its neighbours and its
tie-break values), so a snapshot computed before this module is read alike:

- *neighbour*: the row a row was set against, the row directly above it (the row below, for the
  first row), as in ``StandingRow.decided_by``.
- *tied group*: the ranked rows level with the row on every measure of the chain before the one
  that decided it; a head-to-head among more than two is said as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.standings.domain.standings.rules import MEASURE_LABELS

SHORT: dict[str, tuple[str, str]] = {
    "win_pct": ("won less often than {other}", "won more often than {other}"),
    "wins": ("fewer wins than {other}", "more wins than {other}"),
    "points_for": ("fewer points than {other}", "more points than {other}"),
    "point_diff": ("smaller margin than {other}", "bigger margin than {other}"),
    "head_to_head_points": (
        "fewer points than {other} among the tied",
        "more points than {other} among the tied",
    ),
    "head_to_head_diff": (
        "smaller margin than {other} among the tied",
        "bigger margin than {other} among the tied",
    ),
    "marches": ("fewer marches than {other}", "more marches than {other}"),
    "loners_made": ("fewer loners than {other}", "more loners than {other}"),
    "euchres_inflicted": ("fewer euchres than {other}", "more euchres than {other}"),
    "buchholz": ("weaker opponents than {other}", "stronger opponents than {other}"),
    "buchholz_cut1": ("weaker opponents than {other}", "stronger opponents than {other}"),
    "buchholz_median": ("weaker opponents than {other}", "stronger opponents than {other}"),
    "sonneborn_berger": (
        "beat weaker opponents than {other}",
        "beat stronger opponents than {other}",
    ),
    "progressive": ("won later than {other}", "won sooner than {other}"),
    "coin_flip": ("level with {other}: a coin flip", "level with {other}: a coin flip"),
}
"""Each measure's words (behind the neighbour, ahead of it); a measure not named here is said
with its label ("behind X on <label>")."""


def short_reasons(rows: Sequence[Mapping[str, Any]], chain: Sequence[str]) -> list[str]:
    """One short reason per row of a snapshot's ``rows`` (in their order); ``""`` for a row
    nothing decided (the only ranked one, or an unranked one)."""
    ranked = [row for row in rows if row.get("rank") is not None]
    position = {row["entrant"]: index for index, row in enumerate(ranked)}
    return [_short(row, ranked, position, chain) for row in rows]


def _short(row, ranked, position, chain) -> str:
    measure = row.get("decided_by")
    index = position.get(row["entrant"])
    if measure is None or index is None or len(ranked) < 2:
        return ""
    ahead = index == 0
    other = ranked[1 if ahead else index - 1]["name"]
    if measure == "head_to_head":
        tied = _tied_count(row, ranked, chain, measure)
        if tied > 2:
            if ahead:
                return f"best head-to-head of {tied} tied"
            return f"behind {other} head-to-head, {tied} tied"
        return f"beat {other}" if ahead else f"{other} beat them"
    words = SHORT.get(measure)
    if words is None:
        label = MEASURE_LABELS.get(measure, measure.replace("_", " "))
        return f"{'ahead of' if ahead else 'behind'} {other} on {label}"
    return words[1 if ahead else 0].format(other=other)


def _tied_count(row, ranked, chain, measure) -> int:
    """How many ranked rows are level with ``row`` on every measure before ``measure``."""
    before = list(chain[: list(chain).index(measure)]) if measure in chain else []
    values = row.get("tiebreaks", {})
    return sum(
        1
        for other in ranked
        if all(other.get("tiebreaks", {}).get(m) == values.get(m) for m in before)
    )
