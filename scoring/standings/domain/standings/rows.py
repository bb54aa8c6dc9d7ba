"""The standings' output: one :class:`StandingRow` per entrant (rank, record, tie-break values,
reason) and the season's :class:`Standings`, both to and from the JSON a snapshot stores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class StandingRow:
    """One entrant's place in the standings, its record, its tie-break values and the reason.

    ``rank`` is ``None`` for an unqualified entrant. ``tiebreaks`` maps each measure of the chain
    (coin flip included) to this entrant's value; ``head_to_head`` there is the entrant's record
    (wins, losses and any draws, joined by en dashes) in the last tied group it was compared in, or
    ``None``. ``decided_by`` names the measure that set this row against the row above (the row
    below, for rank 1); ``None`` for an unqualified row or a lone entrant.
    """

    rank: int | None
    entrant: int
    name: str
    qualified: bool
    games: int
    wins: int
    losses: int
    draws: int
    points_for: int | float
    points_against: int | float
    point_diff: int | float
    win_pct: float
    byes: int
    forfeit_wins: int
    forfeit_losses: int
    marches: int
    loners_made: int
    euchres_inflicted: int
    buchholz: float
    coin_flip_draw: int
    games_in_season: int
    nights_counted: tuple[int, ...]
    nights_dropped: tuple[int, ...]
    tiebreaks: dict[str, Any]
    decided_by: str | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (tuples become lists)."""
        row = {name: getattr(self, name) for name in _ROW_FIELDS}  # asdict, without deep copies
        row["tiebreaks"] = dict(self.tiebreaks)
        row["nights_counted"] = list(self.nights_counted)
        row["nights_dropped"] = list(self.nights_dropped)
        return row

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StandingRow:
        values = {f.name: data[f.name] for f in fields(cls)}
        values["nights_counted"] = tuple(values["nights_counted"])
        values["nights_dropped"] = tuple(values["nights_dropped"])
        values["tiebreaks"] = dict(values["tiebreaks"])
        return cls(**values)


_ROW_FIELDS = tuple(f.name for f in fields(StandingRow))


@dataclass(frozen=True)
class Standings:
    """A season's standings: ranked rows first (rank 1…n), then the unqualified ones."""

    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[str, ...]
    coin_flip_seed: int
    min_games: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [row.to_dict() for row in self.rows],
            "tiebreaks": list(self.tiebreaks),
            "coin_flip_seed": self.coin_flip_seed,
            "min_games": self.min_games,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Standings:
        return cls(
            rows=tuple(StandingRow.from_dict(row) for row in data["rows"]),
            tiebreaks=tuple(data["tiebreaks"]),
            coin_flip_seed=data["coin_flip_seed"],
            min_games=data["min_games"],
        )

    def row(self, entrant: int) -> StandingRow:
        """The row of one entrant (``KeyError`` if it is not in the standings)."""
        for row in self.rows:
            if row.entrant == entrant:
                return row
        raise KeyError(entrant)
